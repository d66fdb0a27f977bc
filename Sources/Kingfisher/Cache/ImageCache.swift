// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Dispatch
import Foundation

/// A memory cache over a disk cache, as Kingfisher's `ImageCache`.
///
/// Images are stored in memory at once and written to disk off the caller's thread (on the
/// cache's serial `ioQueue`, so writes for one key keep their order); disk reads and decoding run
/// on a concurrent queue, so a server's parallel requests do not wait for each other. Every
/// operation has an `async` form; the completion-handler forms are thin layers over the same work.
public final class ImageCache: Sendable {
    /// The shared cache named "default", in `$XDG_CACHE_HOME/kingfisher/default`.
    public static let `default` = ImageCache(name: "default")

    /// The memory storage.
    public let memoryStorage: MemoryStorage.Backend<KFCrossPlatformImage>
    /// The disk storage.
    public let diskStorage: DiskStorage.Backend<Data>
    /// The HTTP caching records of originals cached under ``HTTPCachePolicy/followHeaders``.
    let httpRecords = HTTPCacheRecords()
    /// ``tiersBelowDisk``.
    let lowerTiers = Locked<[any CacheTier<Data>]>([])
    let ioQueue: DispatchQueue
    let readQueue: DispatchQueue

    /// Builds a cache directory from a parent directory and a name.
    public typealias DiskCachePathClosure = @Sendable (URL, String) -> URL

    /// The default directory rule: parent + `kingfisher/<name>`.
    public static let defaultDiskCachePathClosure: DiskCachePathClosure = { parent, name in
        parent.appendingPathComponent("kingfisher", isDirectory: true).appendingPathComponent(name, isDirectory: true)
    }

    /// Creates a cache over the given storages.
    public init(memoryStorage: MemoryStorage.Backend<KFCrossPlatformImage>, diskStorage: DiskStorage.Backend<Data>) {
        self.memoryStorage = memoryStorage
        self.diskStorage = diskStorage
        let label = "com.onevcat.Kingfisher.ImageCache.\(diskStorage.config.name)"
        ioQueue = DispatchQueue(label: label + ".ioQueue")
        readQueue = DispatchQueue(label: label + ".readQueue", attributes: .concurrent)
        diskStorage.onClean.set { [weak self] names in self?.postCleaned(names) }
    }

    /// Creates a cache named `name` in `$XDG_CACHE_HOME/kingfisher/<name>` (else
    /// `~/.cache/kingfisher/<name>`). Never throws: when the directory cannot be created, disk
    /// operations fail with `diskStorageIsNotReady`. An empty name is a programmer error.
    public convenience init(name: String) {
        precondition(!name.isEmpty, "[Kingfisher] You should specify a name for the cache. A cache with empty name is not permitted.")
        let config = DiskStorage.Config(name: name, sizeLimit: 0, cachePathBlock: Self.defaultDiskCachePathClosure)
        self.init(
            memoryStorage: MemoryStorage.Backend(config: MemoryStorage.Config()),
            diskStorage: DiskStorage.Backend(noThrowConfig: config))
    }

    /// Creates a cache named `name` under `cacheDirectoryURL` (default: the user's cache
    /// directory), its directory built by `diskCachePathClosure` (default: parent +
    /// `kingfisher/<name>`).
    ///
    /// - Throws: ``KingfisherError/CacheErrorReason/cannotCreateDirectory(path:error:)``.
    public convenience init(name: String, cacheDirectoryURL: URL?, diskCachePathClosure: DiskCachePathClosure? = nil) throws {
        precondition(!name.isEmpty, "[Kingfisher] You should specify a name for the cache. A cache with empty name is not permitted.")
        let config = DiskStorage.Config(
            name: name, sizeLimit: 0, directory: cacheDirectoryURL,
            cachePathBlock: diskCachePathClosure ?? Self.defaultDiskCachePathClosure)
        self.init(
            memoryStorage: MemoryStorage.Backend(config: MemoryStorage.Config()),
            diskStorage: try DiskStorage.Backend(config: config))
    }

