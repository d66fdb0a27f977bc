import Foundation
import Testing
@testable import Kingfisher
@testable import KingfisherImaging

/// The disk cache when writes fail, in a KingfisherCacheStress process: on a full file system and
/// a read-only one (a small tmpfs mounted by the test in its own mount namespace, `unshare
/// --user --map-root-user --mount`, which needs no privileges where user namespaces are enabled,
/// as on Debian), and under a file size limit (`prlimit --fsize`, which works anywhere) that
/// fails each write halfway. Each store that cannot be written fails with a clear error, no
/// partial or temporary file is left, and the cache goes on working.
@Suite(.serialized) struct DiskCacheFaultTests {
    /// Whether this machine lets the test make a mount namespace with a tmpfs in it.
    static let canMount: Bool = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kf-mount-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        guard (try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)) != nil else { return false }
        return (try? run("mount -t tmpfs -o size=64k kf-probe \"$1\"", directory.path).status) == 0
    }()

    /// Runs `script` with `sh` in a new user and mount namespace (the mounts vanish with it).
    static func run(_ script: String, _ arguments: String...) throws -> (status: Int32, output: String) {
        let run = try KFCommandTests().run("/usr/bin/unshare",
                                           ["--user", "--map-root-user", "--mount", "sh", "-c", script, "sh"] + arguments)
        return (run.status, run.stdout + run.stderr)
    }

    @Test(.disabled(if: SanitizerAllowance.isActive, "a file size limit makes the sanitizer runtimes' own mappings fail"))
    func writesFailingHalfwayLeaveNoFileBehind() throws {
        let directory = TemporaryDirectory()
        defer { directory.cleanUp() }
        let tool = CacheProcessTests.stressTool
        // ~200 KB images; every write stops at 100 000 bytes with EFBIG.
        let script = "prlimit --fsize=100000 \"$2\" fill \"$1\" 3 0 && \"$2\" verify \"$1\" 0 0"
        let result = try KFCommandTests().run("/bin/sh", ["-c", script, "sh", directory.url.path, tool])
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        let failures = result.stdout.split(separator: "\n").filter { $0.hasPrefix("failed ") && $0.contains("File too large") }
        #expect(failures.count == 3, "\(result.stdout)")
        #expect(result.stdout.contains("memory=3"))
        #expect(result.stdout.contains("verified=0 temporary=0"), "no partial file: \(result.stdout)")
    }

    @Test(.enabled(if: canMount, "needs unshare with user namespaces (util-linux)"))
    func fullAndReadOnlyFileSystemsFailEachStoreClearly() throws {
        let directory = TemporaryDirectory()
        defer { directory.cleanUp() }
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        // Each image is a ~200 KB PNG: a 700 KB file system takes three, then is full.
        let script = """
            set -e
            mount -t tmpfs -o size=700k kf-full "$1"
            echo "== full"
            "$2" fill "$1" 6 0
            "$2" verify "$1" 0 0
            mount -o remount,ro "$1"
            echo "== read-only"
            "$2" fill "$1" 2 20
            "$2" read "$1" 6 0.3
            """
        let result = try Self.run(script, directory.url.path, CacheProcessTests.stressTool)
        #expect(result.status == 0, "\(result.output)")
        let sections = result.output.components(separatedBy: "== read-only")
        try #require(sections.count == 2, "\(result.output)")
        let full = sections[0], readOnly = sections[1]

        let stored = full.split(separator: "\n").filter { $0.hasPrefix("stored ") }.count
        let noSpace = full.split(separator: "\n").filter { $0.hasPrefix("failed ") && $0.contains("No space left on device") }
        #expect(stored >= 1 && stored < 6, "\(full)")
        #expect(noSpace.count == 6 - stored, "every other store fails with the system's reason: \(full)")
        #expect(noSpace.allSatisfy { $0.contains("kingfisher/stress") }, "the error names the file: \(noSpace)")
        #expect(full.contains("memory=6"), "the memory cache holds every image: \(full)")
        // verify: every file on disk is a whole image, and no temporary file is left behind.
        #expect(full.contains("verified=\(stored) temporary=0"), "\(full)")

        let refused = readOnly.split(separator: "\n").filter { $0.hasPrefix("failed ") && $0.contains("Read-only file system") }
        #expect(refused.count == 2, "\(readOnly)")
        #expect(readOnly.contains("memory=2"))
        // Reading what is there still works on the read-only file system.
        #expect(readOnly.contains("hits="), "\(readOnly)")
    }
}
