// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// The HTTP cache records of one ``ImageCache`` (see ``HTTPCachePolicy/followHeaders``): in
/// memory, and as a small JSON file beside the original in the disk cache so that other
/// processes sharing the directory (`kf get` runs) see them.
///
/// The memory half is bounded by count: a record dropped from memory is read back from disk.
final class HTTPCacheRecords: Sendable {
    /// The records kept in memory at most; past it, half are dropped.
    static let memoryLimit = 4096

    /// The processor-identifier slot a record's file takes in the disk cache: a record is stored
    /// like a variant of the original that no processor can name.
    static let diskIdentifier = "com.kingfisher-linux.http-cache-record"

    private let memory = Locked<[String: HTTPCacheRecord]>([:])

    /// The record for the original `key`: from memory, else from disk (reading it extends its
    /// disk expiration, like reading an image). `nil` when there is none, or it cannot be read.
    func record(forKey key: String, disk: DiskStorage.Backend<Data>) -> HTTPCacheRecord? {
        if let record = memory.withLock({ $0[key] }) { return record }
        guard let data = try? disk.value(forKey: key.computedKey(with: Self.diskIdentifier)),
            let record = try? JSONDecoder().decode(HTTPCacheRecord.self, from: data)
        else { return nil }
        remember(record, forKey: key)
        return record
    }

    /// Keeps `record` for `key` in memory and, with `toDisk`, on disk (expiring as `expiration`
    /// says, default the disk storage's). A record that cannot be written leaves none on disk: the
    /// image is then downloaded again rather than trusted for too long.
    func store(
        _ record: HTTPCacheRecord, forKey key: String, disk: DiskStorage.Backend<Data>, toDisk: Bool,
        expiration: StorageExpiration?
    ) {
        remember(record, forKey: key)
        let diskKey = key.computedKey(with: Self.diskIdentifier)
        guard toDisk else {
            try? disk.remove(forKey: diskKey)
            return
        }
        do {
            try disk.store(value: try JSONEncoder().encode(record), forKey: diskKey, expiration: expiration)
        } catch {
            try? disk.remove(forKey: diskKey)
        }
    }

    /// Adds the processor `identifier` to the variants of the record for `key`, if there is a
    /// record and it lacks it, so that a revalidation extends the variant and a replaced image
    /// removes it.
    func addVariant(
        _ identifier: String, forKey key: String, disk: DiskStorage.Backend<Data>, toDisk: Bool,
        expiration: StorageExpiration?
    ) {
        guard var record = record(forKey: key, disk: disk), !record.variants.contains(identifier) else { return }
        record.variants.insert(identifier)
        store(record, forKey: key, disk: disk, toDisk: toDisk, expiration: expiration)
    }

    /// Forgets the record for `key`, in memory and on disk.
    func remove(forKey key: String, disk: DiskStorage.Backend<Data>) {
        _ = memory.withLock { $0.removeValue(forKey: key) }
        try? disk.remove(forKey: key.computedKey(with: Self.diskIdentifier))
    }

    /// Forgets every record held in memory (the disk ones go with the disk cache's files).
    func removeAllFromMemory() {
        memory.withLock { $0.removeAll() }
    }

    private func remember(_ record: HTTPCacheRecord, forKey key: String) {
        memory.withLock { records in
            if records.count >= Self.memoryLimit, records[key] == nil {
                for dropped in records.keys.prefix(Self.memoryLimit / 2) { records[dropped] = nil }
            }
            records[key] = record
        }
    }
}
