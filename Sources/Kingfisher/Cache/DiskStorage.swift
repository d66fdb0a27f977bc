// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The disk half of the cache, as Kingfisher's `DiskStorage`.
public enum DiskStorage {
    /// A directory of files, one per key, safe to share between threads and processes.
    ///
    /// **Metadata.** Each file keeps its own dates, set explicitly with `futimens`/`utimensat`
    /// (so `noatime` and `relatime` mounts do not matter): the modification time is the
    /// expiration date, the access time is the last access, which size-based cleaning uses to
    /// find the least recently used files. "Never expires" is stored as 2100-01-01, a date every
    /// Linux filesystem with 64-bit times can hold.
    ///
    /// **Atomic writes.** A value is written to a hidden temporary file in the same directory,
    /// its dates set, and then renamed over the final name. Readers in any process see either
    /// the old file or the complete new one; a process killed mid-write leaves only a hidden
    /// temporary file, which cleaning removes once it is ``Config/temporaryFileLifetime`` old.
    /// Files are not `fsync`ed (a cache trades durability for speed): after a power loss a file
    /// may be empty, which reads as a miss.
    ///
    /// **Missing directory.** A directory deleted while the process runs is created again by
    /// the next write. A directory that cannot be created makes the storage not ready: every
    /// operation then throws ``KingfisherError/CacheErrorReason/diskStorageIsNotReady(cacheURL:)``.
    public final class Backend<T: DataTransformable & Sendable>: Sendable {
        /// The directory holding the files.
        public let directoryURL: URL
        private let configuration: Locked<Config>
        private let isReady: Bool
        private let cleanTimer: Locked<RepeatingTimer?> = Locked(nil)
        /// The current time; tests replace it to move time without sleeping.
        let clock: @Sendable () -> Date
        /// Called with the removed files' names after each automatic cleaning that removed any.
        let onClean = CallbackSlot<[String]>()
        /// The bytes of the files, as this process last counted them plus what it wrote since
        /// (never less than what it wrote: another file replaced or removed only makes it
        /// high); `nil` until the first write under a size limit counts them.
        private let sizeEstimate = Locked<UInt?>(nil)

        /// The latest expiration date written to a file: 2100-01-01.
        static var latestExpirationDate: Date { Date(timeIntervalSince1970: 4_102_444_800) }

        /// The configuration. Setting it restarts the cleaning timer with the new interval.
        public var config: Config {
            get { configuration.withLock { $0 } }
            set {
                configuration.withLock { $0 = newValue }
                scheduleCleaning(every: newValue.cleanInterval)
            }
        }

        /// Creates the storage, creating its directory.
        ///
        /// - Throws: ``KingfisherError/CacheErrorReason/cannotCreateDirectory(path:error:)``.
        public convenience init(config: Config) throws {
            let url = config.directoryURL
            do {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            } catch {
                throw KingfisherError.cacheError(reason: .cannotCreateDirectory(path: url.path, error: error))
            }
            self.init(noThrowConfig: config, clock: { Date() })
        }

        /// Creates the storage without throwing; when the directory cannot be created the
        /// storage is not ready and its operations throw `diskStorageIsNotReady`.
        init(noThrowConfig config: Config, clock: @escaping @Sendable () -> Date = { Date() }) {
            self.directoryURL = config.directoryURL
            self.configuration = Locked(config)
            self.clock = clock
            self.isReady =
                (try? FileManager.default.createDirectory(
                    at: config.directoryURL,
                    withIntermediateDirectories: true)) != nil
            scheduleCleaning(every: config.cleanInterval)
        }

        private func scheduleCleaning(every interval: TimeInterval) {
            let timer = RepeatingTimer(interval: interval) { [weak self] in
                guard let self else { return }
                let removed = (try? self.clean()) ?? []
                if !removed.isEmpty { self.onClean.call(removed.map(\.lastPathComponent)) }
            }
            cleanTimer.withLock { $0 = timer }
        }

        private func ensureReady() throws(KingfisherError) {
            guard isReady else { throw KingfisherError.cacheError(reason: .diskStorageIsNotReady(cacheURL: directoryURL)) }
        }

        // MARK: Names

        /// The file name for a computed `key` (`key` or `key@processorIdentifier`): its lowercase
        /// SHA-256 when ``Config/usesHashedFileName``, with `forcedExtension`, else
        /// ``Config/pathExtension``, else (with ``Config/autoExtAfterHashedFileName``) the key's
        /// own extension. An unhashed key has `%` and `/` percent-escaped so it stays one name in
        /// the directory.
        public func cacheFileName(forKey key: String, forcedExtension: String? = nil) -> String {
            let config = self.config
            guard config.usesHashedFileName else {
                // A plain key stays one file name: no directory separators, no "." or "..".
                var name = key.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "/", with: "%2F")
                if name == "." || name == ".." || name.isEmpty { name = name.replacingOccurrences(of: ".", with: "%2E") + "%" }
                if let ext = forcedExtension ?? config.pathExtension { return "\(name).\(ext)" }
                return name
            }
            let hashed = key.kf.sha256
            if let ext = forcedExtension ?? config.pathExtension { return "\(hashed).\(ext)" }
            if config.autoExtAfterHashedFileName, let ext = key.kf.ext { return "\(hashed).\(ext)" }
            return hashed
        }