    /// Posts with the cache as the object, as Kingfisher does, so observers can filter by cache.
    private func postCleaned(_ names: [String]) {
        NotificationCenter.default.post(
            name: .KingfisherDidCleanDiskCache, object: self,
            userInfo: [KingfisherDiskCacheCleanedHashKey: names])
    }

    // MARK: Storing

    /// Stores `image` in memory and, with `toDisk`, the serializer's data for it on disk.
    ///
    /// - Parameters:
    ///   - image: The image to store.
    ///   - original: The data the image came from; serializers may store it instead.
    ///   - key: The key the image is stored under.
    ///   - identifier: The processor that made the image; part of the key. Default "".
    ///   - forcedExtension: A file extension for the disk file. Default `nil`.
    ///   - serializer: Turns the image into data. Default ``DefaultCacheSerializer/default``.
    ///   - toDisk: Whether to store on disk too. Default `true`.
    ///   - callbackQueue: Where `completionHandler` runs. Default `.untouch`.
    ///   - completionHandler: Called once the disk file is written and, with a
    ///     tiers below the disk (``tiersBelowDisk``), once they have it too (or failed to take it).
    public func store(
        _ image: KFCrossPlatformImage, original: Data? = nil, forKey key: String,
        processorIdentifier identifier: String = "", forcedExtension: String? = nil,
        cacheSerializer serializer: any CacheSerializer = DefaultCacheSerializer.default,
        toDisk: Bool = true, callbackQueue: CallbackQueue = .untouch,
        completionHandler: (@Sendable (CacheStoreResult) -> Void)? = nil
    ) {
        var options = KingfisherParsedOptionsInfo(nil)
        options.forcedExtension = forcedExtension
        options.cacheSerializer = serializer
        options.callbackQueue = callbackQueue
        store(
            image, original: original, computedKey: key.computedKey(with: identifier), options: options,
            toDisk: toDisk, completionHandler: completionHandler)
    }

    /// Stores `image` as `options` say (processor identifier, serializer, expirations, forced
    /// extension, write options); completion on `options.callbackQueue`.
    public func store(
        _ image: KFCrossPlatformImage, original: Data? = nil, forKey key: String,
        options: KingfisherParsedOptionsInfo, toDisk: Bool = true,
        completionHandler: (@Sendable (CacheStoreResult) -> Void)? = nil
    ) {
        store(
            image, original: original, computedKey: key.computedKey(with: options.processor.identifier), options: options,
            toDisk: toDisk, completionHandler: completionHandler)
    }

    /// Stores under an already computed key (`key` or `key@processorIdentifier`).
    private func store(
        _ image: KFCrossPlatformImage, original: Data?, computedKey: String,
        options: KingfisherParsedOptionsInfo, toDisk: Bool,
        completionHandler: (@Sendable (CacheStoreResult) -> Void)?
    ) {
        memoryStorage.store(value: image, forKey: computedKey, expiration: options.memoryCacheExpiration)
        guard toDisk else {
            if let completionHandler {
                options.callbackQueue.execute {
                    completionHandler(CacheStoreResult(memoryCacheResult: .success(()), diskCacheResult: .success(())))
                }
            }
            return
        }
        ioQueue.async {
            let finish: @Sendable (Result<Void, KingfisherError>) -> Void = { result in
                guard let completionHandler else { return }
                options.callbackQueue.execute {
                    completionHandler(CacheStoreResult(memoryCacheResult: .success(()), diskCacheResult: result))
                }
            }
            guard let data = options.cacheSerializer.data(with: image, original: original) else {
                return finish(
                    .failure(
                        .cacheError(
                            reason: .cannotSerializeImage(
                                image: image, original: original,
                                serializer: options.cacheSerializer))))
            }
            let result = Result { () throws(KingfisherError) in
                try self.diskStorage.store(
                    value: data, forKey: computedKey, expiration: options.diskCacheExpiration,
                    forcedExtension: options.forcedExtension)
            }
            self.storeBelowDisk(
                data, computedKey: computedKey, forcedExtension: options.forcedExtension,
                expiration: options.diskCacheExpiration
            ) { finish(result) }
        }
    }

