// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CDeflate
import Foundation

/// The frame table of an animated PNG (APNG), read from its chunks: the canvas, the play count,
/// and for each frame its region, delay, disposal, blending and compressed data. No pixel is
/// decoded here; ``APNGFrameReader`` decodes the frames.
struct APNGAnimation {
    private static let format = ImageFileFormat.PNG

    /// How a frame's region is left before the next frame is drawn.
    enum Disposal: UInt8 {
        case none = 0
        case background = 1
        case previous = 2
    }

    struct Frame {
        var x: Int, y: Int, width: Int, height: Int
        var duration: TimeInterval
        var disposal: Disposal
        /// Draw over the canvas (`true`) or replace the region (`false`).
        var blendsOver: Bool
        /// The zlib stream of the frame's pixels, in pieces (IDAT data, or fdAT data after its
        /// sequence number).
        var data: [Range<Int>] = []
    }

    let width: Int
    let height: Int
    /// 0 means forever.
    let playCount: Int
    let frames: [Frame]
    /// IHDR's bit depth, colour type, compression, filter and interlace bytes.
    let headerTail: [UInt8]
    /// PLTE and tRNS chunks (type and data), copied into every frame's stand-alone PNG.
    let sharedChunks: [(type: [UInt8], body: Range<Int>)]

    /// Whether `bytes` (a PNG) has an acTL chunk before its image data: an animation.
    static func isAnimated(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var found = false
        walkChunks(bytes) { type, _ in
            if type == "acTL" { found = true }
            return !found && type != "IDAT"
        }
        return found
    }

    /// Reads the frame table; `nil` when the animation is invalid by the APNG specification, so
    /// that the file shows its default image alone, as browsers do: not exactly one `acTL`
    /// before the image data, a frame count of 0 or other than the `fcTL` chunks, sequence
    /// numbers that skip or repeat, a frame control with no data after it, or a frame with an
    /// unknown disposal or blending or a region outside the canvas.
    ///
    /// - Throws: ``ImageCodingError`` when the file is truncated, has no header, or passes the
    ///   limits (more frames than allowed, or too many pixels).
    init?(_ bytes: UnsafeRawBufferPointer, limits: DecodingLimits) throws {
        var header: Range<Int>?
        var playCount = 0
        var declaredFrames: Int?
        var frames: [Frame] = []
        var shared: [(type: [UInt8], body: Range<Int>)] = []
        var seenImageData = false
        var nextSequence = 0
        var valid = true
        var failure: ImageCodingError?
        let ended = Self.walkChunks(bytes) { type, body in
            func u32(_ at: Int) -> Int { Int(bytes.loadUnaligned(fromByteOffset: body.lowerBound + at, as: UInt32.self).bigEndian) }
            func u16(_ at: Int) -> Int { Int(bytes.loadUnaligned(fromByteOffset: body.lowerBound + at, as: UInt16.self).bigEndian) }
            /// Takes the next sequence number; `false` (invalid) when the chunk's is another.
            func sequenced() -> Bool {
                guard body.count >= 4, u32(0) == nextSequence else { return false }
                nextSequence += 1
                return true
            }
            switch type {
            case "IHDR" where body.count == 13:
                header = body
            case "acTL":
                guard body.count == 8, declaredFrames == nil, !seenImageData else {
                    valid = false
                    return false
                }
                declaredFrames = u32(0)
                playCount = u32(4)
            case "PLTE", "tRNS":
                shared.append((Array(type.utf8), body))
            case "fcTL":
                // Each frame control is followed by its data before the next one.
                guard body.count == 26, sequenced(), frames.last.map({ !$0.data.isEmpty }) ?? true,
                    let disposal = Disposal(rawValue: bytes[body.lowerBound + 24]), bytes[body.lowerBound + 25] <= 1
                else {
                    valid = false
                    return false
                }
                if frames.count == limits.maxFrameCount {
                    failure = .tooManyFrames(format: Self.format, frameCount: frames.count + 1, limit: limits.maxFrameCount)
                    return false
                }
                let denominator = u16(22)
                frames.append(
                    Frame(
                        x: u32(12), y: u32(16), width: u32(4), height: u32(8),
                        duration: FrameDelay.duration(seconds: Double(u16(20)) / Double(denominator == 0 ? 100 : denominator)),
                        disposal: disposal, blendsOver: bytes[body.lowerBound + 25] == 1))
            case "IDAT":
                seenImageData = true
                // The default image is the first frame only when a frame control precedes it.
                if frames.count == 1 { frames[0].data.append(body) }
            case "fdAT":
                guard sequenced(), body.count > 4, seenImageData, !frames.isEmpty else {
                    valid = false
                    return false
                }
                frames[frames.count - 1].data.append((body.lowerBound + 4)..<body.upperBound)
            default:
                break
            }
            return type != "IEND"
        }
        if let failure { throw failure }
        guard let header else { throw ImageCodingError.corruptedData(format: Self.format, detail: "no IHDR chunk") }
        guard valid else { return nil }
        guard ended else { throw ImageCodingError.truncatedData(format: Self.format) }
        let width = Int(bytes.loadUnaligned(fromByteOffset: header.lowerBound, as: UInt32.self).bigEndian)
        let height = Int(bytes.loadUnaligned(fromByteOffset: header.lowerBound + 4, as: UInt32.self).bigEndian)
        try limits.check(width: width, height: height, frameCount: frames.count)
        guard let declaredFrames, declaredFrames >= 1, declaredFrames == frames.count,
            frames.allSatisfy({ !$0.data.isEmpty && Self.fits($0, width: width, height: height) })
        else { return nil }
        self.width = width
        self.height = height
        self.playCount = playCount
        self.frames = frames
        headerTail = Array(UnsafeRawBufferPointer(rebasing: bytes[(header.lowerBound + 8)..<header.upperBound]))
        sharedChunks = shared
    }

