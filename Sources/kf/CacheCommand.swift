// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import ArgumentParser
import Foundation
import Kingfisher

/// `kf cache info|clean|clear [--name N] [--directory D] [--json]`.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Inspect, clean or clear a Kingfisher disk cache (by default the one kf and ImageCache.default use).",
        subcommands: [CacheInfo.self, CacheClean.self, CacheClear.self]
    )
}

/// Which cache a command works on: `--name` and `--directory`.
struct CacheDirectoryOptions: ParsableArguments {
    @Option(help: "The cache name.")
    var name = "default"

    @Option(help: "The parent directory (default: $XDG_CACHE_HOME or ~/.cache); the cache is <directory>/kingfisher/<name>.")
    var directory: String?

    /// The cache, or exits with ``ExitStatus/cannotCreate``.
    func open() -> ImageCache {
        do {
            return try ImageCache(name: name, cacheDirectoryURL: directory.map { URL(fileURLWithPath: $0, isDirectory: true) })
        } catch {
            exitWithError("\(error)", status: ExitStatus.cannotCreate)
        }
    }
}

/// The options of every `kf cache` subcommand: which cache, and how to report.
struct CacheCommandOptions: ParsableArguments {
    @OptionGroup var cache: CacheDirectoryOptions

    @Flag(help: "Print JSON with the keys path, files, bytes, expired (and removed for clean).")
    var json = false

    func open() -> ImageCache { cache.open() }
}

/// What `kf cache` reports.
struct CacheReport: Encodable {
    var path: String
    var files: Int
    var bytes: UInt
    var expired: Int
    var removed: [String]?

    init(_ cache: ImageCache, removed: [String]? = nil) throws {
        let entries = try cache.diskStorage.statistics()
        path = cache.diskStorage.directoryURL.path
        files = entries.files
        bytes = entries.bytes
        expired = entries.expired
        self.removed = removed
    }

    func print(json: Bool) throws {
        if json {
            try printJSON(self)
        } else {
            if let removed { Swift.print("removed: \(removed.count) files") }
            Swift.print("path:    \(path)\nfiles:   \(files)\nbytes:   \(bytes)\nexpired: \(expired)")
        }
    }
}

struct CacheInfo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info", abstract: "Print the path, file count, total bytes and expired count.")
    @OptionGroup var options: CacheCommandOptions

    func run() throws {
        try CacheReport(options.open()).print(json: options.json)
    }
}

struct CacheClean: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clean", abstract: "Remove expired files, then the least recently used past the size limit; say what was removed.")
    @OptionGroup var options: CacheCommandOptions

    @Option(help: "Size limit in bytes for this cleaning (0: none).")
    var sizeLimit: UInt = 0

    func run() throws {
        let cache = options.open()
        cache.diskStorage.config.sizeLimit = sizeLimit
        let removed = try cache.diskStorage.clean().map(\.lastPathComponent)
        try CacheReport(cache, removed: removed).print(json: options.json)
    }
}

struct CacheClear: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "clear", abstract: "Remove every file in the cache.")
    @OptionGroup var options: CacheCommandOptions

    func run() throws {
        let cache = options.open()
        try cache.diskStorage.removeAll()
        try CacheReport(cache).print(json: options.json)
    }
}