    /// Stores `image` as `options` say; returns when the disk file is written. See the completion form.
    public func store(
        _ image: KFCrossPlatformImage, original: Data? = nil, forKey key: String,
        options: KingfisherParsedOptionsInfo, toDisk: Bool = true
    ) async throws {
        var options = options
        options.callbackQueue = .untouch
        let result: CacheStoreResult = await withCheckedContinuation { continuation in
            store(image, original: original, forKey: key, options: options, toDisk: toDisk) { continuation.resume(returning: $0) }
        }
        try result.diskCacheResult.get()
    }

    /// Stores `image`; returns when the disk file is written. See the completion form for the
    /// parameters and their defaults.
    public func store(
        _ image: KFCrossPlatformImage, original: Data? = nil, forKey key: String,
        processorIdentifier identifier: String = "", forcedExtension: String? = nil,
        cacheSerializer serializer: any CacheSerializer = DefaultCacheSerializer.default,
        toDisk: Bool = true
    ) async throws {
        let result: CacheStoreResult = await withCheckedContinuation { continuation in
            store(
                image, original: original, forKey: key, processorIdentifier: identifier, forcedExtension: forcedExtension,
                cacheSerializer: serializer, toDisk: toDisk
            ) { continuation.resume(returning: $0) }
        }
        try result.diskCacheResult.get()
    }

    /// Writes `data` to disk for `key` (and processor `identifier`) without touching memory;
    /// `completionHandler` is called once the disk file is written and, with a
    /// tiers below the disk (``tiersBelowDisk``), once they have it too (or failed to take it).
    public func storeToDisk(
        _ data: Data, forKey key: String, processorIdentifier identifier: String = "",
        forcedExtension: String? = nil, expiration: StorageExpiration? = nil,
        callbackQueue: CallbackQueue = .untouch,
        completionHandler: (@Sendable (CacheStoreResult) -> Void)? = nil
    ) {
        ioQueue.async {
            let result = Result { () throws(KingfisherError) in
                try self.diskStorage.store(
                    value: data, forKey: key.computedKey(with: identifier), expiration: expiration,
                    forcedExtension: forcedExtension)
            }
            self.storeBelowDisk(
                data, computedKey: key.computedKey(with: identifier), forcedExtension: forcedExtension,
                expiration: expiration
            ) {
                completionHandler.map { handler in
                    callbackQueue.execute { handler(CacheStoreResult(memoryCacheResult: .success(()), diskCacheResult: result)) }
                }
            }
        }
    }

    /// Writes `data` to disk; returns when written.
    public func storeToDisk(
        _ data: Data, forKey key: String, processorIdentifier identifier: String = "",
        forcedExtension: String? = nil, expiration: StorageExpiration? = nil
    ) async throws {
        let result: CacheStoreResult = await withCheckedContinuation { continuation in
            storeToDisk(
                data, forKey: key, processorIdentifier: identifier, forcedExtension: forcedExtension,
                expiration: expiration
            ) { continuation.resume(returning: $0) }
        }
        try result.diskCacheResult.get()
    }

    // MARK: Removing

    /// Removes the image for `key` (and processor `identifier`) from memory and/or disk;
    /// `completionHandler` runs on `callbackQueue` (default `.untouch`) once done, whether or not
    /// the file could be removed (the `async` form throws that error).
    public func removeImage(
        forKey key: String, processorIdentifier identifier: String = "", forcedExtension: String? = nil,
        fromMemory: Bool = true, fromDisk: Bool = true, callbackQueue: CallbackQueue = .untouch,
        completionHandler: (@Sendable () -> Void)? = nil
    ) {
        removeImage(
            forKey: key, processorIdentifier: identifier, forcedExtension: forcedExtension, fromMemory: fromMemory,
            fromDisk: fromDisk, callbackQueue: callbackQueue, reportingFailure: { _ in completionHandler?() })
    }

