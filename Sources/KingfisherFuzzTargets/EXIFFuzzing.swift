// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher

/// EXIF parsing: the bytes become the payload of an APP1 segment in a small valid JPEG, which
/// is then decoded (orientation applied) and summarised as `/info` does (every tag read, GPS
/// included), and kept as keep(exif) and keep(copyright) keep it.
enum EXIFFuzzing {
    /// An 8x8 baseline JPEG made once by the library's own encoder. Kept as an array: a global
    /// `Data` holds its storage in a bit-packed enum payload, which LeakSanitizer cannot follow
    /// and reports as leaked when fuzzing ends.
    private static let jpeg: [UInt8] = {
        let image = KingfisherImage(width: 8, height: 8, pixels: (0..<256).map { UInt8(truncatingIfNeeded: $0 &* 11) })
        guard let data = try? image.encoded(as: .JPEG, compressionQuality: 0.9) else {
            fatalError("the JPEG encoder failed on an 8x8 image")
        }
        return Array(data)
    }()

    static func run(_ data: Data) {
        // A segment's length field covers itself: at most 65 533 bytes of payload.
        let payload = data.prefix(65_533)
        let length = payload.count + 2
        var file = Data(jpeg.prefix(2))
        file.append(contentsOf: [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)])
        file.append(payload)
        file.append(contentsOf: jpeg.dropFirst(2))
        FuzzTarget.expectingLibraryErrors {
            let image = try KingfisherImage.decode(data: file)
            precondition(image.pixelWidth == 8 && image.pixelHeight == 8, "orientation changed the size of a square")
        }
        _ = EXIFSummary(data: file, includingGPS: true)
        // What keep(exif) and keep(copyright) make of it, and the JPEG they go into.
        if let block = EXIFBlock(of: file) {
            for kept in [block.uprighted, block.copyrightOnly].compactMap({ $0 }) {
                FuzzTarget.expectingLibraryErrors {
                    let written = try KingfisherImage(width: 8, height: 8, pixels: [UInt8](repeating: 0x80, count: 256))
                        .encoded(as: .JPEG, options: ImageEncodingOptions(exif: kept))
                    _ = EXIFSummary(data: written, includingGPS: true)
                }
            }
        }
    }
}
