// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// What a processing asks of its encoding, beyond the pixels: the grammar's output steps
/// (`quality(60)`, `progressive`, `lossless`, `effort(N)`, `maxbytes(N)`, `keep(exif)`,
/// `keep(copyright)`), gathered from an
/// ``ImageProcessorChain`` by ``ImageProcessorChain/outputControls``.
public struct OutputControls: Sendable, Hashable {
    /// 1…100 for JPEG, WebP and AVIF; `nil` (the default): the encoder's caller decides.
    public var quality: Int?
    /// A progressive JPEG or an interlaced PNG. Default `false`.
    public var progressive = false
    /// Lossless WebP and AVIF. Default `false`.
    public var lossless = false
    /// 0…9, as ``ImageEncodingOptions/effort``; `nil` (the default): each format's own.
    public var effort: Int?
    /// The most bytes the output should take: the highest quality found whose output fits
    /// (lossy formats only), or the lowest when none does; `nil` (the default): no bound.
    public var maxBytes: Int?
    /// The source's EXIF kept in the output, its orientation set to 1 and its thumbnail wiped
    /// (``EXIFBlock/uprighted``). Default `false`: EXIF and XMP stripped.
    public var keepsEXIF = false
    /// Only the source's Artist and Copyright tags kept (``EXIFBlock/copyrightOnly``); with
    /// ``keepsEXIF`` the whole block is. Default `false`.
    public var keepsCopyright = false

    /// No controls.
    public init() {}

    /// The controls in a word each, for cache keys: empty when there are none.
    public var keyDescription: String {
        var words: [String] = []
        if let quality { words.append("q\(quality)") }
        if progressive { words.append("progressive") }
        if lossless { words.append("lossless") }
        if let effort { words.append("e\(effort)") }
        if let maxBytes { words.append("max\(maxBytes)") }
        if keepsEXIF { words.append("exif") } else if keepsCopyright { words.append("copyright") }
        return words.joined(separator: ",")
    }

    /// Whether the output needs the source's bytes: it keeps some of their EXIF.
    public var keepsMetadata: Bool { keepsEXIF || keepsCopyright }

    /// What of `original`'s EXIF the output keeps; `nil` when it keeps none, or `original`
    /// (a source file's bytes) has none.
    public func keptEXIF(of original: Data?) -> EXIFBlock? {
        guard keepsMetadata, let original, let block = EXIFBlock(of: original) else { return nil }
        return keepsEXIF ? block.uprighted : block.copyrightOnly
    }

    /// ``ImageEncodingOptions`` with these controls, at `quality` (1…100) unless one is given,
    /// writing `exif`.
    public func encodingOptions(defaultQuality quality: Int, exif: EXIFBlock? = nil) -> ImageEncodingOptions {
        ImageEncodingOptions(
            compressionQuality: CGFloat(self.quality ?? quality) / 100, lossless: lossless, progressive: progressive, effort: effort,
            exif: exif)
    }
}

/// A step that changes a processing's encoding, not its pixels: it passes images through, and
/// ``ImageProcessorChain/outputControls`` gathers what the steps of a chain ask, a later one
/// winning.
public struct OutputControlProcessor: ImageProcessing {
    /// `com.onevcat.Kingfisher.OutputControl(<what it sets>)`.
    public let identifier: String
    /// Sets what the step asks on the controls gathered so far.
    public let apply: @Sendable (inout OutputControls) -> Void

    /// A step named `name` (part of its identifier) that sets what `apply` sets.
    public init(_ name: String, apply: @escaping @Sendable (inout OutputControls) -> Void) {
        identifier = "com.onevcat.Kingfisher.OutputControl(\(name))"
        self.apply = apply
    }

    /// Decodes a `.data` item; an image passes through.
    public func process(_ item: ImageProcessItem, in context: ImageProcessingContext) throws -> KingfisherImage {
        try processDecodingData(item, in: context) { $0 }
    }
}

extension ImageProcessorChain {
    /// What the chain's ``OutputControlProcessor`` steps ask, in order (nested chains included).
    public var outputControls: OutputControls {
        var controls = OutputControls()
        func gather(_ steps: [any ImageProcessing]) {
            for step in steps {
                if let control = step as? OutputControlProcessor { control.apply(&controls) }
                if let chain = step as? ImageProcessorChain { gather(chain.steps) }
            }
        }
        gather(steps)
        return controls
    }

    /// The chain without its ``OutputControlProcessor`` steps (nested chains included): what
    /// makes the pixels, and the identifier processed images are kept under.
    public var withoutOutputControls: ImageProcessorChain {
        ImageProcessorChain(
            steps.compactMap { step in
                if step is OutputControlProcessor { return nil }
                if let chain = step as? ImageProcessorChain { return chain.withoutOutputControls }
                return step
            })
    }
}