    /// The same, handing the failure to remove the file (or `nil`) to `reportingFailure`.
    func removeImage(
        forKey key: String, processorIdentifier identifier: String, forcedExtension: String?,
        fromMemory: Bool, fromDisk: Bool, callbackQueue: CallbackQueue,
        reportingFailure completionHandler: (@Sendable (Error?) -> Void)?
    ) {
        let computedKey = key.computedKey(with: identifier)
        if fromMemory { memoryStorage.remove(forKey: computedKey) }
        guard fromDisk else {
            if let completionHandler { callbackQueue.execute { completionHandler(nil) } }
            return
        }
        removeBelowDisk(computedKey: computedKey, forcedExtension: forcedExtension)
        ioQueue.async {
            let failure: Error?
            do {
                try self.diskStorage.remove(forKey: computedKey, forcedExtension: forcedExtension)
                failure = nil
            } catch {
                failure = error
            }
            if let completionHandler { callbackQueue.execute { completionHandler(failure) } }
        }
    }

    /// Removes the image for `key`; returns when removed.
    public func removeImage(
        forKey key: String, processorIdentifier identifier: String = "", forcedExtension: String? = nil,
        fromMemory: Bool = true, fromDisk: Bool = true
    ) async throws {
        let failure: Error? = await withCheckedContinuation { continuation in
            removeImage(
                forKey: key, processorIdentifier: identifier, forcedExtension: forcedExtension, fromMemory: fromMemory,
                fromDisk: fromDisk, callbackQueue: .untouch, reportingFailure: { continuation.resume(returning: $0) })
        }
        if let failure { throw failure }
    }

    // MARK: Retrieving

    /// Looks in memory, then (unless `fromMemoryCacheOrRefresh`) on disk, promoting a disk hit
    /// to memory. Completion on `callbackQueue` (default `.mainCurrentOrAsync`).
    public func retrieveImage(
        forKey key: String, options: KingfisherOptionsInfo? = nil,
        callbackQueue: CallbackQueue = .mainCurrentOrAsync,
        completionHandler: (@Sendable (Result<ImageCacheResult, KingfisherError>) -> Void)?
    ) {
        retrieveImage(
            forKey: key, options: KingfisherParsedOptionsInfo(options), callbackQueue: callbackQueue,
            completionHandler: completionHandler)
    }

    /// The same with parsed options; completion on `callbackQueue` (default
    /// `.mainCurrentOrAsync`), whatever `options.callbackQueue` says, as in Kingfisher.
    public func retrieveImage(
        forKey key: String, options: KingfisherParsedOptionsInfo,
        callbackQueue: CallbackQueue = .mainCurrentOrAsync,
        completionHandler: (@Sendable (Result<ImageCacheResult, KingfisherError>) -> Void)?
    ) {
        guard let completionHandler else { return }
        var delivering = options
        delivering.callbackQueue = callbackQueue
        let options = delivering
        if let image = retrieveImageInMemoryCache(forKey: key, options: options) {
            options.callbackQueue.execute { completionHandler(.success(.memory(image))) }
            return
        }
        if options.fromMemoryCacheOrRefresh {
            options.callbackQueue.execute { completionHandler(.success(.none)) }
            return
        }
        retrieveImageInDiskCache(forKey: key, options: options) { result in
            completionHandler(
                result.map { image in
                    guard let image else { return .none }
                    self.memoryStorage.store(
                        value: image, forKey: key.computedKey(with: options.processor.identifier),
                        expiration: options.memoryCacheExpiration)
                    return .disk(image)
                })
        }
    }

