import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The POSIX file operations under ``DiskStorage/Backend``: atomic writes with explicit dates,
/// reads that check expiration on the opened file, and stat-based metadata.
enum AtomicCacheFile {
    enum Failure: Error {
        case write(any Error)
        case setDates(any Error)
    }

    /// A read file and its dates.
    struct Contents {
        var data: Data
        var expiration: Date
    }

    /// What `stat` says about a file.
    struct Status: Equatable {
        var inode: UInt64
        var isRegularFile: Bool
        var size: UInt
        var expiration: Date
        var lastAccess: Date
        var changed: Date
    }

    /// A file found while listing the directory.
    struct Entry {
        var path: String
        var isTemporary: Bool
        var status: Status
        var size: UInt { status.size }
        var expiration: Date { status.expiration }
        var lastAccess: Date { status.lastAccess }
        var changed: Date { status.changed }
    }

    private static let temporarySuffix = ".kftmp"

    static func isTemporaryName(_ name: String) -> Bool {
        name.hasPrefix(".") && name.hasSuffix(temporarySuffix)
    }

    private static func posixError(_ code: Int32 = errno) -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
    }

    private static func timespec(_ date: Date) -> timespec {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        return Glibc.timespec(tv_sec: Int(seconds), tv_nsec: Int((date.timeIntervalSince1970 - seconds) * 1e9))
    }

    private static func date(_ time: Glibc.timespec) -> Date {
        Date(timeIntervalSince1970: TimeInterval(time.tv_sec) + TimeInterval(time.tv_nsec) / 1e9)
    }

    /// Writes `data` to a hidden temporary file next to `url`, sets its access time to
    /// `lastAccess` and modification time to `expiration`, and renames it to `url`. A missing
    /// directory is created and the write tried once more.
    static func write(_ data: Data, to url: URL, lastAccess: Date, expiration: Date) throws {
        do {
            try writeOnce(data, to: url, lastAccess: lastAccess, expiration: expiration)
        } catch Failure.write(let error as POSIXError) where error.code == .ENOENT {
            try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try writeOnce(data, to: url, lastAccess: lastAccess, expiration: expiration)
        }
    }

    private static func writeOnce(_ data: Data, to url: URL, lastAccess: Date, expiration: Date) throws {
        let directory = url.deletingLastPathComponent().path
        // A prefix of the final name keeps the temporary name within NAME_MAX.
        let temporary = "\(directory)/.\(url.lastPathComponent.prefix(180)).\(getpid()).\(UInt32.random(in: .min ... .max))\(temporarySuffix)"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure.write(posixError()) }
        var closed = false
        defer {
            if !closed { close(fd) }
        }
        do {
            try data.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw Failure.write(posixError())
                    }
                    offset += written
                }
            }
            var times = [timespec(lastAccess), timespec(expiration)]
            guard futimens(fd, &times) == 0 else { throw Failure.setDates(posixError()) }
            closed = true
            guard close(fd) == 0 else { throw Failure.write(posixError()) }
            guard rename(temporary, url.path) == 0 else { throw Failure.write(posixError()) }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Reads the file at `url` if it has not expired at `now`; then sets its access time to
    /// `now` and its expiration to what `extend` returns for the current one. `nil` when the
    /// file does not exist or has expired.
    static func read(_ url: URL, now: Date, extend: (Date) -> Date) throws -> Contents? {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw posixError()
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw posixError() }
        let expiration = date(info.st_mtim)
        guard expiration > now else { return nil }
        let size = Int(info.st_size)
        var data = Data(count: size)
        let complete = try data.withUnsafeMutableBytes { raw -> Bool in
            var offset = 0
            while offset < size {
                let count = Glibc.read(fd, raw.baseAddress! + offset, size - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw posixError()
                }
                if count == 0 { return false }
                offset += count
            }
            return true
        }
        guard complete else { throw posixError(EIO) }
        var times = [timespec(now), timespec(extend(expiration))]
        _ = futimens(fd, &times)  // Only bookkeeping: a read-only cache still serves.
        return Contents(data: data, expiration: expiration)
    }

    /// Removes the entry's file unless it changed since it was listed (a writer may have renamed
    /// a fresh file into place meanwhile). Returns whether it is gone.
    static func removeIfUnchanged(_ entry: Entry) -> Bool {
        guard let now = status(entry.path) else { return true }
        guard now.inode == entry.status.inode, now.expiration == entry.status.expiration else { return false }
        return unlink(entry.path) == 0 || errno == ENOENT
    }

    /// `stat` of `path`, or `nil` when it does not exist.
    static func status(_ path: String) -> Status? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Status(inode: UInt64(info.st_ino), isRegularFile: (info.st_mode & S_IFMT) == S_IFREG, size: UInt(max(0, info.st_size)),
                      expiration: date(info.st_mtim), lastAccess: date(info.st_atim), changed: date(info.st_ctim))
    }
}
