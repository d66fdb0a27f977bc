// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Peak signal-to-noise ratio in dB over the RGB channels of two equally sized RGBA buffers.
package func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
    precondition(a.count == b.count)
    var squared = 0.0
    var samples = 0
    for i in stride(from: 0, to: a.count, by: 4) {
        for c in 0..<3 {
            let d = Double(a[i + c]) - Double(b[i + c])
            squared += d * d
        }
        samples += 3
    }
    if squared == 0 { return .infinity }
    return 10 * log10(255 * 255 / (squared / Double(samples)))
}

/// The largest per-channel difference between two equally sized buffers.
package func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
    precondition(a.count == b.count)
    var worst = 0
    for i in 0..<a.count { worst = max(worst, abs(Int(a[i]) - Int(b[i]))) }
    return worst
}

/// The largest per-channel difference between two equally sized RGBA buffers, counting only
/// what can be seen: the colour of a pixel transparent in both is ignored.
package func maxVisibleDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
    precondition(a.count == b.count)
    var worst = 0
    for i in stride(from: 0, to: a.count, by: 4) where a[i + 3] != 0 || b[i + 3] != 0 {
        for c in 0..<4 { worst = max(worst, abs(Int(a[i + c]) - Int(b[i + c]))) }
    }
    return worst
}
