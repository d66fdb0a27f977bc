// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// The processing grammar: the steps a spec may use (`downsample(400x400)|>round(20)`), the one
/// table that parsing, the grammar's text (`kf process --help`, error messages) and the
/// service's playground are made from.
public struct ProcessorGrammar: Sendable {
    /// A named chain of steps to start from, as the playground offers them.
    public struct Preset: Sendable {
        /// What the chain makes: `thumbnail`, `avatar`.
        public let name: String
        /// The chain in the grammar.
        public let spec: String

        /// Creates a preset.
        public init(name: String, spec: String) {
            self.name = name
            self.spec = spec
        }
    }

    /// The steps, in the order the grammar lists them.
    public let steps: [ProcessorStep]
    /// Chains to start from. Default none.
    public let presets: [Preset]
    private let stepsByName: [String: ProcessorStep]

    /// A grammar of `steps`, offering `presets` (default none); a later step replaces an earlier
    /// one of the same name.
    ///
    /// With presets, the grammar has a `preset(NAME)` step too, which runs the named preset's
    /// chain (a preset's spec may not use `preset` itself).
    public init(steps: [ProcessorStep], presets: [Preset] = []) {
        self.presets = presets
        var ordered: [ProcessorStep] = []
        for step in steps where step.name != ProcessorStep.presetName {
            if let existing = ordered.firstIndex(where: { $0.name == step.name }) { ordered[existing] = step } else { ordered.append(step) }
        }
        if !presets.isEmpty { ordered.append(.preset(from: presets, in: ProcessorGrammar(steps: ordered))) }
        self.steps = ordered
        stepsByName = Dictionary(uniqueKeysWithValues: ordered.map { ($0.name, $0) })
    }

    /// This grammar with `step` too (replacing a step of the same name).
    public func adding(_ step: ProcessorStep) -> ProcessorGrammar {
        ProcessorGrammar(steps: steps + [step], presets: presets)
    }

    /// The grammar as text: one line per step, its form and the processor it makes.
    public var text: String {
        let width = max(33, (steps.map(\.syntax.count).max() ?? 0) + 2)
        return "SPEC is one or more steps joined by '|>':\n"
            + steps.map { "  " + $0.syntax.padding(toLength: width, withPad: " ", startingAt: 0) + $0.meaning }.joined(separator: "\n")
    }

    /// The processors of `spec`, in order; a spec of more than `maxStepCount` steps (default
    /// ``ImageProcessorSpec/defaultMaxStepCount``) is refused before any step is parsed.
    ///
    /// - Throws: ``ImageProcessingError/invalidSpec(spec:detail:)``, or what a step's processor
    ///   throws when it is made.
    public func processors(from spec: String, maxStepCount: Int = ImageProcessorSpec.defaultMaxStepCount) throws -> [any ImageProcessing] {
        guard !spec.trimmingCharacters(in: .whitespaces).isEmpty else { throw invalid(spec, "it is empty") }
        // Counted on the bytes, so that a hostile spec of a million steps is never split.
        let stepCount = Self.stepCount(spec)
        guard stepCount <= maxStepCount else {
            throw invalid(String(spec.prefix(200)), "it has \(stepCount) steps, over the limit of \(maxStepCount)")
        }
        return try Self.writtenSteps(of: spec).map { text, name in
            do {
                return try processor(ofStep: text, named: name)
            } catch let refusal as ProcessorStepArgument.Refusal {
                throw invalid(spec, "in '\(text)': \(refusal.text)")
            }
        }
    }

    /// One processor running every step of `spec` in order; its identifier is the one
    /// Kingfisher gives `a |> b |> …` of the same processors.
    ///
    /// - Throws: See ``processors(from:maxStepCount:)``.
    public func processor(from spec: String, maxStepCount: Int = ImageProcessorSpec.defaultMaxStepCount) throws -> ImageProcessorChain {
        ImageProcessorChain(try processors(from: spec, maxStepCount: maxStepCount))
    }

    /// Each step of `spec` as written (trimmed) and its name, as the grammar reads them: what a
    /// caller checks of a spec (only presets) is then what runs.
    package static func writtenSteps(of spec: String) -> [(text: String, name: Substring)] {
        spec.components(separatedBy: "|>").map { $0.trimmingCharacters(in: .whitespaces) }.map { text in
            (text, text.firstIndex(of: "(").map { text[..<$0] } ?? Substring(text))
        }
    }

    private func processor(ofStep text: String, named name: Substring) throws -> any ImageProcessing {
        var arguments: [String] = []
        if let open = text.firstIndex(of: "(") {
            guard text.hasSuffix(")") else { throw ProcessorStepArgument.Refusal("missing ')'") }
            arguments = text[text.index(after: open)..<text.index(before: text.endIndex)]
                .split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            if arguments == [""] { arguments = [] }
        }
        guard let step = stepsByName[String(name)] else { throw ProcessorStepArgument.Refusal("unknown processor '\(name)'") }
        return try step.processor(arguments: arguments)
    }

    /// 1 + the number of "|>" separators, counted on the UTF-8 bytes.
    private static func stepCount(_ spec: String) -> Int {
        var spec = spec
        return spec.withUTF8 { bytes in
            var count = 1
            var index = 1
            while index < bytes.count {
                if bytes[index] == 0x3E, bytes[index - 1] == 0x7C { count += 1 }
                index += 1
            }
            return count
        }
    }

    private func invalid(_ spec: String, _ detail: String) -> ImageProcessingError {
        .invalidSpec(spec: spec, detail: detail)
    }
}