        /// Where the file for `key` is or would be.
        public func cacheFileURL(forKey key: String, forcedExtension: String? = nil) -> URL {
            directoryURL.appendingPathComponent(cacheFileName(forKey: key, forcedExtension: forcedExtension), isDirectory: false)
        }

        // MARK: Storing

        /// Writes `value` for `key` atomically, expiring per `expiration` (default: the config's).
        /// An already expired expiration removes any stored file instead.
        ///
        /// - Throws: `diskStorageIsNotReady`, `cannotConvertToData`, `cannotCreateCacheFile`,
        ///   `cannotSetCacheFileAttribute`.
        public func store(
            value: T, forKey key: String, expiration: StorageExpiration? = nil,
            writeOptions: Data.WritingOptions = [], forcedExtension: String? = nil
        ) throws(KingfisherError) {
            try ensureReady()
            let url = cacheFileURL(forKey: key, forcedExtension: forcedExtension)
            let now = clock()
            let expirationDate = min((expiration ?? config.expiration).estimatedExpirationSince(now), Self.latestExpirationDate)
            guard expirationDate > now else {
                try? remove(forKey: key, forcedExtension: forcedExtension)
                return
            }
            let data: Data
            do {
                data = try value.toData()
            } catch {
                throw KingfisherError.cacheError(reason: .cannotConvertToData(object: String(describing: value), error: error))
            }
            let replacedSize = config.sizeLimit > 0 ? AtomicCacheFile.status(url.path)?.size ?? 0 : 0
            do throws(AtomicFile.Failure) {
                try AtomicCacheFile.write(data, to: url, lastAccess: now, expiration: expirationDate)
                keepUnderSizeLimit(afterWriting: UInt(data.count), replacing: replacedSize)
            } catch {
                switch error {
                case .write(let error):
                    throw KingfisherError.cacheError(reason: .cannotCreateCacheFile(fileURL: url, key: key, data: data, error: error))
                case .setDates(let error):
                    throw KingfisherError.cacheError(
                        reason: .cannotSetCacheFileAttribute(
                            filePath: url.path, attributes: ["lastAccess": now, "expiration": expirationDate], error: error))
                }
            }
        }

        /// Holds the size limit as each file is written, not only at the next cleaning: once the
        /// files this process knows of pass the limit, the least recently accessed are removed
        /// down to half of it (as a cleaning does), so the directory never holds more than the
        /// limit plus the file just written. Counting the files happens on the first write and
        /// on each pass, which the halving makes rare.
        private func keepUnderSizeLimit(afterWriting written: UInt, replacing replaced: UInt) {
            let limit = config.sizeLimit
            guard limit > 0 else { return }
            let over = sizeEstimate.withLock { estimate -> Bool in
                guard let known = estimate else { return true }
                let updated = known - min(known, replaced) + written
                estimate = updated
                return updated > limit
            }
            guard over else { return }
            _ = try? removeSizeExceededValues()
        }

        // MARK: Reading

        /// The unexpired value for `key`, or `nil`. Reading records the access time and extends
        /// the expiration as `extendingExpiration` says (default `.cacheTime`). A file the
        /// process cannot see (in a directory it may not search) is a miss, as in Kingfisher.
        ///
        /// - Throws: `diskStorageIsNotReady`, `cannotLoadDataFromDisk`, `cannotConvertToData`.
        public func value(
            forKey key: String, forcedExtension: String? = nil,
            extendingExpiration: ExpirationExtending = .cacheTime
        ) throws(KingfisherError) -> T? {
            try ensureReady()
            let url = cacheFileURL(forKey: key, forcedExtension: forcedExtension)
            let now = clock()
            let read: AtomicCacheFile.Contents?
            do {
                // `.none` leaves the file's dates alone, as Kingfisher does: the access time keeps
                // the last extension, which `.cacheTime` measures the file's lifetime from.
                let extend = extendingExpiration == .none ? nil : extendedExpiration(extendingExpiration, now: now)
                read = try AtomicCacheFile.read(url, now: now, extend: extend)
            } catch {
                throw KingfisherError.cacheError(reason: .cannotLoadDataFromDisk(url: url, error: error))
            }
            guard let read else { return nil }
            do {
                return try T.fromData(read.data)
            } catch {
                throw KingfisherError.cacheError(reason: .cannotConvertToData(object: url.path, error: error))
            }
        }

