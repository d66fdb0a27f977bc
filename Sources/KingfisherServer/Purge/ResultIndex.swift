// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher

/// What this node made from each source, so that a purge finds it: the keys of its encoded
/// results (in memory and on disk) and of its processed images (in memory). Those keys are
/// named by the processing, the format and the source's version, which the source's address
/// alone does not give.
///
/// One list per source, on disk beside the originals (key `URL#results`), so that a restart
/// still finds the results its disk kept. What a list leaves out (past ``maxEntries``, or a list
/// evicted with the originals) a purge does not remove, but it is not served either: the purge
/// gives the source a version that none of it has.
final class ResultIndex: Sendable {
    /// One thing made from a source.
    struct Entry: Codable, Hashable, Sendable {
        /// The encoded result's key in the result tiers.
        var result: String
        /// The processed image's key in the processed tier; `nil` when it was not kept there.
        var processed: String?
    }

    /// The entries kept per source at most: a list is rewritten at each new entry.
    static let maxEntries = 1000

    private let disk: DiskStorage.Backend<Data>
    /// Each list is read, changed and written whole: one change at a time.
    private let changing = Locked(())

    init(disk: DiskStorage.Backend<Data>) {
        self.disk = disk
    }

    /// Notes that `entry` was made from `source`.
    func insert(_ entry: Entry, of source: URL) {
        let key = Self.key(of: source)
        changing.withLock { _ in
            var entries = entries(forKey: key)
            guard !entries.contains(entry) else { return }
            entries.append(entry)
            if entries.count > Self.maxEntries { entries.removeFirst(entries.count - Self.maxEntries) }
            guard let data = try? JSONEncoder().encode(entries) else { return }
            try? disk.store(value: data, forKey: key)
        }
    }

    /// Forgets what was made from `source`, and returns it.
    func removeAll(of source: URL) -> [Entry] {
        let key = Self.key(of: source)
        return changing.withLock { _ in
            defer { try? disk.remove(forKey: key) }
            return entries(forKey: key)
        }
    }

    private func entries(forKey key: String) -> [Entry] {
        guard let data = try? disk.value(forKey: key) else { return [] }
        return (try? JSONDecoder().decode([Entry].self, from: data)) ?? []
    }

    /// Where a source's list is kept: beside its original, under a name no version takes.
    private static func key(of source: URL) -> String { "\(source.absoluteString)#results" }
}
