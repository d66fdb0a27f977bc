// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// One step of the processing grammar: `name(ARG,…)`, its arguments, and the processor it
/// makes. ``ProcessorGrammar/standard`` holds the built-in steps; a step of an application's
/// own is added with ``ProcessorGrammar/adding(_:)``.
public struct ProcessorStep: Sendable {
    /// The step's name in the text: lowercase letters.
    public let name: String
    /// What it does, in a few words, for the playground's menu.
    public let summary: String
    /// The processor it makes, with any note on its arguments, for the grammar's text.
    public let meaning: String
    /// Its arguments, in order: the required ones first.
    public let arguments: [ProcessorStepArgument]
    /// Whether the optional arguments may come in any order, each told apart by its shape
    /// (`round(R,WxH,CORNERS)`, `blend(MODE,#BG,ALPHA)`); one given twice keeps the last.
    /// Default `false`: positional.
    public let optionalArgumentsInAnyOrder: Bool
    /// Argument texts the playground starts a new step with.
    public let example: [String]
    /// Makes the processor from the parsed arguments.
    public let build: @Sendable (ProcessorStepValues) throws -> any ImageProcessing

    /// Creates a step.
    ///
    /// - Parameters:
    ///   - name: The step's name in the text: lowercase letters.
    ///   - summary: What it does, in a few words, for the playground's menu.
    ///   - meaning: The processor it makes, with any note on its arguments, for the grammar's text.
    ///   - arguments: Its arguments, in order: the required ones first.
    ///   - optionalArgumentsInAnyOrder: Default `false`.
    ///   - example: Default: each argument's default, or empty.
    ///   - build: Makes the processor from the parsed arguments.
    public init(
        name: String, summary: String, meaning: String, arguments: [ProcessorStepArgument],
        optionalArgumentsInAnyOrder: Bool = false, example: [String]? = nil,
        build: @escaping @Sendable (ProcessorStepValues) throws -> any ImageProcessing
    ) {
        self.name = name
        self.summary = summary
        self.meaning = meaning
        self.arguments = arguments
        self.optionalArgumentsInAnyOrder = optionalArgumentsInAnyOrder
        self.example = example ?? arguments.map { $0.defaultValue ?? "" }
        self.build = build
    }

    /// The step's form in the grammar's text: `crop(WxH[,AX,AY])`.
    public var syntax: String {
        guard !arguments.isEmpty else { return name }
        var text = name + "("
        for (index, argument) in arguments.enumerated() {
            let separator = index == 0 ? "" : ","
            text += argument.isOptional ? "[\(separator)\(argument.placeholder)]" : separator + argument.placeholder
        }
        return text + ")"
    }

    /// The processor for the arguments' texts (split at commas).
    ///
    /// - Throws: `ProcessorStepArgument.Refusal` saying what was wrong; what ``build`` throws.
    func processor(arguments texts: [String]) throws -> any ImageProcessing {
        let required = arguments.filter { !$0.isOptional }
        let minimum = required.reduce(0) { $0 + $1.kind.width }
        let maximum = arguments.reduce(0) { $0 + $1.kind.width }
        guard (minimum...maximum).contains(texts.count) else {
            let expected = minimum == maximum ? "\(minimum)" : "\(minimum) to \(maximum)"
            throw ProcessorStepArgument.Refusal("\(name) takes \(expected) arguments, got \(texts.count)")
        }
        var values = [ProcessorStepArgument.Value?](repeating: nil, count: arguments.count)
        var index = 0
        // Required arguments, then optional ones in order or, when allowed, by their shape.
        var pending = Array(arguments.indices)
        while index < texts.count {
            let slot: Int
            if optionalArgumentsInAnyOrder, !pending.contains(where: { !arguments[$0].isOptional }) {
                // By shape; an argument given again replaces the first (the last one counts).
                let optional = arguments.indices.filter { arguments[$0].isOptional }
                guard
                    let matching = pending.first(where: { arguments[$0].recognises(texts[index]) })
                        ?? optional.first(where: { arguments[$0].recognises(texts[index]) })
                else {
                    throw ProcessorStepArgument.Refusal(
                        "'\(texts[index])' is none of \(optional.map { arguments[$0].placeholder }.joined(separator: ", "))")
                }
                slot = matching
            } else {
                slot = pending[0]
            }
            pending.removeAll { $0 == slot }
            let width = arguments[slot].kind.width
            guard index + width <= texts.count else {
                throw ProcessorStepArgument.Refusal("\(name) takes \(arguments[slot].placeholder) as \(width) arguments")
            }
            values[slot] = try arguments[slot].parse(texts[index..<index + width].joined(separator: ","))
            index += width
        }
        for slot in pending {
            if let text = arguments[slot].defaultValue { values[slot] = try arguments[slot].parse(text) }
        }
        return try build(ProcessorStepValues(values: values))
    }
}

/// The parsed arguments of a ``ProcessorStep``, by position, defaults applied.
public struct ProcessorStepValues: Sendable {
    let values: [ProcessorStepArgument.Value?]

    /// Whether argument `index` was given or has a default.
    public func isGiven(_ index: Int) -> Bool { values[index] != nil }

    /// Argument `index` as a size; `.zero` when absent.
    public func size(_ index: Int) -> CGSize {
        if case .size(let size) = values[index] { return size }
        return .zero
    }

    /// Argument `index` as a number; 0 when absent.
    public func number(_ index: Int) -> CGFloat {
        if case .number(let number) = values[index] { return number }
        return 0
    }

    /// Argument `index` as a colour; `nil` when absent.
    public func color(_ index: Int) -> KingfisherColor? {
        if case .color(let color) = values[index] { return color }
        return nil
    }

    /// Argument `index` as one of its choices; empty when absent.
    public func choice(_ index: Int) -> String {
        if case .choice(let choice) = values[index] { return choice }
        return ""
    }

    /// Argument `index` as a radius; 0 points when absent.
    public func radius(_ index: Int) -> Radius {
        if case .radius(let radius) = values[index] { return radius }
        return .point(0)
    }

    /// Argument `index` as corners; all of them when absent.
    public func corners(_ index: Int) -> RectCorner {
        if case .corners(let corners) = values[index] { return corners }
        return .all
    }

    /// Argument `index` as a gravity; the centre when absent.
    public func gravity(_ index: Int) -> CropGravity {
        if case .gravity(let gravity) = values[index] { return gravity }
        return .center
    }

    /// Argument `index` as an anchor; the centre when absent.
    public func anchor(_ index: Int) -> CGPoint {
        if case .anchor(let anchor) = values[index] { return anchor }
        return CGPoint(x: 0.5, y: 0.5)
    }
}