        /// Records an access to the file for `key` and extends its expiration as
        /// `extendingExpiration` says, without reading it (a revalidated HTTP response keeps its
        /// cached variants). Returns whether an unexpired file was there.
        @discardableResult
        func extendExpiration(
            forKey key: String, forcedExtension: String? = nil,
            extendingExpiration: ExpirationExtending = .cacheTime
        ) -> Bool {
            guard isReady else { return false }
            let now = clock()
            return AtomicCacheFile.touch(
                cacheFileURL(forKey: key, forcedExtension: forcedExtension), now: now,
                extend: extendedExpiration(extendingExpiration, now: now))
        }

        /// The new expiration of a file read at `now`, from its current expiration and last
        /// access. `.cacheTime` restarts the lifetime the file was stored or last extended with
        /// (its expiration minus its last access), as Kingfisher does, not the config's.
        private func extendedExpiration(_ extending: ExpirationExtending, now: Date) -> (Date, Date) -> Date {
            { expiration, lastAccess in
                switch extending {
                case .none:
                    return expiration
                case .cacheTime:
                    let lifetime = max(0, expiration.timeIntervalSince(lastAccess))
                    return min(now.addingTimeInterval(lifetime), Self.latestExpirationDate)
                case .expirationTime(let e):
                    return min(e.estimatedExpirationSince(now), Self.latestExpirationDate)
                }
            }
        }

        /// Whether an unexpired file exists for `key` now. Never changes its dates.
        public func isCached(forKey key: String, forcedExtension: String? = nil) -> Bool {
            isCached(forKey: key, referenceDate: clock(), forcedExtension: forcedExtension)
        }

        /// Whether a file exists for `key` that has not expired at `referenceDate`. Never changes
        /// its dates.
        public func isCached(forKey key: String, referenceDate: Date, forcedExtension: String? = nil) -> Bool {
            guard isReady else { return false }
            let url = cacheFileURL(forKey: key, forcedExtension: forcedExtension)
            guard let info = AtomicCacheFile.status(url.path) else { return false }
            return info.expiration > referenceDate
        }

        // MARK: Removing

