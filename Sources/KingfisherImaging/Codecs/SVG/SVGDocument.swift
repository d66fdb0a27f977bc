// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CSVGRenderer
import Foundation

/// A parsed SVG document: librsvg through CSVGRenderer, opened on first use. Parsed without a
/// base URL and with libxml2's limits on, so that it loads nothing outside itself and stops
/// entity expansion and deep nesting; rendered on a thread of its own against a deadline.
final class SVGDocument {
    private let document: OpaquePointer
    /// The document's own size in whole pixels (CSS pixels at 96 DPI, rounded up).
    let width: Int
    let height: Int

    /// Parses `data`.
    ///
    /// - Throws: `unsupportedFormat` when librsvg is not installed, `overLimit` for a document
    ///   over `options.maxSVGByteCount` (its entities expanded: ``SVGEntityExpansion``) or
    ///   referring to anything outside itself (``SVGExternalReferences``),
    ///   `corruptedData` with librsvg's message for one it refuses.
    init(_ data: Data, options: ImageCreatingOptions) throws {
        guard kf_svg_library_load() else { throw ImageCodingError.unsupportedFormat(.SVG) }
        guard data.count <= options.maxSVGByteCount else {
            throw ImageCodingError.overLimit(
                format: .SVG, detail: "the document is \(data.count) bytes, over the limit of \(options.maxSVGByteCount) bytes")
        }
        let source = try SVGEntityExpansion.expanded(data, limit: options.maxSVGByteCount)
        if let reference = SVGExternalReferences.first(in: [UInt8](source)) {
            throw ImageCodingError.overLimit(
                format: .SVG, detail: "it refers outside itself, in \(reference), and an SVG may load nothing")
        }
        var message = [CChar](repeating: 0, count: 512)
        let parsed = source.withUnsafeBytes { bytes in
            kf_svg_document_parse(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, &message, message.count)
        }
        guard let parsed else {
            throw ImageCodingError.corruptedData(format: .SVG, detail: Self.readable(Self.text(message)))
        }
        document = parsed
        var documentWidth = 0.0
        var documentHeight = 0.0
        kf_svg_document_size(parsed, &documentWidth, &documentHeight)
        width = Self.pixels(documentWidth)
        height = Self.pixels(documentHeight)
    }

    deinit { kf_svg_document_free(document) }

    /// The document drawn stretched to `width` x `height`, as straight RGBA8.
    ///
    /// - Throws: `overLimit` when rendering takes longer than `timeLimit` seconds (or every
    ///   renderer stays busy that long), `corruptedData` when librsvg fails.
    func render(width: Int, height: Int, timeLimit: TimeInterval) throws -> [UInt8] {
        var message = [CChar](repeating: 0, count: 256)
        var status = KF_SVG_RENDERED
        let nanoseconds = Int64(max(0, min(timeLimit, 86_400)) * 1e9)
        let pixels = PixelBuffer.make(count: width * height * PixelBuffer.bytesPerPixel) { buffer in
            status = kf_svg_document_render(document, Int32(width), Int32(height), buffer, nanoseconds, &message, message.count)
            // Only a finished render writes the buffer; the array must be initialised either way.
            if status != KF_SVG_RENDERED { buffer.initialize(repeating: 0, count: width * height * PixelBuffer.bytesPerPixel) }
        }
        switch status {
        case KF_SVG_RENDERED:
            return pixels
        case KF_SVG_TIMED_OUT:
            throw ImageCodingError.overLimit(format: .SVG, detail: "rendering it took longer than the limit of \(Self.seconds(timeLimit))")
        case KF_SVG_BUSY:
            throw ImageCodingError.overLimit(format: .SVG, detail: "\(Self.text(message)) of \(Self.seconds(timeLimit))")
        default:
            throw ImageCodingError.corruptedData(format: .SVG, detail: Self.readable(Self.text(message)))
        }
    }

    /// A size in CSS pixels as whole pixels: rounded up, as librsvg advises, and kept within
    /// what a pixel count can hold (the limits refuse it after).
    private static func pixels(_ length: Double) -> Int {
        guard length.isFinite, length > 0 else { return 1 }
        return Int(min(length.rounded(.up), Double(Int32.max)))
    }

    /// The C string `buffer` holds.
    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func seconds(_ time: TimeInterval) -> String {
        time == time.rounded() ? "\(Int(time)) s" : "\(time) s"
    }

    /// librsvg's message without GLib's error domain and code, libxml2's advice, and a final
    /// period.
    private static func readable(_ message: String) -> String {
        var text = message.replacingOccurrences(of: #"Error domain \d+ code \d+ on "#, with: "", options: .regularExpression)
        text = text.replacingOccurrences(of: " of data:", with: ":")
        // libxml2's advice is for its own callers: the limit stays.
        text = text.replacingOccurrences(of: " use XML_PARSE_HUGE option", with: "")
        while text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
