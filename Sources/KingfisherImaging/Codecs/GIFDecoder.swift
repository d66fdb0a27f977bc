import CGif
import Foundation

/// GIF decoding through giflib's record-level API, so that each frame is checked against the
/// pixel limit before it is stored and no frame is held twice: every frame is composited on the
/// logical screen (disposal none / background / previous, transparency, local colour tables,
/// interlacing), as browsers show it. The canvas starts transparent, and disposal to background
/// clears to transparent, as browsers do.
enum GIFDecoder {
    private static let format = ImageFileFormat.GIF

    /// Where giflib's read callback takes its bytes from.
    private struct ByteSource {
        let base: UnsafeRawPointer
        let count: Int
        var offset = 0
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

    private static func corrupted(_ detail: String) -> ImageCodingError {
        .corruptedData(format: format, detail: detail)
    }

    static func decode(_ bytes: UnsafeRawBufferPointer, options: ImageCreatingOptions, maxPixelSize: Int?) throws -> DecodedImage {
        var source = ByteSource(base: bytes.baseAddress!, count: bytes.count)
        return try withUnsafeMutablePointer(to: &source) { sourcePointer in
            var openError: Int32 = 0
            let opened = DGifOpen(sourcePointer, { file, buffer, length in
                guard let file, let buffer, length > 0,
                      let state = file.pointee.UserData?.assumingMemoryBound(to: ByteSource.self) else { return 0 }
                let n = min(Int(length), state.pointee.count - state.pointee.offset)
                guard n > 0 else { return 0 }
                memcpy(buffer, state.pointee.base + state.pointee.offset, n)
                state.pointee.offset += n
                return Int32(n)
            }, &openError)
            guard let gif = opened else { throw error(openError) }
            defer { DGifCloseFile(gif, nil) }
            var image = try readFrames(gif, options: options)
            if let maxPixelSize {
                let target = DownsamplingTarget.fit(width: image.width, height: image.height, maxPixelSize: maxPixelSize)
                image.resample(to: target.width, target.height)
            }
            return image
        }
    }

    private static func readFrames(_ gif: UnsafeMutablePointer<GifFileType>, options: ImageCreatingOptions) throws -> DecodedImage {
        let limit = DecodingLimits(options, format: format)
        var canvas = CompositingCanvas(width: Int(gif.pointee.SWidth), height: Int(gif.pointee.SHeight))
        if canvas.width > 0 && canvas.height > 0 {
            try limit.check(width: canvas.width, height: canvas.height)
        }
        var frames: [ImageFrame] = []
        var loopCount = 1
        var control = GraphicsControlBlock(DisposalMode: 0, UserInputFlag: false, DelayTime: 0,
                                           TransparentColor: NO_TRANSPARENT_COLOR)
        var hasAlpha = false
        var recordType = UNDEFINED_RECORD_TYPE
        repeat {
            guard DGifGetRecordType(gif, &recordType) == GIF_OK else {
                // Trailing garbage or a missing trailer after complete frames is common on the
                // web; browsers show the frames they have.
                if !frames.isEmpty { break }
                throw error(gif.pointee.Error)
            }
            switch recordType {
            case EXTENSION_RECORD_TYPE:
                try readExtension(gif, control: &control, loopCount: &loopCount)
            case IMAGE_DESC_RECORD_TYPE:
                guard DGifGetImageDesc(gif) == GIF_OK else { throw error(gif.pointee.Error) }
                let desc = gif.pointee.Image
                guard desc.Width > 0, desc.Height > 0 else { throw corrupted("a frame has no pixels") }
                // A frame is decoded row by row even where it lies off the canvas, so its own
                // area counts against the limit too.
                try limit.check(width: Int(desc.Width), height: Int(desc.Height))
                if canvas.pixels.isEmpty {
                    if canvas.width <= 0 || canvas.height <= 0 {
                        canvas = CompositingCanvas(width: Int(desc.Left + desc.Width), height: Int(desc.Top + desc.Height))
                    }
                    try limit.check(width: canvas.width, height: canvas.height)
                    canvas.allocate()
                }
                try limit.check(width: canvas.width, height: canvas.height, frameCount: frames.count + 1)
                guard let colorMap = desc.ColorMap ?? gif.pointee.SColorMap else { throw corrupted("a frame has no colour table") }
                let transparent = Int(control.TransparentColor)
                let covers = desc.Left == 0 && desc.Top == 0
                    && Int(desc.Width) >= canvas.width && Int(desc.Height) >= canvas.height
                hasAlpha = hasAlpha || transparent != NO_TRANSPARENT_COLOR || !covers
                let saved = control.DisposalMode == DISPOSE_PREVIOUS ? canvas.pixels : nil
                try drawFrame(gif, desc: desc, palette: palette(colorMap, transparent: transparent),
                              transparent: transparent, on: &canvas)
                frames.append(ImageFrame(pixels: canvas.pixels, duration: FrameDelay.duration(seconds: TimeInterval(control.DelayTime) / 100)))
                switch control.DisposalMode {
                case DISPOSE_BACKGROUND:
                    canvas.clear(x: Int(desc.Left), y: Int(desc.Top), width: Int(desc.Width), height: Int(desc.Height))
                case DISPOSE_PREVIOUS:
                    if let saved { canvas.pixels = saved }
                default:
                    break
                }
                control = GraphicsControlBlock(DisposalMode: 0, UserInputFlag: false, DelayTime: 0,
                                               TransparentColor: NO_TRANSPARENT_COLOR)
            default:
                break
            }
        } while recordType != TERMINATE_RECORD_TYPE && !(options.onlyFirstFrame && !frames.isEmpty)
        guard !frames.isEmpty else { throw corrupted("the file has no frames") }
        return DecodedImage(width: canvas.width, height: canvas.height, frames: frames,
                            loopCount: frames.count > 1 ? loopCount : 0, hasAlpha: hasAlpha)
    }

