import Foundation
import Testing
@testable import Kingfisher
@testable import KingfisherImaging

/// Several processes on one cache directory, and a writer killed mid-write, using the
/// KingfisherCacheStress executable built next to kf.
@Suite(.serialized) struct CacheProcessTests {
    static var stressTool: String {
        KFCommandTests.executable.deletingLastPathComponent().appendingPathComponent("KingfisherCacheStress").path
    }

    func start(_ arguments: [String]) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.stressTool)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        return (process, out, err)
    }

    func finish(_ started: (Process, Pipe, Pipe)) -> (status: Int32, output: String, error: String) {
        let output = started.1.fileHandleForReading.readDataToEndOfFile()
        let error = started.2.fileHandleForReading.readDataToEndOfFile()
        started.0.waitUntilExit()
        return (started.0.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: error, as: UTF8.self))
    }

    @Test func twoProcessesNeverSeeAPartialOrWrongImage() throws {
        let directory = TemporaryDirectory()
        defer { directory.cleanUp() }
        let path = directory.url.path
        let processes = try [
            start(["write", path, "6", "1.5", "1"]), start(["write", path, "6", "1.5", "2"]),
            start(["read", path, "6", "1.5"]), start(["read", path, "6", "1.5"]),
        ]
        let results = processes.map(finish)
        for result in results { #expect(result.status == 0, "\(result.error)") }
        let hits = results.compactMap { $0.output.split(separator: "hits=").last.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } }
        let enough = max(1, 10 / SanitizerAllowance.time)
        #expect(hits.count == 2 && hits.allSatisfy { $0 >= enough }, "readers read real images: \(results.map(\.output))")
        let verify = finish(try start(["verify", path, "0", "0"]))
        #expect(verify.status == 0, "\(verify.error)")
        #expect(verify.output.contains("temporary=0"))
    }

    @Test func aWriterKilledMidWriteLeavesNothingCorrupt() throws {
        let directory = TemporaryDirectory()
        defer { directory.cleanUp() }
        let path = directory.url.path
        for round in 0..<6 {
            let writer = try start(["write", path, "4", "30", "\(round)"])
            Thread.sleep(forTimeInterval: Double.random(in: 0.05...0.25))
            kill(writer.0.processIdentifier, SIGKILL)
            let result = finish(writer)
            #expect(result.status == SIGKILL || writer.0.terminationReason == .uncaughtSignal)
        }
        let verify = finish(try start(["verify", path, "0", "0"]))
        #expect(verify.status == 0, "every visible file is a whole image: \(verify.error)")
        #expect(verify.output.contains("verified="))
        // Leftover temporary files are removed by cleaning once stale.
        var config = DiskStorage.Config(name: "stress", sizeLimit: 0, directory: directory.url,
                                        cachePathBlock: ImageCache.defaultDiskCachePathClosure)
        config.cleanInterval = 0
        config.temporaryFileLifetime = 0
        let storage = try DiskStorage.Backend<Data>(config: config)
        try storage.removeExpiredValues(referenceDate: Date().addingTimeInterval(1))
        let names = try FileManager.default.contentsOfDirectory(atPath: storage.directoryURL.path)
        #expect(names.allSatisfy { !$0.hasPrefix(".") }, "\(names)")
    }
}

@Suite struct CacheCommandTests {
    @Test func infoCleanAndClearReportJSON() async throws {
        let directory = TemporaryDirectory()
        defer { directory.cleanUp() }
        let cache = try ImageCache(name: "cli", cacheDirectoryURL: directory.url)
        try await cache.storeToDisk(Data(repeating: 1, count: 100), forKey: "a")
        try await cache.storeToDisk(Data(repeating: 2, count: 50), forKey: "b", expiration: .seconds(0.01))
        try await Task.sleep(for: .milliseconds(30))
        let tests = KFCommandTests()
        func json(_ arguments: String...) throws -> [String: Any] {
            let run = try tests.run(KFCommandTests.executable.path, ["cache"] + arguments + ["--name", "cli", "--directory", directory.url.path, "--json"])
            #expect(run.status == 0, "\(run.stderr)")
            return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        }
        let info = try json("info")
        #expect(info["path"] as? String == cache.diskStorage.directoryURL.path)
        #expect(info["files"] as? Int == 2 && info["bytes"] as? Int == 150 && info["expired"] as? Int == 1)
        let clean = try json("clean")
        #expect(clean["removed"] as? [String] == [cache.hash(forKey: "b")])
        #expect(clean["files"] as? Int == 1 && clean["expired"] as? Int == 0)
        let clear = try json("clear")
        #expect(clear["files"] as? Int == 0 && clear["bytes"] as? Int == 0)
    }
}
