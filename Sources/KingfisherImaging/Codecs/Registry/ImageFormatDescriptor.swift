// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Everything the library knows about one file format: how to recognise it, decode and encode
/// it, and what it can hold. The ``ImageFormatRegistry`` keeps one per format; decoding,
/// encoding, `kf`'s output extensions and the image service's extensions and `Accept`
/// negotiation all read it.
///
/// A format of an application's own is one descriptor made with
/// ``init(format:name:mimeType:fileExtensions:supportsAlpha:supportsAnimation:maxEncodedDimension:negotiationPriority:detect:decode:encode:)``
/// and ``ImageFormatRegistry/register(_:)``.
public struct ImageFormatDescriptor: Sendable {
    /// Makes the image of a file's bytes: the library's own codecs decode straight to the size
    /// a processor needs and leave colour management and orientation to the shared decoder;
    /// another codec gives the whole image.
    enum Decoder: Sendable {
        case native(@Sendable (Data, ImageCreatingOptions, DecodingTarget?) throws -> DecodedImage)
        case image(@Sendable (Data, ImageCreatingOptions) throws -> KingfisherImage)
    }

    /// Encodes an image: `compressionQuality` 0…1 for lossy formats, `lossless` for formats that
    /// have both modes.
    public typealias Encoder = @Sendable (_ image: KingfisherImage, _ compressionQuality: CGFloat, _ lossless: Bool) throws -> Data

    /// The format.
    public let format: ImageFileFormat
    /// Its name as people write it (`PNG`, `WebP`, `JPEG XL`).
    public let name: String
    /// Its media type (`image/png`).
    public let mimeType: String
    /// The file extensions it goes by, without the dot, the usual one first (`jpg`, `jpeg`).
    public let fileExtensions: [String]
    /// Whether it can hold transparency.
    public let supportsAlpha: Bool
    /// Whether it can hold an animation.
    public let supportsAnimation: Bool
    /// The longest side its encoder can write, in pixels (WebP: 16 383); `nil` when only memory
    /// limits it. A larger image fails to encode with a message that says so.
    public let maxEncodedDimension: Int?
    /// Where an image service offers it to browsers that ask for it in `Accept`, lowest first;
    /// `nil` when it is only written when a URL names it.
    public let negotiationPriority: Int?
    /// Whether the first bytes of a file (up to ``ImageFormatRegistry/signatureByteCount``) are this format's.
    let detect: @Sendable (_ head: [UInt8]) -> Bool
    let decoder: Decoder?
    /// Reads what the headers say without decoding a pixel (``ImageProperties``); `nil`: a
    /// decode finds it.
    let header: (@Sendable (Data, ImageCreatingOptions) throws -> ImageHeader)?
    /// The encoder, taking every ``ImageEncodingOptions``; `nil` for a format the library only reads.
    let encoding: (@Sendable (KingfisherImage, ImageEncodingOptions) throws -> Data)?

    /// The encoder, in the form that takes a quality and `lossless` only; `nil` for a format the
    /// library only reads.
    public var encoder: Encoder? {
        guard let encoding else { return nil }
        return { image, quality, lossless in
            try encoding(image, ImageEncodingOptions(compressionQuality: quality, lossless: lossless))
        }
    }

    /// Describes a format whose decoder gives the whole image (an application's own).
    ///
    /// - Parameters:
    ///   - format: The format.
    ///   - name: Its name as people write it (`PNG`, `WebP`, `JPEG XL`).
    ///   - mimeType: Its media type (`image/png`).
    ///   - fileExtensions: The file extensions it goes by, without the dot, the usual one first.
    ///   - supportsAlpha: Whether it can hold transparency.
    ///   - supportsAnimation: Default `false`.
    ///   - maxEncodedDimension: Default `nil`.
    ///   - negotiationPriority: Default `nil`: never picked by `Accept` negotiation.
    ///   - detect: Whether the first bytes of a file (up to ``ImageFormatRegistry/signatureByteCount``) are this format's.
    ///   - decode: The image of a file's bytes (`nil`: the format is only written).
    ///   - encode: The bytes of an image (`nil`: the format is only read).
    public init(
        format: ImageFileFormat, name: String, mimeType: String, fileExtensions: [String], supportsAlpha: Bool,
        supportsAnimation: Bool = false, maxEncodedDimension: Int? = nil, negotiationPriority: Int? = nil,
        detect: @escaping @Sendable (_ head: [UInt8]) -> Bool,
        decode: (@Sendable (Data, ImageCreatingOptions) throws -> KingfisherImage)?,
        encode: Encoder?
    ) {
        self.init(
            format: format, name: name, mimeType: mimeType, fileExtensions: fileExtensions, supportsAlpha: supportsAlpha,
            supportsAnimation: supportsAnimation, maxEncodedDimension: maxEncodedDimension, negotiationPriority: negotiationPriority,
            detect: detect, decoder: decode.map(Decoder.image), encoding: Self.encoding(encode))
    }

    /// An encoder of the quality-and-lossless form as one taking ``ImageEncodingOptions``.
    private static func encoding(_ encode: Encoder?) -> (@Sendable (KingfisherImage, ImageEncodingOptions) throws -> Data)? {
        guard let encode else { return nil }
        return { image, options in try encode(image, options.compressionQuality, options.lossless) }
    }

    /// Describes one of the library's own formats.
    init(
        format: ImageFileFormat, name: String, mimeType: String, fileExtensions: [String], supportsAlpha: Bool,
        supportsAnimation: Bool, maxEncodedDimension: Int? = nil, negotiationPriority: Int? = nil,
        detect: @escaping @Sendable (_ head: [UInt8]) -> Bool, decoder: Decoder?,
        header: (@Sendable (Data, ImageCreatingOptions) throws -> ImageHeader)? = nil,
        encoding: (@Sendable (KingfisherImage, ImageEncodingOptions) throws -> Data)?
    ) {
        self.format = format
        self.name = name
        self.mimeType = mimeType
        self.fileExtensions = fileExtensions
        self.supportsAlpha = supportsAlpha
        self.supportsAnimation = supportsAnimation
        self.maxEncodedDimension = maxEncodedDimension
        self.negotiationPriority = negotiationPriority
        self.detect = detect
        self.decoder = decoder
        self.header = header
        self.encoding = encoding
    }

    /// Whether the library reads the format.
    public var canDecode: Bool { decoder != nil }

    /// Whether the library writes the format.
    public var canEncode: Bool { encoding != nil }
}