    private static func readExtension(
        _ gif: UnsafeMutablePointer<GifFileType>, control: inout GraphicsControlBlock, loopCount: inout Int
    ) throws {
        var code: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard DGifGetExtension(gif, &code, &block) == GIF_OK else { throw error(gif.pointee.Error) }
        var isLoopApplication = false
        if code == GRAPHICS_EXT_FUNC_CODE, let block {
            DGifExtensionToGCB(Int(block[0]), block + 1, &control)
        } else if code == APPLICATION_EXT_FUNC_CODE, let block, block[0] == 11 {
            let identifier = String(decoding: UnsafeBufferPointer(start: block + 1, count: 11), as: UTF8.self)
            isLoopApplication = identifier == "NETSCAPE2.0" || identifier == "ANIMEXTS1.0"
        }
        while block != nil {
            guard DGifGetExtensionNext(gif, &block) == GIF_OK else { throw error(gif.pointee.Error) }
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

    private static func drawFrame(
        _ gif: UnsafeMutablePointer<GifFileType>, desc: GifImageDesc, palette: [UInt32],
        transparent: Int, on canvas: inout CompositingCanvas
    ) throws {
        let width = Int(desc.Width), height = Int(desc.Height)
        let left = Int(desc.Left), top = Int(desc.Top)
        var line = [GifPixelType](repeating: 0, count: width)
        // Interlaced frames store rows in four passes: every 8th from 0, every 8th from 4,
        // every 4th from 2, every 2nd from 1.
        let passes: [(start: Int, step: Int)] = desc.Interlace ? [(0, 8), (4, 8), (2, 4), (1, 2)] : [(0, 1)]
        for pass in passes {
            var row = pass.start
            while row < height {
                guard DGifGetLine(gif, &line, Int32(width)) == GIF_OK else { throw error(gif.pointee.Error) }
                canvas.drawRow(line, palette: palette, transparent: transparent, x: left, y: top + row)
                row += pass.step
            }
        }
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
        let first = max(0, -x), last = min(indices.count, width - x)
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
        let x0 = max(0, x), x1 = min(width, x + w)
        let y0 = max(0, y), y1 = min(height, y + h)
        guard x0 < x1, y0 < y1 else { return }
        pixels.withUnsafeMutableBytes { raw in
            for row in y0..<y1 {
                let start = (row * width + x0) * 4
                memset(raw.baseAddress! + start, 0, (x1 - x0) * 4)
            }
        }
    }
}
