// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CGif
import Foundation

/// GIF through giflib's record-level API. A still GIF, or an animation with `preloadAll` or
/// `onlyFirstFrame`, is decoded at once; any other animation is scanned (frame count, delays,
/// loop count: no pixel decoded) and left to be decoded frame by frame when asked
/// (``GIFFrameReader``), holding the compressed file and a window of frames instead of every
/// frame.
enum GIFDecoder {
    private static let format = ImageFileFormat.GIF

    /// The logical screen, frame delays, loop count and transparency, from the headers: each
    /// frame's compressed pixels are skipped.
    static func header(_ data: Data, options: ImageCreatingOptions) throws -> ImageHeader {
        let limits = DecodingLimits.forHeader(options, format: format)
        let scan = try GIFFrameReader(data: data, limits: limits).scan(upTo: options.onlyFirstFrame ? 1 : Int.max)
        var found = ImageHeader(storedWidth: scan.width, height: scan.height, hasAlpha: scan.hasAlpha)
        found.durations = scan.durations
        found.loopCount = scan.durations.count > 1 ? scan.loopCount : 0
        return found
    }

    /// Decodes `data`, which an animation decoded on demand keeps (sharing its storage).
    static func decode(_ data: Data, options: ImageCreatingOptions, target: DecodingTarget?) throws -> DecodedImage {
        let limits = DecodingLimits(options, format: format)
        let scan = try GIFFrameReader(data: data, limits: limits).scan(upTo: options.onlyFirstFrame ? 1 : Int.max)
        let durations = options.onlyFirstFrame ? [scan.durations[0]] : scan.durations
        return try OnDemandAnimation.decodedImage(
            canvasWidth: scan.width, canvasHeight: scan.height, durations: durations, loopCount: scan.loopCount,
            hasAlpha: scan.hasAlpha, orientation: .up, target: target, preloadAll: options.preloadAll,
            limits: limits
        ) { try GIFFrameReader(data: data, limits: limits) }
    }
}

/// Reads a GIF's frames in order through giflib, compositing each on the logical screen
/// (disposal none / background / previous, transparency, local colour tables, interlacing), as
/// browsers show it. The canvas starts transparent, and disposal to background clears to
/// transparent, as browsers do. Every frame is checked against the pixel limit before anything
/// is allocated for it.
final class GIFFrameReader: AnimationFrameReader {
    private static let format = ImageFileFormat.GIF

    /// What a scan of the whole file finds without decoding a pixel.
    struct Scan {
        var width: Int
        var height: Int
        var durations: [TimeInterval]
        var loopCount: Int
        var hasAlpha: Bool
    }

    /// The file, read by giflib's callback from `offset` on.
    private let data: Data
    private var offset = 0
    private var gif: UnsafeMutablePointer<GifFileType>!
    private let limits: DecodingLimits
    private var canvas: CompositingCanvas
    private var control = GIFFrameReader.noControl
    private var framesRead = 0
    private var loopCount = 1
    private var hasAlpha = false

    private static let noControl = GraphicsControlBlock(
        DisposalMode: 0, UserInputFlag: false, DelayTime: 0,
        TransparentColor: NO_TRANSPARENT_COLOR)

    init(data: Data, limits: DecodingLimits) throws {
        self.limits = limits
        self.data = data
        canvas = CompositingCanvas(width: 0, height: 0)
        var openError: Int32 = 0
        let opened = DGifOpen(
            Unmanaged.passUnretained(self).toOpaque(),
            { file, buffer, length in
                guard let file, let buffer, length > 0, let user = file.pointee.UserData else { return 0 }
                let reader = Unmanaged<GIFFrameReader>.fromOpaque(user).takeUnretainedValue()
                let n = min(Int(length), reader.data.count - reader.offset)
                guard n > 0 else { return 0 }
                let start = reader.data.startIndex + reader.offset
                reader.data.copyBytes(to: buffer, from: start..<(start + n))
                reader.offset += n
                return Int32(n)
            }, &openError)
        // Every stored property is set by now, so a throw from here on runs deinit.
        guard let opened else { throw Self.error(openError) }
        gif = opened
        canvas = CompositingCanvas(width: Int(opened.pointee.SWidth), height: Int(opened.pointee.SHeight))
        if canvas.width > 0 && canvas.height > 0 {
            try limits.check(width: canvas.width, height: canvas.height)
        }
    }

    deinit {
        if let gif { DGifCloseFile(gif, nil) }
    }

    private static func error(_ code: Int32) -> ImageCodingError {
        switch code {
        case D_GIF_ERR_READ_FAILED, D_GIF_ERR_EOF_TOO_SOON:
            return .truncatedData(format: format)
        default:
            let message = GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
            return .corruptedData(format: format, detail: message)
        }
    }