    /// Looks in memory, then on disk; a disk hit is promoted to memory.
    public func retrieveImage(forKey key: String, options: KingfisherParsedOptionsInfo) async throws -> ImageCacheResult {
        try await withCheckedThrowingContinuation { continuation in
            retrieveImage(forKey: key, options: options, callbackQueue: .untouch) { continuation.resume(with: $0) }
        }
    }

    /// The same with an options array (default `nil`).
    public func retrieveImage(forKey key: String, options: KingfisherOptionsInfo? = nil) async throws -> ImageCacheResult {
        try await retrieveImage(forKey: key, options: KingfisherParsedOptionsInfo(options))
    }

    /// The image in memory for `key`, synchronously; `nil` when absent or expired.
    public func retrieveImageInMemoryCache(forKey key: String, options: KingfisherOptionsInfo? = nil) -> KFCrossPlatformImage? {
        retrieveImageInMemoryCache(forKey: key, options: KingfisherParsedOptionsInfo(options))
    }

    /// The image in memory for `key` with parsed options.
    public func retrieveImageInMemoryCache(forKey key: String, options: KingfisherParsedOptionsInfo) -> KFCrossPlatformImage? {
        memoryStorage.value(
            forKey: key.computedKey(with: options.processor.identifier),
            extendingExpiration: options.memoryCacheAccessExtendingExpiration)
    }

    /// Reads and decodes the image on disk for `key`, on the cache's read queue (or the calling
    /// thread with `loadDiskFileSynchronously`); completion on `callbackQueue` (default `.untouch`).
    public func retrieveImageInDiskCache(
        forKey key: String, options: KingfisherOptionsInfo? = nil,
        callbackQueue: CallbackQueue = .untouch,
        completionHandler: @escaping @Sendable (Result<KFCrossPlatformImage?, KingfisherError>) -> Void
    ) {
        var parsed = KingfisherParsedOptionsInfo(options)
        parsed.callbackQueue = callbackQueue
        retrieveImageInDiskCache(forKey: key, options: parsed, completionHandler: completionHandler)
    }

    /// The same with parsed options; completion on `options.callbackQueue`.
    public func retrieveImageInDiskCache(
        forKey key: String, options: KingfisherParsedOptionsInfo,
        completionHandler: @escaping @Sendable (Result<KFCrossPlatformImage?, KingfisherError>) -> Void
    ) {
        let computedKey = key.computedKey(with: options.processor.identifier)
        let work: @Sendable () -> Void = {
            let result = Result { () throws(KingfisherError) -> Data? in
                try self.diskStorage.value(
                    forKey: computedKey, forcedExtension: options.forcedExtension,
                    extendingExpiration: options.diskCacheAccessExtendingExpiration)
            }
            if case .success(.none) = result, !self.tiersBelowDisk.isEmpty {
                // Not on this disk: a tier below may have it (and then this disk keeps it).
                OffPoolExecutor.task {
                    let data = await self.dataBelowDisk(
                        forComputedKey: computedKey, forcedExtension: options.forcedExtension,
                        expiration: options.diskCacheExpiration)
                    // Decoded on the read queue, as a disk hit is: not on the cooperative pool.
                    self.readQueue.async {
                        let image = data.flatMap { options.cacheSerializer.image(with: $0, options: options) }
                        options.callbackQueue.execute { completionHandler(.success(image)) }
                    }
                }
                return
            }
            let image = result.map { data in data.flatMap { options.cacheSerializer.image(with: $0, options: options) } }
            options.callbackQueue.execute { completionHandler(image) }
        }
        if options.loadDiskFileSynchronously { work() } else { readQueue.async(execute: work) }
    }

    /// Reads and decodes the image on disk for `key`; `nil` when absent, expired or undecodable.
    public func retrieveImageInDiskCache(forKey key: String, options: KingfisherOptionsInfo? = nil) async throws -> KFCrossPlatformImage? {
        try await retrieveImageInDiskCache(forKey: key, options: KingfisherParsedOptionsInfo(options))
    }

