// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CTiff
import Foundation

/// A libtiff handle reading a TIFF from memory, through client callbacks that check every read
/// and seek against the buffer.
///
/// libtiff's errors and warnings go to handlers installed on this handle alone (not libtiff's
/// process-wide ones, which print to stderr and would be shared between threads): the first
/// error is kept for the thrown error's detail and warnings are dropped.
struct TIFFHandle {
    /// What libtiff's callbacks reach through their user pointer.
    struct Input {
        let bytes: UnsafeRawBufferPointer
        var offset = 0
        /// The first error libtiff reported, as "module: message".
        var firstError: String?
    }

    /// The open handle; valid only inside ``withHandle(_:maxSingleAllocation:_:)``'s body.
    let tiff: OpaquePointer
    private let input: UnsafeMutablePointer<Input>

    /// The first error libtiff reported on this handle, if any.
    var firstError: String? { input.pointee.firstError }

    /// Opens `bytes` (reading the first directory), runs `body` with the handle and closes it,
    /// whether `body` returns or throws. libtiff refuses any single allocation over
    /// `maxSingleAllocation` bytes. When libtiff cannot open the data, `openFailure` makes the
    /// error from libtiff's message.
    static func withHandle<Result>(
        _ bytes: UnsafeRawBufferPointer, maxSingleAllocation: Int,
        openFailure: (String?) -> ImageCodingError,
        _ body: (TIFFHandle) throws -> Result
    ) throws -> Result {
        var input = Input(bytes: bytes)
        return try withUnsafeMutablePointer(to: &input) { input in
            guard let options = TIFFOpenOptionsAlloc() else { throw openFailure("libtiff could not start") }
            defer { TIFFOpenOptionsFree(options) }
            TIFFOpenOptionsSetMaxSingleMemAlloc(options, Int64(maxSingleAllocation))
            TIFFOpenOptionsSetErrorHandlerExtR(options, recordError, input)
            TIFFOpenOptionsSetWarningHandlerExtR(options, ignoreWarning, input)
            // "m": no memory mapping, so libtiff only ever reads through `read`.
            guard
                let tiff = TIFFClientOpenExt(
                    "memory", "rm", input, read, write, seek, close, size,
                    map, unmap, options)
            else {
                throw openFailure(input.pointee.firstError)
            }
            defer { TIFFClose(tiff) }
            return try body(TIFFHandle(tiff: tiff, input: input))
        }
    }

    // MARK: libtiff callbacks

    private static let read: TIFFReadWriteProc = { handle, buffer, size in
        guard let handle, let buffer, size > 0 else { return 0 }
        let input = handle.assumingMemoryBound(to: Input.self)
        let offset = input.pointee.offset
        let count = input.pointee.bytes.count
        guard offset < count else { return 0 }
        let n = min(Int(size), count - offset)
        memcpy(buffer, input.pointee.bytes.baseAddress! + offset, n)
        input.pointee.offset = offset + n
        return Int64(n)
    }

    private static let write: TIFFReadWriteProc = { _, _, _ in -1 }

    /// Moves the cursor; positions before the start or beyond `Int.max` are refused. Positions
    /// past the end are allowed (as for a file): reads there return nothing.
    private static let seek: TIFFSeekProc = { handle, offset, whence in
        let failure = UInt64.max
        guard let handle else { return failure }
        let input = handle.assumingMemoryBound(to: Input.self)
        let base: Int
        switch whence {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = input.pointee.offset
        case SEEK_END: base = input.pointee.bytes.count
        default: return failure
        }
        // libtiff passes relative moves as two's-complement offsets.
        let (position, overflow) = Int64(base).addingReportingOverflow(Int64(bitPattern: offset))
        guard !overflow, position >= 0 else { return failure }
        input.pointee.offset = Int(position)
        return UInt64(position)
    }

    private static let close: TIFFCloseProc = { _ in 0 }

    private static let size: TIFFSizeProc = { handle in
        guard let handle else { return 0 }
        return UInt64(handle.assumingMemoryBound(to: Input.self).pointee.bytes.count)
    }

    private static let map: TIFFMapFileProc = { _, _, _ in 0 }
    private static let unmap: TIFFUnmapFileProc = { _, _, _ in }

    /// Keeps the first error; returning 1 stops libtiff from calling its global handlers.
    private static let recordError: TIFFErrorHandlerExtR = { _, user, module, format, arguments in
        guard let user else { return 1 }
        let input = user.assumingMemoryBound(to: Input.self)
        guard input.pointee.firstError == nil, let format, let arguments else { return 1 }
        var message = [CChar](repeating: 0, count: 256)
        _ = message.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, format, arguments) }
        let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        input.pointee.firstError = module.map { "\(String(cString: $0)): \(text)" } ?? text
        return 1
    }

    private static let ignoreWarning: TIFFErrorHandlerExtR = { _, _, _, _, _ in 1 }
}
