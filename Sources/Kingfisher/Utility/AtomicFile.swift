// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Writes files so that readers see either the old file or the complete new one, never a part,
/// even across processes and a SIGKILL: the bytes go to a hidden temporary file in the same
/// directory (created with `O_EXCL`), which is then renamed over the target. The disk cache and
/// `kf`'s output files both write this way.
package enum AtomicFile {
    /// Why a write failed; the temporary file is gone and the target is as it was.
    package enum Failure: Error, CustomStringConvertible {
        /// Creating, writing, closing or renaming the file failed.
        case write(POSIXError)
        /// Setting the file's dates failed.
        case setDates(POSIXError)

        package var description: String {
            switch self {
            case .write(let error): return "cannot write the file: \(String(cString: strerror(error.code.rawValue)))"
            case .setDates(let error): return "cannot set the file's dates: \(String(cString: strerror(error.code.rawValue)))"
            }
        }
    }

    /// The access and modification times a file is given before it is renamed into place.
    package struct Dates {
        package var lastAccess: Date
        package var modification: Date

        package init(lastAccess: Date, modification: Date) {
            self.lastAccess = lastAccess
            self.modification = modification
        }
    }

    /// Temporary files end with this; a directory listing can tell them from finished files.
    package static let temporarySuffix = ".kftmp"

    /// Writes `data` to `url` atomically, with `dates` when given (else the current time).
    package static func write(_ data: Data, to url: URL, dates: Dates? = nil) throws(Failure) {
        let directory = url.deletingLastPathComponent().path
        // A prefix of the final name keeps the temporary name within NAME_MAX.
        let temporary =
            "\(directory)/.\(url.lastPathComponent.prefix(180)).\(getpid()).\(UInt32.random(in: .min ... .max))\(temporarySuffix)"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .write(posixError()) }
        var closed = false
        defer {
            if !closed { close(fd) }
        }
        do throws(Failure) {
            try writeAll(data, to: fd)
            if let dates {
                var times = [timespec(dates.lastAccess), timespec(dates.modification)]
                guard futimens(fd, &times) == 0 else { throw .setDates(posixError()) }
            }
            closed = true
            guard close(fd) == 0 else { throw .write(posixError()) }
            guard rename(temporary, url.path) == 0 else { throw .write(posixError()) }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    private static func writeAll(_ data: Data, to fd: Int32) throws(Failure) {
        let failure: POSIXError? = data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return posixError()
                }
                offset += written
            }
            return nil
        }
        if let failure { throw .write(failure) }
    }

    package static func posixError(_ code: Int32 = errno) -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
    }

    package static func timespec(_ date: Date) -> timespec {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        return Glibc.timespec(tv_sec: Int(seconds), tv_nsec: Int((date.timeIntervalSince1970 - seconds) * 1e9))
    }
}