    /// The same with parsed options.
    public func retrieveImageInDiskCache(forKey key: String, options: KingfisherParsedOptionsInfo) async throws -> KFCrossPlatformImage? {
        var options = options
        options.callbackQueue = .untouch
        return try await withCheckedThrowingContinuation { continuation in
            retrieveImageInDiskCache(forKey: key, options: options) { continuation.resume(with: $0) }
        }
    }

    // MARK: Clearing and cleaning

    /// Empties the memory cache.
    public func clearMemoryCache() {
        memoryStorage.removeAll()
        httpRecords.removeAllFromMemory()
    }

    /// Empties the disk cache on the io queue; `completion` runs on `callbackQueue`, by default
    /// the main queue as in Kingfisher. A process that never runs the main queue (a server, a
    /// command-line tool) passes `.untouch` or awaits the `async` form.
    public func clearDiskCache(callbackQueue: CallbackQueue = .mainAsync, completion: (@Sendable () -> Void)? = nil) {
        ioQueue.async {
            try? self.diskStorage.removeAll()
            if let completion { callbackQueue.execute(completion) }
        }
    }

    /// Empties the disk cache; returns when done.
    public func clearDiskCache() async {
        await withCheckedContinuation { continuation in clearDiskCache(callbackQueue: .untouch) { continuation.resume() } }
    }

    /// Empties both caches; `completion` as ``clearDiskCache(callbackQueue:completion:)``'s.
    public func clearCache(callbackQueue: CallbackQueue = .mainAsync, completion: (@Sendable () -> Void)? = nil) {
        clearMemoryCache()
        clearDiskCache(callbackQueue: callbackQueue, completion: completion)
    }

    /// Empties both caches; returns when done.
    public func clearCache() async {
        clearMemoryCache()
        await clearDiskCache()
    }

    /// Removes expired images from memory.
    public func cleanExpiredMemoryCache() {
        memoryStorage.removeExpired()
    }

    /// Removes expired files, then the least recently used past the size limit; posts
    /// `Notification.Name.KingfisherDidCleanDiskCache` with the removed files'
    /// names when anything was removed. `completion` runs on `callbackQueue`, by default the main
    /// queue (see ``clearDiskCache(callbackQueue:completion:)``).
    public func cleanExpiredDiskCache(callbackQueue: CallbackQueue = .mainAsync, completion: (@Sendable () -> Void)? = nil) {
        ioQueue.async {
            let removed = ((try? self.diskStorage.clean()) ?? []).map(\.lastPathComponent)
            if !removed.isEmpty { self.postCleaned(removed) }
            if let completion { callbackQueue.execute(completion) }
        }
    }

    /// Cleans the disk cache; returns when done.
    public func cleanExpiredDiskCache() async {
        await withCheckedContinuation { continuation in cleanExpiredDiskCache(callbackQueue: .untouch) { continuation.resume() } }
    }

    /// Cleans both caches; `completion` as ``cleanExpiredDiskCache(callbackQueue:completion:)``'s.
    public func cleanExpiredCache(callbackQueue: CallbackQueue = .mainAsync, completion: (@Sendable () -> Void)? = nil) {
        cleanExpiredMemoryCache()
        cleanExpiredDiskCache(callbackQueue: callbackQueue, completion: completion)
    }

    /// Cleans both caches; returns when done.
    public func cleanExpiredCache() async {
        cleanExpiredMemoryCache()
        await cleanExpiredDiskCache()
    }

    // MARK: Inspecting

    /// Where the image for `key` is cached: memory, disk, or nowhere.
    public func imageCachedType(
        forKey key: String, processorIdentifier identifier: String = "",
        forcedExtension: String? = nil
    ) -> CacheType {
        let computedKey = key.computedKey(with: identifier)
        if memoryStorage.isCached(forKey: computedKey) { return .memory }
        if diskStorage.isCached(forKey: computedKey, forcedExtension: forcedExtension) { return .disk }
        return .none
    }

