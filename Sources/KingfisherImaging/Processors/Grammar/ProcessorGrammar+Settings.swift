// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

extension ProcessorGrammar {
    /// This grammar with its `watermark(NAME…)` step naming `watermarks` (in place of the ones it
    /// named).
    public func withWatermarks(_ watermarks: [Watermark]) -> ProcessorGrammar {
        adding(.watermark(from: watermarks))
    }

    /// This grammar with `presets` added to its own (a preset of the same name replaced), each
    /// run by `preset(NAME)` and offered by the playground.
    ///
    /// - Throws: ``ImageProcessingError/invalidSpec(spec:detail:)`` for a preset whose spec this
    ///   grammar does not take, or that uses `preset` itself.
    public func withPresets(_ presets: [Preset]) throws -> ProcessorGrammar {
        let added = Set(presets.map(\.name))
        let grammar = ProcessorGrammar(steps: steps, presets: self.presets.filter { !added.contains($0.name) } + presets)
        for preset in presets {
            do {
                _ = try ProcessorGrammar(steps: steps).processor(from: preset.spec)
            } catch let ImageProcessingError.invalidSpec(_, detail) {
                throw ImageProcessingError.invalidSpec(spec: preset.spec, detail: "preset '\(preset.name)': \(detail)")
            }
        }
        return grammar
    }
}

extension ProcessorStep {
    /// The name of the step that runs a preset: `preset`.
    public static let presetName = "preset"

    /// `watermark(NAME[,POSITION][,OPACITY][,SCALE])` over `watermarks`.
    static func watermark(from watermarks: [Watermark]) -> ProcessorStep {
        let byName = Dictionary(watermarks.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
        return ProcessorStep(
            name: "watermark", summary: "lay a named image over it",
            meaning: "WatermarkImageProcessor (POSITION: a side, corner, center (default) or tile; OPACITY default 1; SCALE: of the width)",
            arguments: [
                .required("name", "NAME", .choice(watermarks.map(\.name).sorted(), labels: [:])),
                .optional("position", "POSITION", .choice(WatermarkPosition.named.map(\.name), labels: [:]), default: "center"),
                .optional("opacity", "OPACITY", .number(0...1, step: 0.05), default: "1"),
                .optional("scale", "SCALE", .number(0.01...1, step: 0.01)),
            ],
            example: [watermarks.first?.name ?? "", "se", "0.5", ""]
        ) { values in
            let position = WatermarkPosition.named.first { $0.name == values.choice(1) }?.position ?? .anchor(CGPoint(x: 0.5, y: 0.5))
            return WatermarkImageProcessor(
                watermark: byName[values.choice(0)]!, position: position, opacity: values.number(2),
                scale: values.isGiven(3) ? values.number(3) : nil)
        }
    }

    /// `preset(NAME)` over `presets`, each parsed with `grammar`.
    static func preset(from presets: [ProcessorGrammar.Preset], in grammar: ProcessorGrammar) -> ProcessorStep {
        let specs = Dictionary(presets.map { ($0.name, $0.spec) }, uniquingKeysWith: { _, last in last })
        return ProcessorStep(
            name: presetName, summary: "a named chain",
            meaning: "ImageProcessorChain (the preset's steps; NAME: \(specs.keys.sorted().joined(separator: ", ")))",
            arguments: [.required("name", "NAME", .choice(specs.keys.sorted(), labels: [:]))], example: [presets[0].name]
        ) { values in
            try grammar.processor(from: specs[values.choice(0)]!)
        }
    }
}