    /// Why giflib could not start the frame whose descriptor begins at `start`: giflib calls
    /// an LZW minimum code size over 8 a read failure, which would read as truncated data.
    private func frameError(startingAt start: Int) -> ImageCodingError {
        let code = gif.pointee.Error
        // The byte giflib read last, when it stopped after the descriptor (and colour table),
        // is the code size.
        if code == D_GIF_ERR_READ_FAILED, offset > start + 9, offset <= data.count {
            let codeSize = data[data.startIndex + offset - 1]
            if codeSize > 8 {
                return Self.corrupted(
                    "frame \(framesRead)'s LZW minimum code size is \(codeSize), over the 8 that GIF allows")
            }
        }
        return Self.error(code)
    }

    private static func corrupted(_ detail: String) -> ImageCodingError {
        .corruptedData(format: format, detail: detail)
    }

    /// Walks the headers of the frames (up to `maxFrames` of them), skipping the compressed
    /// pixels, for the canvas size, the delays, the loop count and whether any pixel can be
    /// transparent.
    func scan(upTo maxFrames: Int) throws -> Scan {
        var durations: [TimeInterval] = []
        while durations.count < maxFrames, let duration = try advance(decoding: false) { durations.append(duration) }
        guard !durations.isEmpty else { throw Self.corrupted("the file has no frames") }
        return Scan(width: canvas.width, height: canvas.height, durations: durations, loopCount: loopCount, hasAlpha: hasAlpha)
    }

    func nextFrame() throws -> [UInt8]? {
        try advance(decoding: true) == nil ? nil : canvas.pixels
    }

    /// Reads records up to the end of the next frame, compositing it when `decoding`; returns
    /// its duration, or `nil` after the last frame.
    private func advance(decoding: Bool) throws -> TimeInterval? {
        var recordType = UNDEFINED_RECORD_TYPE
        while true {
            guard DGifGetRecordType(gif, &recordType) == GIF_OK else {
                // Trailing garbage or a missing trailer after complete frames is common on the
                // web; browsers show the frames they have.
                if framesRead > 0 { return nil }
                throw Self.error(gif.pointee.Error)
            }
            switch recordType {
            case EXTENSION_RECORD_TYPE:
                try readExtension()
            case IMAGE_DESC_RECORD_TYPE:
                return try readFrame(decoding: decoding)
            case TERMINATE_RECORD_TYPE:
                return nil
            default:
                break
            }
        }
    }

    private func readFrame(decoding: Bool) throws -> TimeInterval {
        let descriptorOffset = offset
        guard DGifGetImageDesc(gif) == GIF_OK else { throw frameError(startingAt: descriptorOffset) }
        let desc = gif.pointee.Image
        guard desc.Width > 0, desc.Height > 0 else { throw Self.corrupted("a frame has no pixels") }
        // A frame is decoded row by row even where it lies off the canvas, so its own area
        // counts against the limit too.
        try limits.check(width: Int(desc.Width), height: Int(desc.Height))
        // A first frame reaching past the logical screen (or a screen of size 0) makes the
        // screen grow to hold it, as Chromium and Firefox do; later frames are clipped.
        let right = Int(desc.Left) + Int(desc.Width)
        let bottom = Int(desc.Top) + Int(desc.Height)
        if framesRead == 0, right > canvas.width || bottom > canvas.height {
            canvas = CompositingCanvas(width: max(canvas.width, right), height: max(canvas.height, bottom))
            try limits.check(width: canvas.width, height: canvas.height)
        }
        guard framesRead < limits.maxFrameCount else {
            throw ImageCodingError.tooManyFrames(format: Self.format, frameCount: framesRead + 1, limit: limits.maxFrameCount)
        }
        guard let colorMap = desc.ColorMap ?? gif.pointee.SColorMap else { throw Self.corrupted("a frame has no colour table") }
        let transparent = Int(control.TransparentColor)
        let covers = desc.Left == 0 && desc.Top == 0 && Int(desc.Width) >= canvas.width && Int(desc.Height) >= canvas.height
        hasAlpha = hasAlpha || transparent != NO_TRANSPARENT_COLOR || !covers
        let duration = FrameDelay.duration(seconds: TimeInterval(control.DelayTime) / 100)
        if decoding {
            if canvas.pixels.isEmpty { canvas.allocate() }
            let saved = control.DisposalMode == DISPOSE_PREVIOUS ? canvas.pixels : nil
            try drawFrame(desc, palette: Self.palette(colorMap, transparent: transparent), transparent: transparent)
            // The caller copies the canvas; disposal applies before the next frame is drawn.
            pendingDisposal = (control.DisposalMode, desc, saved)
        } else {
            try skipPixels()
        }
        control = Self.noControl
        framesRead += 1
        return duration
    }

    /// How the last frame drawn leaves the canvas for the next one.
    private var pendingDisposal: (mode: Int32, desc: GifImageDesc, saved: [UInt8]?)?

