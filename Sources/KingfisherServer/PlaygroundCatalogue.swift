// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher

/// What the playground page (`Playground/`, static files) reads at `/playground/catalogue.json`:
/// the processing grammar's steps with their arguments, defaults and limits, its presets and
/// text, the formats this service writes and negotiates, and its name and signing mode. Made
/// from ``ProcessorGrammar`` and the service's settings, so the page never keeps a copy.
struct PlaygroundCatalogue: Encodable {
    struct Step: Encodable {
        var name: String
        var summary: String
        var syntax: String
        var meaning: String
        var anyOrder: Bool
        var example: [String]
        var arguments: [Argument]
    }

    struct Argument: Encodable {
        var label: String
        var placeholder: String
        var kind: String
        var optional: Bool
        var `default`: String?
        var min: Double?
        var max: Double?
        var step: Double?
        var options: [String]?
        var labels: [String: String]?
    }

    struct Preset: Encodable {
        var name: String
        var spec: String
    }

    var name: String
    var allowsUnsigned: Bool
    var grammar: String
    var steps: [Step]
    var presets: [Preset]
    /// URL extensions the service can write, in the order the page offers them.
    var formats: [String]
    /// What `auto` may answer when the browser's `Accept` asks for it.
    var negotiated: [String]

    init(grammar: ProcessorGrammar, name: String, allowsUnsigned: Bool, formats: [OutputFormat], negotiated: [OutputFormat]) {
        self.name = name
        self.allowsUnsigned = allowsUnsigned
        self.grammar = grammar.text
        steps = grammar.steps.map { step in
            Step(
                name: step.name, summary: step.summary, syntax: step.syntax, meaning: step.meaning,
                anyOrder: step.optionalArgumentsInAnyOrder, example: step.example, arguments: step.arguments.map(Self.argument))
        }
        presets = grammar.presets.map { Preset(name: $0.name, spec: $0.spec) }
        self.formats = formats.map(\.rawValue)
        self.negotiated = negotiated.map(\.rawValue)
    }

    private static func argument(_ argument: ProcessorStepArgument) -> Argument {
        var described = Argument(
            label: argument.label, placeholder: argument.placeholder, kind: "", optional: argument.isOptional,
            default: argument.defaultValue)
        switch argument.kind {
        case .size, .freeSize:
            described.kind = "size"
            if case .freeSize = argument.kind { described.min = 0 } else { described.min = 1 }
            described.max = Double(ImageProcessorSpec.maxSize)
        case .number(let range, let step):
            described.kind = "number"
            described.min = Double(range.lowerBound)
            described.max = Double(range.upperBound)
            described.step = step.map(Double.init)
        case .color:
            described.kind = "color"
        case .choice(let options, let labels):
            described.kind = "choice"
            described.options = options
            described.labels = labels
        case .radius:
            described.kind = "radius"
        case .corners:
            described.kind = "corners"
        case .anchor:
            described.kind = "anchor"
        case .gravity:
            // The named gravities; a focal point (focus:X:Y) is typed into the spec.
            described.kind = "choice"
            described.options = CropGravity.named.map(\.name)
            described.labels = [:]
        }
        return described
    }

    /// The catalogue as JSON.
    func json() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)) ?? Data("{}".utf8)
    }
}
