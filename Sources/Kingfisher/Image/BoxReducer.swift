/// Shrinks an RGBA8 image by an integer factor while its rows stream in, averaging each
/// factor x factor block (alpha-weighted, so transparent pixels lend no colour; edge blocks
/// average the pixels they have). A decoder feeds it row by row, so a large image is never
/// held at full size; a Lanczos pass from the reduced image (kept at least twice the target)
/// then gives the thumbnail, as Pillow's `thumbnail` does with its default `reducing_gap`.
struct BoxReducer {
    let width: Int
    let height: Int
    let factor: Int
    let outputWidth: Int
    let outputHeight: Int
    private let hasAlpha: Bool
    /// Per output column and channel: sums of the current block row (colour premultiplied
    /// when the image has alpha).
    private var sums: [UInt32]
    private var rowsInBlock = 0
    private var outputRow = 0
    private(set) var pixels: [UInt8]

    /// The factor for shrinking `width` x `height` towards `target`: the largest that keeps the
    /// result at least twice the target on both sides (at most 255, so 32-bit sums cannot
    /// overflow); 1 when no reduction is worth it.
    static func factor(width: Int, height: Int, target: (width: Int, height: Int)) -> Int {
        let ratio = min(width / max(1, 2 * target.width), height / max(1, 2 * target.height))
        return min(255, max(1, ratio))
    }

    init(width: Int, height: Int, factor: Int, hasAlpha: Bool) {
        precondition(factor >= 1 && factor <= 255)
        self.width = width
        self.height = height
        self.factor = factor
        self.hasAlpha = hasAlpha
        outputWidth = (width + factor - 1) / factor
        outputHeight = (height + factor - 1) / factor
        sums = [UInt32](repeating: 0, count: outputWidth * 4)
        pixels = [UInt8](repeating: 0, count: outputWidth * outputHeight * 4)
    }

    /// Adds the next source row (`width` RGBA8 pixels).
    mutating func add(row: UnsafePointer<UInt8>) {
        let factor = self.factor, width = self.width
        sums.withUnsafeMutableBufferPointer { sums in
            if hasAlpha {
                Self.accumulate(row: row, width: width, factor: factor, into: sums.baseAddress!, weighted: true)
            } else {
                Self.accumulate(row: row, width: width, factor: factor, into: sums.baseAddress!, weighted: false)
            }
        }
        rowsInBlock += 1
        let sourceRow = outputRow * factor + rowsInBlock
        if rowsInBlock == factor || sourceRow == height { emitRow() }
    }

    /// Sums each block of `factor` pixels of `row` into `sums` (colour times alpha when
    /// `weighted`). Inlined twice, so each copy has no per-pixel branch.
    @inline(__always)
    private static func accumulate(row: UnsafePointer<UInt8>, width: Int, factor: Int,
                                   into sums: UnsafeMutablePointer<UInt32>, weighted: Bool) {
        var start = 0, sum = sums
        while start < width {
            let end = min(width, start + factor)
            var r: UInt32 = 0, g: UInt32 = 0, b: UInt32 = 0, a: UInt32 = 0
            var pixel = row + start * 4
            for _ in start..<end {
                let alpha = UInt32(pixel[3])
                if weighted {
                    r &+= UInt32(pixel[0]) &* alpha
                    g &+= UInt32(pixel[1]) &* alpha
                    b &+= UInt32(pixel[2]) &* alpha
                } else {
                    r &+= UInt32(pixel[0])
                    g &+= UInt32(pixel[1])
                    b &+= UInt32(pixel[2])
                }
                a &+= alpha
                pixel += 4
            }
            sum[0] &+= r
            sum[1] &+= g
            sum[2] &+= b
            sum[3] &+= a
            sum += 4
            start = end
        }
    }

    private mutating func emitRow() {
        let factor = self.factor, width = self.width, rows = UInt32(rowsInBlock), hasAlpha = self.hasAlpha
        let base = outputRow * outputWidth * 4
        sums.withUnsafeMutableBufferPointer { sums in
            pixels.withUnsafeMutableBufferPointer { out in
                for block in 0..<outputWidth {
                    let columns = UInt32(min(width, (block + 1) * factor) - block * factor)
                    let count = columns * rows
                    let sum = block * 4, o = base + block * 4
                    let alphaSum = sums[sum + 3]
                    if hasAlpha {
                        let half = alphaSum / 2
                        for c in 0..<3 {
                            out[o + c] = alphaSum == 0 ? 0 : UInt8(min(255, (sums[sum + c] + half) / alphaSum))
                        }
                    } else {
                        let half = count / 2
                        for c in 0..<3 { out[o + c] = UInt8(min(255, (sums[sum + c] + half) / count)) }
                    }
                    out[o + 3] = UInt8(min(255, (alphaSum + count / 2) / count))
                    sums[sum] = 0
                    sums[sum + 1] = 0
                    sums[sum + 2] = 0
                    sums[sum + 3] = 0
                }
            }
        }
        rowsInBlock = 0
        outputRow += 1
    }
}