        /// Removes the file for `key`, if any.
        public func remove(forKey key: String, forcedExtension: String? = nil) throws {
            try ensureReady()
            let path = cacheFileURL(forKey: key, forcedExtension: forcedExtension).path
            if unlink(path) != 0 && errno != ENOENT {
                throw KingfisherError.cacheError(
                    reason: .cannotCreateCacheFile(
                        fileURL: URL(fileURLWithPath: path), key: key, data: Data(),
                        error: POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)))
            }
        }

        /// Removes every file in the directory (the directory itself stays, so other processes
        /// using it keep working).
        public func removeAll() throws {
            try ensureReady()
            for entry in try entries() { unlink(entry.path) }
            sizeEstimate.withLock { $0 = nil }
        }

        /// Removes expired files, and temporary files of interrupted writes older than
        /// ``Config/temporaryFileLifetime``. Returns the removed files.
        @discardableResult
        public func removeExpiredValues() throws -> [URL] {
            try removeExpiredValues(referenceDate: clock())
        }

        /// ``removeExpiredValues()`` as if it were `referenceDate`.
        @discardableResult
        public func removeExpiredValues(referenceDate now: Date) throws -> [URL] {
            try ensureReady()
            let staleTemporary = now.addingTimeInterval(-config.temporaryFileLifetime)
            var removed: [URL] = []
            for entry in try entries() {
                let expired = entry.isTemporary ? entry.changed < staleTemporary : entry.expiration <= now
                if expired && AtomicCacheFile.removeIfUnchanged(entry) { removed.append(URL(fileURLWithPath: entry.path)) }
            }
            return removed
        }

        /// When the files total more than ``Config/sizeLimit`` bytes, removes the least recently
        /// accessed until the total is at most half the limit. Returns the removed files.
        @discardableResult
        public func removeSizeExceededValues() throws -> [URL] {
            try ensureReady()
            let limit = config.sizeLimit
            guard limit > 0 else { return [] }
            let files = try entries().filter { !$0.isTemporary }
            var total = files.reduce(UInt(0)) { $0 + $1.size }
            var removed: [URL] = []
            if total > limit {
                for file in files.sorted(by: { $0.lastAccess < $1.lastAccess }) where total > limit / 2 {
                    if AtomicCacheFile.removeIfUnchanged(file) {
                        total -= min(total, file.size)
                        removed.append(URL(fileURLWithPath: file.path))
                    }
                }
            }
            sizeEstimate.withLock { $0 = total }
            return removed
        }

        /// Expired files first, then size: what automatic cleaning does. Returns the removed files.
        @discardableResult
        public func clean() throws -> [URL] {
            try removeExpiredValues() + removeSizeExceededValues()
        }

        /// The total size in bytes of the cached files.
        public func totalSize() throws(KingfisherError) -> UInt {
            try ensureReady()
            return try entries().filter { !$0.isTemporary }.reduce(0) { $0 + $1.size }
        }

        /// The cached files with their metadata; hidden files other than this storage's temporary
        /// files and directories are skipped.
        func entries() throws(KingfisherError) -> [AtomicCacheFile.Entry] {
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: directoryURL.path)
            } catch CocoaError.fileReadNoSuchFile {
                return []
            } catch {
                throw KingfisherError.cacheError(reason: .fileEnumeratorCreationFailed(url: directoryURL))
            }
            return names.compactMap { name in
                let isTemporary = AtomicCacheFile.isTemporaryName(name)
                guard isTemporary || !name.hasPrefix(".") else { return nil }
                let path = directoryURL.appendingPathComponent(name).path
                guard let info = AtomicCacheFile.status(path), info.isRegularFile else { return nil }
                return AtomicCacheFile.Entry(path: path, isTemporary: isTemporary, status: info)
            }
        }
    }

    /// Settings of a ``Backend``.
    public struct Config: Sendable {
        /// The storage's name; the last path component of its directory by default.
        public let name: String
        /// The most bytes kept; 0 means no limit. A write that takes the files past it, and a
        /// cleaning that finds them past it, remove the least recently used files down to half
        /// of it (Kingfisher checks it only when cleaning).
        public var sizeLimit: UInt
        /// The expiration of stored files. Default `.days(7)`.
        public var expiration: StorageExpiration = .days(7)
        /// An extension appended to every file name. Default `nil`.
        public var pathExtension: String?
        /// Whether file names are the SHA-256 of the key. Default `true`.
        public var usesHashedFileName = true
        /// Whether a hashed name gets the key's own extension (`….png`). Default `false`.
        public var autoExtAfterHashedFileName = false
        /// Seconds between automatic cleanings (expired files, then size) on a background
        /// queue; 0 turns them off. Default 3600 (hourly): a server has no "entered background"
        /// moment, when Kingfisher cleans on Apple platforms.
        public var cleanInterval: TimeInterval = 3600
        /// How old a leftover temporary file (from a process killed mid-write) must be before
        /// cleaning removes it, in seconds. Default 600: long enough for any write in flight.
        public var temporaryFileLifetime: TimeInterval = 600
        /// The parent directory; `nil` means the user's cache directory (`$XDG_CACHE_HOME`, else
        /// `~/.cache`).
        public let directory: URL?
        /// Builds the storage's directory from the parent and the name. Default: parent + name.
        /// Read when the storage is created: changing it afterwards moves nothing.
        public var cachePathBlock: @Sendable (URL, String) -> URL

        /// Creates a config; everything not passed defaults as documented.
        public init(
            name: String, sizeLimit: UInt, directory: URL? = nil,
            cachePathBlock: @escaping @Sendable (URL, String) -> URL = { $0.appendingPathComponent($1, isDirectory: true) }
        ) {
            self.name = name
            self.sizeLimit = sizeLimit
            self.directory = directory
            self.cachePathBlock = cachePathBlock
        }

        /// Kingfisher's form with a file manager. Files here are created, renamed and removed
        /// with POSIX calls (atomic across processes), so `fileManager` is not used.
        @available(*, deprecated, message: "no effect on Linux: the disk storage does not use a FileManager")
        public init(name: String, sizeLimit: UInt, fileManager: FileManager, directory: URL? = nil) {
            self.init(name: name, sizeLimit: sizeLimit, directory: directory)
        }

        /// The directory the storage uses.
        public var directoryURL: URL {
            cachePathBlock(directory ?? Self.userCacheDirectory, name)
        }

        /// `$XDG_CACHE_HOME`, else `~/.cache`.
        public static var userCacheDirectory: URL {
            if let xdg = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
                return URL(fileURLWithPath: xdg, isDirectory: true)
            }
            return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache", isDirectory: true)
        }
    }
}

extension DiskStorage.Backend {
    /// Counts of what the directory holds: files (temporary ones excluded), their total bytes,
    /// and how many have expired.
    public func statistics(referenceDate: Date? = nil) throws -> (files: Int, bytes: UInt, expired: Int) {
        let now = referenceDate ?? clock()
        let files = try entries().filter { !$0.isTemporary }
        return (files.count, files.reduce(0) { $0 + $1.size }, files.filter { $0.expiration <= now }.count)
    }
}
