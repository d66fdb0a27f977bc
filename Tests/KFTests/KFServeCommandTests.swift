// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import AsyncHTTPClient
import Foundation
import KingfisherServer
import KingfisherTestKit
import Testing

/// `kf serve` and `kf url` as processes.
@Suite struct KFServeCommandTests {
    @Test func serveAnswersThenStopsGracefullyOnSIGTERM() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            let (process, port, err) = try await Self.startServe(
                "serve", "--port", "0", "--allow-unsigned", "--allow-private-networks",
                "--directory", directory.path, "--name", "kf-serve-process-test")
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            let path = try await ProcessRun.kf(
                "url", origin.url("/image/photo_baseline_420.jpg").absoluteString,
                "--processor", "resize(24x24,none)", "--format", "png")
            #expect(path.status == 0)
            let response = try await client.execute(
                HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path.stdout.trimmingCharacters(in: .newlines))"),
                timeout: .seconds(60))
            #expect(response.status.code == 200)
            #expect(response.headers.first(name: "Content-Type") == "image/png")
            _ = try await response.body.collect(upTo: 1 << 20)
            try await client.shutdown()
            let (status, log) = try await Self.stop(process, err)
            #expect(status == 0, "\(log)")
            #expect(process.terminationReason == .exit)
            // One access line per request.
            #expect(log.split(separator: "\n").filter { $0.contains("GET /unsafe/") && $0.contains("status=200") }.count == 1, "\(log)")
        }
    }

    /// `--key` is repeatable: `kf url` paths signed with any of the keys are served, others are
    /// refused, and an expired one is refused with its reason.
    @Test func serveTakesSeveralKeysAndRefusesExpiredURLs() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            let (process, port, err) = try await Self.startServe(
                "serve", "--port", "0", "--key", "new", "--key", "old", "--allow-private-networks",
                "--directory", directory.path, "--name", "kf-serve-keys-test")
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            let source = origin.url("/image/photo_baseline_420.jpg").absoluteString
            var statuses: [String: UInt] = [:]
            for (name, arguments) in [
                ("new", ["--key", "new"]), ("old", ["--key", "old"]), ("other", ["--key", "other"]),
                ("expired", ["--key", "old", "--expires-at", "1000"]), ("expiring", ["--key", "new", "--expires", "300"]),
            ] {
                let path = try await ProcessRun.run(
                    BuiltExecutable.kf.path, ["url", source, "--processor", "resize(24x24,none)", "--format", "png"] + arguments)
                let response = try await client.execute(
                    HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path.stdout.trimmingCharacters(in: .newlines))"),
                    timeout: .seconds(60))
                statuses[name] = response.status.code
                let body = try await response.body.collect(upTo: 1 << 20)
                if name == "expired" {
                    #expect(String(buffer: body).hasPrefix("the URL expired at 1970-01-01T00:16:40Z"), "\(String(buffer: body))")
                }
            }
            try await client.shutdown()
            _ = try await Self.stop(process, err)
            #expect(statuses == ["new": 200, "old": 200, "other": 403, "expired": 403, "expiring": 200])
        }
    }

    /// On a full disk every result is still served (from memory), and the log says so once a
    /// minute, not once per request.
    @Test(.enabled(if: MountNamespace.isAvailable, "needs unshare with user namespaces (util-linux)"))
    func aFullDiskWarnsOnceNotPerRequest() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            // A 24 KB file system: the source (10 KB) and a result or two, then full.
            let script = "mount -t tmpfs -o size=24k kf-full \"$1\" && shift && exec \"$@\""
            let (process, port, err) = try await Self.startServe(
                executable: "/usr/bin/unshare",
                MountNamespace.arguments(
                    script,
                    [
                        directory.path, BuiltExecutable.kf.path, "serve", "--port", "0", "--allow-unsigned", "--allow-private-networks",
                        "--directory", directory.path, "--name", "full",
                    ]))
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            var statuses: [UInt] = []
            for side in 10..<40 {
                let path = ImageURLPath.make(
                    source: origin.url("/image/photo_baseline_420.jpg"), processing: "resize(\(side)x\(side),none)", format: .png,
                    signer: nil)
                let response = try await client.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)"), timeout: .seconds(60))
                statuses.append(response.status.code)
                _ = try await response.body.collect(upTo: 1 << 20)
            }
            try await client.shutdown()
            let (_, log) = try await Self.stop(process, err)
            #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
            let warnings = log.split(separator: "\n").filter { $0.contains("cannot keep the result") }
            #expect(warnings.count == 1, "\(warnings.count) warnings: \(log)")
            #expect(warnings.first?.contains("No space left on device") == true, "\(warnings)")
        }
    }

    /// Memory a burst of connections took is given back once they close: resident memory falls
    /// most of the way back to its idle size.
    @Test(
        .timeLimit(.minutes(2)),
        .disabled(if: SanitizerAllowance.isActive, "a sanitizer's allocator keeps memory glibc's malloc_trim cannot give back")
    )
    func memoryTakenByABurstOfConnectionsIsGivenBack() async throws {
        try await withTemporaryDirectory { directory in
            let (process, port, err) = try await Self.startServe(
                "serve", "--port", "0", "--allow-unsigned", "--directory", directory.path, "--name", "burst")
            let pid = process.processIdentifier
            @Sendable func residentMB() throws -> Int {
                let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
                let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
                return (Int(line.split(separator: " ")[1]) ?? 0) / 1024
            }
            func metrics() async throws -> String {
                try await offThePool { () -> String in
                    let socket = try LoopbackSocket(port: port)
                    defer { socket.close() }
                    try socket.send("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    return socket.receiveUntilClosed(timeout: 60).text
                }
            }
            _ = try await metrics()
            let idle = try residentMB()
            // Its log is read as it is written (each request logs a line, and a full pipe would
            // stop the service); the release, a second after the connections closed, says so.
            let release = Task {
                try await offThePool { () -> Bool in
                    var line: [UInt8] = []
                    while let byte = try err.fileHandleForReading.read(upToCount: 1)?.first {
                        if byte != 0x0A {
                            line.append(byte)
                        } else if String(decoding: line, as: UTF8.self).contains("gave the memory of a burst") {
                            return true
                        } else {
                            line = []
                        }
                    }
                    return false
                }
            }
            // A thousand connections, each answered (so each is open in the service), then closed.
            let peak = try await offThePool { () -> Int in
                let sockets = try (0..<1000).map { _ in
                    let socket = try LoopbackSocket(port: port)
                    try socket.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    return socket
                }
                for socket in sockets { _ = socket.receive(upTo: 1, timeout: 60) }
                let peak = try residentMB()
                for socket in sockets { socket.close() }
                return peak
            }
            let released = try await release.value
            #expect(released)
            let count = try await metrics().split(separator: "\n").first { $0.hasPrefix("kf_memory_releases_total ") }
            #expect(count.flatMap { Int($0.split(separator: " ")[1]) }.map { $0 >= 1 } == true, "\(String(describing: count))")
            let after = try residentMB()
            _ = try await Self.stop(process, err)
            // Most of what the burst took is back (the rest: what its requests warmed up).
            #expect(peak - idle >= 8, "the burst took \(peak - idle) MB: too little to tell")
            #expect(after - idle <= (peak - idle) / 2, "idle \(idle) MB, \(peak) MB at the burst's peak, \(after) MB after it")
        }
    }

    /// Starts `kf serve` (or `executable` running it) and reads the port from its first line.
    static func startServe(
        executable: String = BuiltExecutable.kf.path, _ arguments: String...
    ) async throws -> (Process, Int, Pipe) {
        try await startServe(executable: executable, arguments)
    }

    static func startServe(executable: String, _ arguments: [String]) async throws -> (Process, Int, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // The first line says where it listens; read it off the cooperative pool.
        let line = try await offThePool { () -> String in
            var bytes: [UInt8] = []
            while let byte = try out.fileHandleForReading.read(upToCount: 1)?.first, byte != 0x0A { bytes.append(byte) }
            return String(decoding: bytes, as: UTF8.self)
        }
        #expect(line.hasPrefix("kf serve: listening on http://127.0.0.1:"), "\(line)")
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0.filter(\.isNumber)) }, "\(line)")
        return (process, port, err)
    }

    /// Stops a `kf serve` process with SIGTERM: its exit status and its log.
    static func stop(_ process: Process, _ err: Pipe) async throws -> (Int32, String) {
        kill(process.processIdentifier, SIGTERM)
        let status = try await offThePool { () -> Int32 in
            process.waitUntilExit()
            return process.terminationStatus
        }
        return (status, String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    @Test func serveRefusesToStartWithoutAKeyOrAllowUnsigned() async throws {
        let run = try await ProcessRun.kf("serve", "--port", "0")
        #expect(run.status == 64)
        #expect(run.stderr == "kf: error: either a signing key (--key) or --allow-unsigned is required\n")
    }

    @Test func serveSaysWhenItsPortIsTaken() async throws {
        try await withTemporaryDirectory { directory in
            try await withImageService(testServiceConfiguration(directory: directory), reach: .socket) { service in
                let run = try await ProcessRun.kf("serve", "--port", "\(service.port)", "--allow-unsigned", "--directory", directory.path)
                #expect(run.status == 69)
                #expect(run.stderr == "kf: error: cannot listen on 127.0.0.1:\(service.port): Address already in use\n")
            }
        }
    }

    @Test func serveReportsABadConfigFile() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("serve.json")
            try Data(#"{"allowUnsigned": true, "queueLimt": 5}"#.utf8).write(to: file)
            let run = try await ProcessRun.kf("serve", "--config", file.path)
            #expect(run.status != 0)
            #expect(run.stderr.contains("unknown setting 'queueLimt'"), "\(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1)
        }
    }

    @Test func configFileTakesSeveralKeysOrOne() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("serve.json")
            try Data(#"{"keys": ["new", "old"]}"#.utf8).write(to: file)
            #expect(try ImageServerConfiguration.load(file: file.path).keys == ["new", "old"])
            try Data(#"{"key": "only"}"#.utf8).write(to: file)
            #expect(try ImageServerConfiguration.load(file: file.path).keys == ["only"])
        }
    }

    @Test func configFileKeepsDefaultsForMissingKeysAndFlagsWin() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("serve.json")
            try Data(#"{"key": "abc", "queueLimit": 5, "allowedSources": ["https://img.example.com/"]}"#.utf8).write(to: file)
            let loaded = try ImageServerConfiguration.load(file: file.path)
            #expect(loaded.key == "abc")
            #expect(loaded.queueLimit == 5)
            #expect(loaded.allowedSources == ["https://img.example.com/"])
            #expect(loaded.maxAge == ImageServerConfiguration().maxAge)
            try Data(#"{"queueLimit": "five"}"#.utf8).write(to: file)
            #expect(throws: ConfigurationError.self) { try ImageServerConfiguration.load(file: file.path) }
            var unusable = ImageServerConfiguration()
            unusable.allowUnsigned = true
            unusable.clientIdleTimeout = .infinity
            #expect(throws: ConfigurationError.self) { try unusable.validate() }
            unusable.clientIdleTimeout = 30
            unusable.diskCacheBytes = -1
            #expect(throws: ConfigurationError.self) { try unusable.validate() }
        }
    }

    @Test func urlPrintsSignedAndUnsafePaths() async throws {
        let unsafe = try await ProcessRun.kf(
            "url", "https://example.com/a.jpg", "--processor", "resize(300x200,fill)|>round(8)", "--format", "webp")
        #expect(unsafe.stdout == "/unsafe/resize(300x200,fill)%7C%3Eround(8)/aHR0cHM6Ly9leGFtcGxlLmNvbS9hLmpwZw.webp\n")
        let signed = try await ProcessRun.kf("url", "https://example.com/a.jpg", "--key", "secret")
        let parts = signed.stdout.trimmingCharacters(in: .newlines).split(separator: "/", maxSplits: 1)
        #expect(parts.count == 2)
        #expect(URLSigner(key: "secret").isValid(signature: parts[0], forPath: "/" + parts[1]))
        #expect(parts[1] == "-/aHR0cHM6Ly9leGFtcGxlLmNvbS9hLmpwZw")
        let emptyKey = try await ProcessRun.kf("url", "https://example.com/a.jpg", "--key", "")
        #expect(emptyKey.stdout.hasPrefix("/unsafe/"), "an empty key is no key, as for kf serve")
        let noHost = try await ProcessRun.kf("url", "http:///a.jpg")
        #expect(noHost.status == 64)
    }

    @Test func urlMakesPathsThatExpireInsideWhatIsSigned() async throws {
        let before = Int64(Date().timeIntervalSince1970)
        let run = try await ProcessRun.kf(
            "url", "https://example.com/a.jpg", "--processor", "round(8)", "--key", "secret", "--expires", "600")
        let after = Int64(Date().timeIntervalSince1970)
        let parts = run.stdout.trimmingCharacters(in: .newlines).split(separator: "/", maxSplits: 1)
        #expect(parts.count == 2)
        #expect(URLSigner(key: "secret").isValid(signature: parts[0], forPath: "/" + parts[1]))
        let decoded = try ImageURLPath(path: Substring(run.stdout.trimmingCharacters(in: .newlines))).decoded()
        let expires = try #require(decoded.expires.map { Int64($0.timeIntervalSince1970) })
        #expect((before + 600...after + 600).contains(expires))
        #expect(decoded.processing == "round(8)")
        let at = try await ProcessRun.kf("url", "https://example.com/a.jpg", "--expires-at", "1767225600")
        #expect(at.stdout == "/unsafe/expires(1767225600)/aHR0cHM6Ly9leGFtcGxlLmNvbS9hLmpwZw\n")
        let both = try await ProcessRun.kf("url", "https://example.com/a.jpg", "--expires", "5", "--expires-at", "1767225600")
        #expect(both.status == 64)
    }
}
