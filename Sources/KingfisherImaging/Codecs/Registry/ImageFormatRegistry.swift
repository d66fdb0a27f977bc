// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// The formats the library knows: one ``ImageFormatDescriptor`` each, the built-in ones (a
/// folder each under `Codecs/`) and any an application registers. Recognising a file, decoding,
/// encoding, and the extensions and media types that `kf` and the image service accept all go
/// through it.
public final class ImageFormatRegistry: Sendable {
    /// The registry the library uses.
    public static let shared = ImageFormatRegistry(descriptors: ImageFormatDescriptor.builtIn)

    private let state: Locked<[ImageFormatDescriptor]>

    /// A registry of `descriptors`, in the order files are matched against them.
    public init(descriptors: [ImageFormatDescriptor]) {
        state = Locked(descriptors)
    }

    /// Every format's descriptor, in the order files are matched against them.
    public var descriptors: [ImageFormatDescriptor] { state.withLock { $0 } }

    /// Adds `descriptor`, or replaces the one of its format. A new format is matched against
    /// files after the ones already there.
    public func register(_ descriptor: ImageFormatDescriptor) {
        state.withLock { descriptors in
            if let index = descriptors.firstIndex(where: { $0.format == descriptor.format }) {
                descriptors[index] = descriptor
            } else {
                descriptors.append(descriptor)
            }
        }
    }

    /// The descriptor of `format`; `nil` for `unknown` and formats nobody registered.
    public func descriptor(for format: ImageFileFormat) -> ImageFormatDescriptor? {
        state.withLock { descriptors in descriptors.first { $0.format == format } }
    }

    /// The format a file extension names (`jpeg`, `PNG`, `.webp`), or `nil`.
    public func format(forFileExtension fileExtension: some StringProtocol) -> ImageFileFormat? {
        var name = fileExtension.lowercased()
        if name.hasPrefix(".") { name.removeFirst() }
        return descriptors.first { $0.fileExtensions.contains(name) }?.format
    }

    /// The format of a media type (`image/webp`), or `nil`.
    public func format(forMIMEType mimeType: some StringProtocol) -> ImageFileFormat? {
        let type = mimeType.lowercased()
        return descriptors.first { $0.mimeType == type }?.format
    }

    /// How many of a file's first bytes ``format(ofFileStartingWith:)`` looks at: 512, enough
    /// for an SVG's XML declaration and comments before its root element.
    public static let signatureByteCount = 512

    /// The format whose signature starts `bytes` (the first ``signatureByteCount`` are read),
    /// or `unknown`.
    public func format(ofFileStartingWith bytes: some Collection<UInt8>) -> ImageFileFormat {
        let head = Array(bytes.prefix(Self.signatureByteCount))
        return descriptors.first { $0.detect(head) }?.format ?? .unknown
    }

    /// The formats an image service offers to browsers that ask, in order
    /// (``ImageFormatDescriptor/negotiationPriority``): those the library can write.
    public var negotiatedFormats: [ImageFileFormat] {
        descriptors.filter { $0.canEncode && $0.negotiationPriority != nil }
            .sorted { ($0.negotiationPriority ?? 0) < ($1.negotiationPriority ?? 0) }
            .map(\.format)
    }
}
