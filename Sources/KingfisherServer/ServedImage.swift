// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Crypto
import Foundation
import Kingfisher
import NIOCore

/// An encoded result as the service answers it: the bytes, their format and a strong ETag.
///
/// Cached in memory as it is sent (a `ByteBuffer`, never copied per request) and on disk as its
/// bytes; the format is read back from the bytes' magic numbers and the ETag recomputed.
struct ServedImage: Sendable, CacheCostCalculable, DataTransformable {
    /// The encoded image.
    let body: ByteBuffer
    /// The output format.
    let format: OutputFormat
    /// `"…"`: base64url of the first 18 bytes of the body's SHA-256.
    let etag: String

    init(data: Data, format: OutputFormat) {
        body = ByteBuffer(bytes: data)
        self.format = format
        etag = Self.etag(of: data)
    }

    /// The entity tag of a body: `"…"`, base64url of the first 18 bytes of its SHA-256.
    static func etag(of data: Data) -> String {
        "\"\(Base64URL.encode(SHA256.hash(data: data).prefix(18)))\""
    }

    var cacheCost: Int { body.readableBytes }

    func toData() throws -> Data { Data(body.readableBytesView) }

    static func fromData(_ data: Data) throws -> ServedImage {
        let fileFormat = ImageFileFormat(magicBytes: data.prefix(64))
        guard let format = OutputFormat(fileFormat) else {
            throw ImageURLPath.Problem(description: "a cached result is not in an output format")
        }
        return ServedImage(data: data, format: format)
    }

    static var empty: ServedImage { ServedImage(data: Data(), format: .png) }
}
