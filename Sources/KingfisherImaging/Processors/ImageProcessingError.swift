// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Why a processor, or a processor spec, was refused.
///
/// Decoding failures of a `.data` item are thrown as ``ImageCodingError`` instead. When
/// `Kingfisher` runs a processor, a refusal is Kingfisher's `processingFailed(processor:item:)`.
public enum ImageProcessingError: Error, Sendable, Equatable {
    /// A processor spec string could not be parsed; `detail` says what was wrong, and the
    /// description includes ``ImageProcessorSpec/grammar``.
    case invalidSpec(spec: String, detail: String)
    /// The processor's output would be over the pixel limit (`ImageCreatingOptions.maxPixelCount`,
    /// frames held at once counted); nothing was allocated for it.
    case outputTooLarge(processor: String, width: Int, height: Int, frameCount: Int, limit: Int)
    /// A parameter of the processor is unusable (not finite, or outside its documented range).
    case invalidParameter(processor: String, detail: String)

    /// A one-line description (two for ``invalidSpec(spec:detail:)``: the grammar follows).
    public var errorDescription: String {
        switch self {
        case .invalidSpec(let spec, let detail):
            return "Invalid processor spec \"\(spec)\": \(detail).\n\(ImageProcessorSpec.grammar)"
        case .outputTooLarge(let processor, let width, let height, let frameCount, let limit):
            let frames = frameCount > 1 ? " x \(frameCount) frames" : ""
            return "The output of \"\(processor)\" would be \(width)x\(height)\(frames) pixels, over the limit of \(limit) pixels."
        case .invalidParameter(let processor, let detail):
            return "The processor \"\(processor)\" cannot run: \(detail)."
        }
    }
}

extension ImageProcessingError: CustomStringConvertible {
    /// Same as ``errorDescription``.
    public var description: String { errorDescription }
}