    private func drawFrame(_ desc: GifImageDesc, palette: [UInt32], transparent: Int) throws {
        if let (mode, previous, saved) = pendingDisposal {
            switch mode {
            case DISPOSE_BACKGROUND:
                canvas.clear(x: Int(previous.Left), y: Int(previous.Top), width: Int(previous.Width), height: Int(previous.Height))
            case DISPOSE_PREVIOUS:
                if let saved { canvas.pixels = saved }
            default:
                break
            }
            pendingDisposal = nil
        }
        let width = Int(desc.Width)
        let height = Int(desc.Height)
        let left = Int(desc.Left)
        let top = Int(desc.Top)
        var line = [GifPixelType](repeating: 0, count: width)
        // Interlaced frames store rows in four passes: every 8th from 0, every 8th from 4,
        // every 4th from 2, every 2nd from 1.
        let passes: [(start: Int, step: Int)] = desc.Interlace ? [(0, 8), (4, 8), (2, 4), (1, 2)] : [(0, 1)]
        for pass in passes {
            var row = pass.start
            while row < height {
                guard DGifGetLine(gif, &line, Int32(width)) == GIF_OK else { throw Self.error(gif.pointee.Error) }
                canvas.drawRow(line, palette: palette, transparent: transparent, x: left, y: top + row)
                row += pass.step
            }
        }
    }

    /// Moves past a frame's compressed pixels without decoding them.
    /// Steps over a frame's image data: its sub-blocks, each a length byte and that many bytes,
    /// up to one of length 0. Walked here rather than through giflib, whose callback would copy
    /// every block out (a scan of a 100-frame GIF for `kf info` spent more time in that than in
    /// reading). giflib has read up to the first block (its descriptor and LZW code size) and
    /// reads on from `offset`; nothing in it checks that a frame's pixels were read.
    private func skipPixels() throws {
        try data.withUnsafeBytes { bytes in
            var position = offset
            while true {
                guard position < bytes.count else { throw ImageCodingError.truncatedData(format: Self.format) }
                let length = Int(bytes[position])
                position += 1 + length
                if length == 0 { break }
            }
            guard position <= bytes.count else { throw ImageCodingError.truncatedData(format: Self.format) }
            offset = position
        }
    }

    private func readExtension() throws {
        var code: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard DGifGetExtension(gif, &code, &block) == GIF_OK else { throw Self.error(gif.pointee.Error) }
        var isLoopApplication = false
        if code == GRAPHICS_EXT_FUNC_CODE, let block {
            DGifExtensionToGCB(Int(block[0]), block + 1, &control)
        } else if code == APPLICATION_EXT_FUNC_CODE, let block, block[0] == 11 {
            let identifier = String(decoding: UnsafeBufferPointer(start: block + 1, count: 11), as: UTF8.self)
            isLoopApplication = identifier == "NETSCAPE2.0" || identifier == "ANIMEXTS1.0"
        }
        while block != nil {
            guard DGifGetExtensionNext(gif, &block) == GIF_OK else { throw Self.error(gif.pointee.Error) }
            if isLoopApplication, let sub = block, sub[0] >= 3, sub[1] == 1 {
                loopCount = Int(sub[2]) | Int(sub[3]) << 8
            }
        }
    }

    /// RGBA (as one little-endian UInt32 each) for the 256 possible indices; indices past the
    /// table and the transparent index are transparent.
    private static func palette(_ map: UnsafeMutablePointer<ColorMapObject>, transparent: Int) -> [UInt32] {
        var table = [UInt32](repeating: 0, count: 256)
        let count = min(Int(map.pointee.ColorCount), 256)
        if let colors = map.pointee.Colors {
            for i in 0..<count where i != transparent {
                let c = colors[i]
                table[i] = UInt32(c.Red) | UInt32(c.Green) << 8 | UInt32(c.Blue) << 16 | 0xFF00_0000
            }
        }
        return table
    }
}

/// The logical screen an animation is composited on.
struct CompositingCanvas {
    var width: Int
    var height: Int
    var pixels: [UInt8] = []

    /// Allocates a transparent canvas.
    mutating func allocate() {
        pixels = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// Draws one row of palette indices at (x, y), clipped to the canvas, skipping `transparent`.
    mutating func drawRow(_ indices: [UInt8], palette: [UInt32], transparent: Int, x: Int, y: Int) {
        guard y >= 0, y < height, x < width else { return }
        let first = max(0, -x)
        let last = min(indices.count, width - x)
        guard first < last else { return }
        let rowStart = y * width + x
        pixels.withUnsafeMutableBytes { raw in
            let dst = raw.bindMemory(to: UInt32.self).baseAddress! + rowStart
            for i in first..<last {
                let index = Int(indices[i])
                if index != transparent { dst[i] = UInt32(littleEndian: palette[index]) }
            }
        }
    }

    /// Clears a rectangle, clipped to the canvas, to transparent.
    mutating func clear(x: Int, y: Int, width w: Int, height h: Int) {
        let x0 = max(0, x)
        let x1 = min(width, x + w)
        let y0 = max(0, y)
        let y1 = min(height, y + h)
        guard x0 < x1, y0 < y1 else { return }
        pixels.withUnsafeMutableBytes { raw in
            for row in y0..<y1 {
                let start = (row * width + x0) * 4
                memset(raw.baseAddress! + start, 0, (x1 - x0) * 4)
            }
        }
    }
}
