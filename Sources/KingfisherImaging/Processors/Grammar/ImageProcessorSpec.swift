// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Builds processors from a compact text form, so a command line or a URL can carry a chain:
/// `downsample(400x400)|>round(20)|>blur(4)`, in ``ProcessorGrammar/standard``'s steps. Sizes
/// are in points, colours are hex.
public enum ImageProcessorSpec {
    /// The grammar, as shown in error messages and `kf process --help`: one line per step form.
    public static var grammar: String { ProcessorGrammar.standard.text }

    /// The largest size argument: 100 000 points a side (the output must also stay within the
    /// options' `maxPixelCount` when the processor runs).
    public static let maxSize: CGFloat = 100_000
    /// The largest corner radius or border width: 10 000 points.
    public static let maxRadius: CGFloat = 10_000
    /// The largest blur radius: ``BlurImageProcessor/maxBlurRadius`` (1 000), in points; the
    /// processor refuses a radius over 1 000 pixels once scaled (at scale 1, the same).
    public static let maxBlurRadius: CGFloat = BlurImageProcessor.maxBlurRadius
    /// The default most steps in one spec: 32.
    public static let defaultMaxStepCount = 32

    /// The processors of `spec`, in order; a spec of more than `maxStepCount` steps (default
    /// ``defaultMaxStepCount``) is refused before any step is parsed.
    ///
    /// - Throws: ``ImageProcessingError/invalidSpec(spec:detail:)``.
    public static func processors(from spec: String, maxStepCount: Int = defaultMaxStepCount) throws -> [any ImageProcessing] {
        try ProcessorGrammar.standard.processors(from: spec, maxStepCount: maxStepCount)
    }

    /// One processor running every step of `spec` in order, at most `maxStepCount` of them
    /// (default ``defaultMaxStepCount``). Its identifier is the one Kingfisher gives `a |> b |> …`
    /// of the same processors.
    ///
    /// - Throws: ``ImageProcessingError/invalidSpec(spec:detail:)``.
    public static func processor(from spec: String, maxStepCount: Int = defaultMaxStepCount) throws -> ImageProcessorChain {
        try ProcessorGrammar.standard.processor(from: spec, maxStepCount: maxStepCount)
    }
}
