// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher

/// Which format a request asked for: named by the URL's extension, or negotiated from `Accept`.
///
/// Part of the result cache key, so each negotiated format has its own cached bytes and ETag.
enum FormatChoice: Hashable, Sendable {
    /// The URL's extension named the format; the answer does not vary with `Accept`.
    case named(OutputFormat)
    /// `Accept` picked the format (AVIF, then WebP); the answer carries `Vary: Accept`.
    case negotiated(OutputFormat)
    /// Neither: the source's own format (or PNG/JPEG for formats the service cannot write);
    /// the answer carries `Vary: Accept`, since another `Accept` could have picked AVIF or WebP.
    case sourceFormat

    /// Whether the answer depends on the request's `Accept` header.
    var variesWithAccept: Bool {
        if case .named = self { return false }
        return true
    }

    /// The short name used in cache keys. A negotiated format has its own (`accept-webp`): a
    /// result too large for it is written in another format, which a URL naming the format
    /// must not be answered with.
    var keyComponent: String {
        switch self {
        case .named(let format): return format.rawValue
        case .negotiated(let format): return "accept-" + format.rawValue
        case .sourceFormat: return "source"
        }
    }

    /// The format to write a result of `width` x `height` in, from a source of `sourceFormat`:
    /// the named format when it holds that size; the negotiated one when it does, else the
    /// source's (a panorama too wide for WebP is still answered); the source's when that holds
    /// it, else PNG, which holds any size.
    ///
    /// - Throws: `400` when the URL's extension names a format too small for the result.
    func outputFormat(width: Int, height: Int, sourceFormat: ImageFileFormat, hasAlpha: Bool) throws(ServiceError) -> OutputFormat {
        switch self {
        case .named(let format):
            guard format.holds(width: width, height: height) else {
                throw ServiceError(
                    .badRequest,
                    "the result is \(width)x\(height), over the \(format.maxDimension ?? 0) pixels a side \(format.fileFormat.descriptor?.name ?? format.rawValue) holds: "
                        + "ask for another format (png holds any size)")
            }
            return format
        case .negotiated(let format) where format.holds(width: width, height: height):
            return format
        case .negotiated, .sourceFormat:
            let matching = OutputFormat.matching(source: sourceFormat, hasAlpha: hasAlpha)
            return matching.holds(width: width, height: height) ? matching : .png
        }
    }

    /// The choice for a URL extension (or none) and an `Accept` header.
    ///
    /// - Parameters:
    ///   - extensionFormat: The format the URL's `.{ext}` named, if any; it wins.
    ///   - accept: The request's `Accept` header, if any.
    ///   - negotiable: The formats negotiation may pick, in order of preference (AVIF, then WebP,
    ///     those the service can encode and has not turned off).
    static func resolve(extensionFormat: OutputFormat?, accept: String?, negotiable: [OutputFormat]) -> FormatChoice {
        if let extensionFormat { return .named(extensionFormat) }
        guard let accept else { return .sourceFormat }
        let ranges = AcceptHeader(accept)
        for format in negotiable where ranges.acceptsExplicitly(mimeType: format.mimeType) {
            return .negotiated(format)
        }
        return .sourceFormat
    }
}

/// An `Accept` header's media ranges with their q-values (RFC 9110 §12.5.1).
///
/// Only explicit types count for negotiation: `image/*` and `*/*` accept any image, but
/// browsers send them for formats they cannot show, so AVIF or WebP are picked only when named.
struct AcceptHeader {
    private var qualities: [Substring: Double] = [:]

    init(_ header: String) {
        for element in header.split(separator: ",") {
            let parts = element.split(separator: ";")
            guard let type = parts.first?.trimmingCharacters(in: .whitespaces).lowercased(), !type.isEmpty else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if pair.count == 2, pair[0].lowercased() == "q", let value = Double(pair[1]) {
                    quality = min(1, max(0, value))
                }
            }
            qualities[Substring(type)] = max(qualities[Substring(type)] ?? 0, quality)
        }
    }

    /// Whether `mimeType` is named with a q-value above 0.
    func acceptsExplicitly(mimeType: String) -> Bool {
        (qualities[Substring(mimeType)] ?? 0) > 0
    }
}
