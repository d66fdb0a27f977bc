// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// Pixel areas with overflow checked: a hostile header or processor size can name dimensions
/// whose product does not fit in an `Int`.
package enum PixelArea {
    /// `width * height * max(frames, 1)`, or `nil` when it overflows.
    package static func total(width: Int, height: Int, frames: Int) -> Int? {
        let (area, overflow1) = width.multipliedReportingOverflow(by: height)
        let (total, overflow2) = area.multipliedReportingOverflow(by: max(frames, 1))
        return overflow1 || overflow2 ? nil : total
    }
}
