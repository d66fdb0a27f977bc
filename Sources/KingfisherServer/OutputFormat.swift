// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Kingfisher

/// A format the service writes: a format of `ImageFormatRegistry` that the library encodes,
/// named in URLs (and in `Accept` negotiation settings) by its usual file extension.
public struct OutputFormat: RawRepresentable, Hashable, Sendable {
    /// The library's format.
    public let fileFormat: ImageFileFormat

    /// The usual extension (`jpg`, `png`, `webp`, `gif`, `avif`, `jxl`).
    public var rawValue: String { fileFormat.fileExtension ?? fileFormat.rawValue.lowercased() }

    private init(unchecked fileFormat: ImageFileFormat) {
        self.fileFormat = fileFormat
    }

    /// The output `fileFormat` is, when the library encodes it.
    public init?(_ fileFormat: ImageFileFormat) {
        guard fileFormat.isEncodable else { return nil }
        self.fileFormat = fileFormat
    }

    /// The format of a URL's extension, any of the format's (`jpeg` too); `nil` for a format
    /// the library does not write.
    public init?(fileExtension: some StringProtocol) {
        guard let format = ImageFormatRegistry.shared.format(forFileExtension: fileExtension) else { return nil }
        self.init(format)
    }

    /// See ``init(fileExtension:)``.
    public init?(rawValue: String) {
        self.init(fileExtension: rawValue)
    }

    /// JPEG.
    public static let jpg = OutputFormat(unchecked: .JPEG)
    /// PNG.
    public static let png = OutputFormat(unchecked: .PNG)
    /// WebP.
    public static let webp = OutputFormat(unchecked: .WebP)
    /// GIF (an unprocessed GIF source answers with its own bytes, animation kept).
    public static let gif = OutputFormat(unchecked: .GIF)
    /// AVIF.
    public static let avif = OutputFormat(unchecked: .AVIF)

    /// Every format the library encodes, in the registry's order.
    public static var allCases: [OutputFormat] {
        ImageFormatRegistry.shared.descriptors.compactMap { OutputFormat($0.format) }
    }

    /// The output for a source decoded from `format`: the same format when this build can
    /// write it (`encodable`), else PNG for images with alpha and JPEG for opaque ones.
    static func matching(
        source format: ImageFileFormat, hasAlpha: Bool,
        encodable: (OutputFormat) -> Bool = { $0.canEncode }
    ) -> OutputFormat {
        let fallback: OutputFormat = hasAlpha ? .png : .jpg
        // Most browsers do not show JPEG XL: such a source is answered as JPEG XL only when the
        // URL or Accept asks for it.
        guard format != .JXL, let same = OutputFormat(format), encodable(same) else { return fallback }
        return same
    }

    /// The longest side the format holds, in pixels; `nil` when only memory limits it.
    var maxDimension: Int? { fileFormat.descriptor?.maxEncodedDimension }

    /// Whether the format can hold an image of `width` x `height` pixels.
    func holds(width: Int, height: Int) -> Bool {
        maxDimension.map { max(width, height) <= $0 } ?? true
    }

    /// Whether this build can write the format: a 2x2 image is encoded once per format, the
    /// first time it is asked (libavif may come without an AV1 encoder).
    var canEncode: Bool {
        if let known = Self.encodable.withLock({ $0[self] }) { return known }
        // Encoded outside the lock: a registered format's encoder is an application's code.
        let probe = KingfisherImage(width: 2, height: 2, pixels: Array(repeating: 128, count: 16))
        let answer = (try? probe.encoded(as: fileFormat)) != nil
        Self.encodable.withLock { $0[self] = answer }
        return answer
    }

    private static let encodable = Locked<[OutputFormat: Bool]>([:])

    /// The `Content-Type` of the output.
    public var mimeType: String { fileFormat.mimeType ?? "application/octet-stream" }
}
