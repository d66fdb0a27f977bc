// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

/// The disk cache when writes fail, in a KingfisherCacheStress process: on a full file system and
/// a read-only one (a small tmpfs mounted by the test in its own mount namespace, `unshare
/// --user --map-root-user --mount`, which needs no privileges where user namespaces are enabled,
/// as on Debian), and under a file size limit (`prlimit --fsize`, which works anywhere) that
/// fails each write halfway. Each store that cannot be written fails with a clear error, no
/// partial or temporary file is left, and the cache goes on working.
@Suite(.serialized, .timeLimit(.minutes(10))) struct DiskCacheFaultTests {
    static var canMount: Bool { MountNamespace.isAvailable }

    /// Runs `script` in a new user and mount namespace.
    static func run(_ script: String, _ arguments: String...) async throws -> (status: Int32, output: String) {
        let run = try await ProcessRun.run("/usr/bin/unshare", MountNamespace.arguments(script, arguments))
        return (run.status, run.stdout + run.stderr)
    }

    /// The lines of `output` reporting a store that failed with `reason`.
    static func failures(_ output: String, _ reason: String) -> [Substring] {
        output.split(separator: "\n").filter { $0.hasPrefix("failed ") && $0.contains(reason) }
    }

    @Test(.disabled(if: SanitizerAllowance.isActive, "a file size limit makes the sanitizer runtimes' own mappings fail"))
    func writesFailingHalfwayLeaveNoFileBehind() async throws {
        try await withTemporaryDirectory { directory in
            // ~200 KB images; every write stops at 100 000 bytes with EFBIG.
            let script = "prlimit --fsize=100000 \"$2\" fill \"$1\" 3 0 && \"$2\" verify \"$1\" 0 0"
            let result = try await ProcessRun.run("/bin/sh", ["-c", script, "sh", directory.path, BuiltExecutable.cacheStress.path])
            #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
            #expect(Self.failures(result.stdout, "File too large").count == 3, "\(result.stdout)")
            #expect(result.stdout.contains("memory=3"))
            #expect(result.stdout.contains("verified=0 temporary=0"), "no partial file: \(result.stdout)")
        }
    }

    @Test(.enabled(if: canMount, "needs unshare with user namespaces (util-linux)"))
    func aFullFileSystemFailsEachStoreClearly() async throws {
        try await withTemporaryDirectory { directory in
            // Each image is a ~200 KB PNG: a 700 KB file system takes three, then is full.
            let script = """
                set -e
                mount -t tmpfs -o size=700k kf-full "$1"
                "$2" fill "$1" 6 0
                "$2" verify "$1" 0 0
                """
            let result = try await Self.run(script, directory.path, BuiltExecutable.cacheStress.path)
            #expect(result.status == 0, "\(result.output)")
            let full = result.output
            let stored = full.split(separator: "\n").filter { $0.hasPrefix("stored ") }.count
            let noSpace = Self.failures(full, "No space left on device")
            #expect(stored >= 1 && stored < 6, "\(full)")
            #expect(noSpace.count == 6 - stored, "every other store fails with the system's reason: \(full)")
            #expect(noSpace.allSatisfy { $0.contains("kingfisher/stress") }, "the error names the file: \(noSpace)")
            #expect(full.contains("memory=6"), "the memory cache holds every image: \(full)")
            // verify: every file on disk is a whole image, and no temporary file is left behind.
            #expect(full.contains("verified=\(stored) temporary=0"), "\(full)")
        }
    }

    @Test(.enabled(if: canMount, "needs unshare with user namespaces (util-linux)"))
    func aReadOnlyFileSystemFailsEachStoreClearly() async throws {
        try await withTemporaryDirectory { directory in
            // Two images are stored first, so that there is something to read.
            let script = """
                set -e
                mount -t tmpfs -o size=2m kf-readonly "$1"
                "$2" fill "$1" 2 0 > /dev/null
                mount -o remount,ro "$1"
                echo "== read-only"
                "$2" fill "$1" 2 20
                "$2" read "$1" 2 0.3
                """
            let result = try await Self.run(script, directory.path, BuiltExecutable.cacheStress.path)
            #expect(result.status == 0, "\(result.output)")
            let sections = result.output.components(separatedBy: "== read-only")
            try #require(sections.count == 2, "\(result.output)")
            let readOnly = sections[1]
            #expect(Self.failures(readOnly, "Read-only file system").count == 2, "\(readOnly)")
            #expect(readOnly.contains("memory=2"))
            // Reading what is there still works on the read-only file system.
            #expect(readOnly.contains("hits="), "\(readOnly)")
        }
    }

    @Test(.enabled(if: canMount, "needs unshare with user namespaces (util-linux)"))
    func aDirectoryTheProcessMayNotSearchIsAMiss() async throws {
        try await withTemporaryDirectory { directory in
            // The reader runs in a new user namespace with no mapped root, as the overflow user,
            // so the closed directory binds it even when the suite runs as root.
            let script = """
                set -e
                "$2" fill "$1" 2 0 > /dev/null
                trap 'chmod 755 "$1/kingfisher/stress"' EXIT
                chmod 755 "$1" "$1/kingfisher"
                chmod 000 "$1/kingfisher/stress"
                unshare --user "$2" read "$1" 2 0.2
                """
            let result = try await ProcessRun.run("/bin/sh", ["-c", script, "sh", directory.path, BuiltExecutable.cacheStress.path])
            #expect(result.status == 0, "a miss, not cannotLoadDataFromDisk: \(result.stdout) \(result.stderr)")
            #expect(result.stdout.contains("hits=0"), "\(result.stdout)")
        }
    }
}