    private static func fits(_ frame: Frame, width: Int, height: Int) -> Bool {
        frame.width > 0 && frame.height > 0 && frame.x >= 0 && frame.y >= 0
            && frame.x + frame.width <= width && frame.y + frame.height <= height
    }

    /// Calls `visit` with each chunk's type and data range until it returns `false`; returns
    /// whether IEND was reached (a chunk running past the end stops the walk).
    @discardableResult
    private static func walkChunks(_ bytes: UnsafeRawBufferPointer, _ visit: (String, Range<Int>) -> Bool) -> Bool {
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self).bigEndian)
            guard length <= bytes.count - offset - 12 else { return false }
            let type = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(offset + 4)..<(offset + 8)]), as: UTF8.self)
            guard visit(type, (offset + 8)..<(offset + 8 + length)) else { return type == "IEND" }
            offset += 12 + length
        }
        return false
    }

    /// A stand-alone PNG of frame `index`: the file's header at the frame's size, its palette
    /// and transparency, and the frame's data as IDAT.
    func standalonePNG(frame index: Int, from bytes: UnsafeRawBufferPointer) -> [UInt8] {
        let frame = frames[index]
        var png: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
        func chunk(_ type: [UInt8], _ body: [UInt8]) {
            png += withUnsafeBytes(of: UInt32(body.count).bigEndian, Array.init)
            let typed = type + body
            png += typed
            png += withUnsafeBytes(of: typed.withUnsafeBytes { libdeflate_crc32(0, $0.baseAddress, $0.count) }.bigEndian, Array.init)
        }
        chunk(
            Array("IHDR".utf8),
            withUnsafeBytes(of: UInt32(frame.width).bigEndian, Array.init)
                + withUnsafeBytes(of: UInt32(frame.height).bigEndian, Array.init) + headerTail)
        for shared in sharedChunks { chunk(shared.type, Array(UnsafeRawBufferPointer(rebasing: bytes[shared.body]))) }
        chunk(Array("IDAT".utf8), frame.data.flatMap { Array(UnsafeRawBufferPointer(rebasing: bytes[$0])) })
        chunk(Array("IEND".utf8), [])
        return png
    }
}
