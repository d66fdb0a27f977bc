// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Kingfisher

/// A format the service can answer in: the `.{ext}` of an image URL, or what `Accept`
/// negotiation picked.
public enum OutputFormat: String, Sendable, CaseIterable, Hashable {
    /// JPEG (`jpg`; `jpeg` is accepted too).
    case jpg
    /// PNG.
    case png
    /// WebP.
    case webp
    /// GIF (an unprocessed GIF source answers with its own bytes, animation kept).
    case gif
    /// AVIF.
    case avif

    /// The format of a URL's extension, `jpeg` included; `nil` for anything else.
    public init?(fileExtension: some StringProtocol) {
        switch fileExtension.lowercased() {
        case "jpg", "jpeg": self = .jpg
        case "png": self = .png
        case "webp": self = .webp
        case "gif": self = .gif
        case "avif": self = .avif
        default: return nil
        }
    }

    /// The library's file format for this output.
    public var fileFormat: ImageFileFormat {
        switch self {
        case .jpg: return .JPEG
        case .png: return .PNG
        case .webp: return .WebP
        case .gif: return .GIF
        case .avif: return .AVIF
        }
    }

    /// The output for a source decoded from `format`: the same format when this build can
    /// write it (`encodable`), else PNG for images with alpha and JPEG for opaque ones.
    static func matching(
        source format: ImageFileFormat, hasAlpha: Bool,
        encodable: (OutputFormat) -> Bool = { $0.canEncode }
    ) -> OutputFormat {
        let fallback: OutputFormat = hasAlpha ? .png : .jpg
        guard let same = allCases.first(where: { $0.fileFormat == format }), encodable(same) else { return fallback }
        return same
    }

    /// Whether this build can write the format: a 2x2 image is encoded once, the first time.
    var canEncode: Bool { Self.encodable.contains(self) }

    private static let encodable: Set<OutputFormat> = {
        let probe = KingfisherImage(width: 2, height: 2, pixels: Array(repeating: 128, count: 16))
        return Set(allCases.filter { (try? probe.encoded(as: $0.fileFormat)) != nil })
    }()

    /// The `Content-Type` of the output.
    public var mimeType: String { fileFormat.mimeType ?? "application/octet-stream" }
}
