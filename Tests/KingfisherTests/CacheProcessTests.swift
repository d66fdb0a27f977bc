// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

/// Several processes on one cache directory, and a writer killed mid-write, using the
/// KingfisherCacheStress executable built next to kf.
@Suite(.serialized, .timeLimit(.minutes(10))) struct CacheProcessTests {
    /// Runs KingfisherCacheStress with `arguments`.
    func stress(_ arguments: String...) async throws -> ProcessRun {
        try await ProcessRun.run(BuiltExecutable.cacheStress.path, arguments)
    }

    @Test func twoProcessesNeverSeeAPartialOrWrongImage() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.path
            // All four at once, each on its own thread (not through ProcessRun's slots).
            let tool = BuiltExecutable.cacheStress.path
            async let writer1 = offThePool { try ProcessRun.runBlocking(tool, ["write", path, "6", "1.5", "1"]) }
            async let writer2 = offThePool { try ProcessRun.runBlocking(tool, ["write", path, "6", "1.5", "2"]) }
            async let reader1 = offThePool { try ProcessRun.runBlocking(tool, ["read", path, "6", "1.5"]) }
            async let reader2 = offThePool { try ProcessRun.runBlocking(tool, ["read", path, "6", "1.5"]) }
            let results = try await [writer1, writer2, reader1, reader2]
            for result in results { #expect(result.status == 0, "\(result.stderr)") }
            let hits = results.compactMap {
                $0.stdout.split(separator: "hits=").last.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            }
            // How many hits fit in 1.5 s depends on the machine's load; one each shows that the
            // readers checked real images, not only misses.
            #expect(hits.count == 2 && hits.allSatisfy { $0 >= 1 }, "readers read real images: \(results.map(\.stdout))")
            let verify = try await stress("verify", path, "0", "0")
            #expect(verify.status == 0, "\(verify.stderr)")
            #expect(verify.stdout.contains("temporary=0"))
        }
    }

    /// Kills a writer at a random moment, six times over.
    func killWritersMidWrite(in directory: URL) async throws {
        for round in 0..<6 {
            let arguments = ["write", directory.path, "4", "30", "\(round)"]
            let killed = try await offThePool {
                let writer = Process()
                writer.executableURL = BuiltExecutable.cacheStress
                writer.arguments = arguments
                writer.standardOutput = FileHandle.nullDevice
                writer.standardError = FileHandle.nullDevice
                try writer.run()
                Thread.sleep(forTimeInterval: Double.random(in: 0.05...0.25))
                kill(writer.processIdentifier, SIGKILL)
                writer.waitUntilExit()
                return writer.terminationReason == .uncaughtSignal || writer.terminationStatus == SIGKILL
            }
            #expect(killed)
        }
    }

    @Test func aWriterKilledMidWriteLeavesNothingCorrupt() async throws {
        try await withTemporaryDirectory { directory in
            try await killWritersMidWrite(in: directory)
            let verify = try await stress("verify", directory.path, "0", "0")
            #expect(verify.status == 0, "every visible file is a whole image: \(verify.stderr)")
            #expect(verify.stdout.contains("verified="))
        }
    }

    @Test func aKilledWritersTemporaryFilesAreCleanedOnceStale() async throws {
        try await withTemporaryDirectory { directory in
            try await killWritersMidWrite(in: directory)
            var config = DiskStorage.Config(
                name: "stress", sizeLimit: 0, directory: directory,
                cachePathBlock: ImageCache.defaultDiskCachePathClosure)
            config.cleanInterval = 0
            config.temporaryFileLifetime = 0
            let storage = try DiskStorage.Backend<Data>(config: config)
            try storage.removeExpiredValues(referenceDate: Date().addingTimeInterval(1))
            let names = try FileManager.default.contentsOfDirectory(atPath: storage.directoryURL.path)
            #expect(names.allSatisfy { !$0.hasPrefix(".") }, "\(names)")
        }
    }
}

/// `kf cache`, on a cache holding one fresh and one expired file.
@Suite(.timeLimit(.minutes(10))) struct CacheCommandTests {
    /// Runs `body` with a cache named "cli" in a temporary directory holding "a" (100 bytes) and
    /// "b" (50 bytes, expired), and a function running `kf cache ARGUMENTS` on it for its JSON.
    func withCache(_ body: (ImageCache, (String) async throws -> [String: Any]) async throws -> Void) async throws {
        try await withTemporaryDirectory { directory in
            let cache = try ImageCache(name: "cli", cacheDirectoryURL: directory)
            try await cache.storeToDisk(Data(repeating: 1, count: 100), forKey: "a")
            try await cache.storeToDisk(Data(repeating: 2, count: 50), forKey: "b")
            // Expired a minute ago: a file's expiration is its modification time.
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: cache.cachePath(forKey: "b"))
            try await body(cache) { command in
                let run = try await ProcessRun.kf("cache", command, "--name", "cli", "--directory", directory.path, "--json")
                #expect(run.status == 0, "\(run.stderr)")
                return try run.json()
            }
        }
    }

    @Test func cacheInfoReportsTheCacheContents() async throws {
        try await withCache { cache, kfCache in
            let info = try await kfCache("info")
            #expect(info["path"] as? String == cache.diskStorage.directoryURL.path)
            #expect(info["files"] as? Int == 2 && info["bytes"] as? Int == 150 && info["expired"] as? Int == 1)
        }
    }

    @Test func cacheCleanRemovesTheExpiredFile() async throws {
        try await withCache { cache, kfCache in
            let clean = try await kfCache("clean")
            #expect(clean["removed"] as? [String] == [cache.hash(forKey: "b")])
            #expect(clean["files"] as? Int == 1 && clean["expired"] as? Int == 0)
        }
    }

    @Test func cacheClearRemovesEveryFile() async throws {
        try await withCache { _, kfCache in
            let clear = try await kfCache("clear")
            #expect(clear["files"] as? Int == 0 && clear["bytes"] as? Int == 0)
        }
    }
}