    /// ``imageCachedType(forKey:processorIdentifier:forcedExtension:)`` without waiting on the
    /// disk: a memory hit is answered at once, from the calling thread (as in Kingfisher: with
    /// `.untouch` the handler has run when this returns); the disk is checked on the io queue.
    /// `completionHandler` runs on `callbackQueue` (default `.mainCurrentOrAsync`).
    public func imageCachedTypeAsync(
        forKey key: String, processorIdentifier identifier: String = "",
        forcedExtension: String? = nil, callbackQueue: CallbackQueue = .mainCurrentOrAsync,
        completionHandler: @escaping @Sendable (CacheType) -> Void
    ) {
        let computedKey = key.computedKey(with: identifier)
        if memoryStorage.isCached(forKey: computedKey) {
            callbackQueue.execute { completionHandler(.memory) }
            return
        }
        ioQueue.async {
            let onDisk = self.diskStorage.isCached(forKey: computedKey, forcedExtension: forcedExtension)
            callbackQueue.execute { completionHandler(onDisk ? .disk : .none) }
        }
    }

    /// Where the image for `key` is cached, found on the io queue.
    public func imageCachedTypeAsync(
        forKey key: String, processorIdentifier identifier: String = "",
        forcedExtension: String? = nil
    ) async -> CacheType {
        await withCheckedContinuation { continuation in
            imageCachedTypeAsync(
                forKey: key, processorIdentifier: identifier, forcedExtension: forcedExtension,
                callbackQueue: .untouch
            ) { continuation.resume(returning: $0) }
        }
    }

    /// Whether the image for `key` is cached in memory or on disk.
    public func isCached(forKey key: String, processorIdentifier identifier: String = "", forcedExtension: String? = nil) -> Bool {
        imageCachedType(forKey: key, processorIdentifier: identifier, forcedExtension: forcedExtension).cached
    }

    /// The disk file name for `key`: the SHA-256 of the computed key, with any extension.
    public func hash(forKey key: String, processorIdentifier identifier: String = "", forcedExtension: String? = nil) -> String {
        diskStorage.cacheFileName(forKey: key.computedKey(with: identifier), forcedExtension: forcedExtension)
    }

    /// The disk file path for `key`, whether or not it exists.
    public func cachePath(forKey key: String, processorIdentifier identifier: String = "", forcedExtension: String? = nil) -> String {
        diskStorage.cacheFileURL(forKey: key.computedKey(with: identifier), forcedExtension: forcedExtension).path
    }

    /// The disk file URL for `key` when the file exists and has not expired.
    public func cacheFileURLIfOnDisk(
        forKey key: String, processorIdentifier identifier: String = "",
        forcedExtension: String? = nil
    ) -> URL? {
        let computedKey = key.computedKey(with: identifier)
        guard diskStorage.isCached(forKey: computedKey, forcedExtension: forcedExtension) else { return nil }
        return diskStorage.cacheFileURL(forKey: computedKey, forcedExtension: forcedExtension)
    }

    /// The disk cache's size in bytes, computed on the io queue; `completion` runs on
    /// `callbackQueue`, by default the main queue as in Kingfisher.
    public func calculateDiskStorageSize(
        callbackQueue: CallbackQueue = .mainAsync,
        completion: @escaping @Sendable (Result<UInt, KingfisherError>) -> Void
    ) {
        ioQueue.async {
            let result = Result { () throws(KingfisherError) in try self.diskStorage.totalSize() }
            callbackQueue.execute { completion(result) }
        }
    }

    /// The disk cache's size in bytes.
    public var diskStorageSize: UInt {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                calculateDiskStorageSize(callbackQueue: .untouch) { continuation.resume(with: $0) }
            }
        }
    }

    /// The memory cache's total cost in bytes.
    public var memoryStorageCacheCost: Int { memoryStorage.totalCost }
}
