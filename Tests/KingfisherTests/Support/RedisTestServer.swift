// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

@testable import Kingfisher
@testable import KingfisherRedis

/// A real redis-server (the Debian package; `scripts/test.sh` installs it) on 127.0.0.1 with a
/// free port, no persistence, its directory a temporary one. It can be stopped and started again
/// on the same port, as a restarted Redis is.
final class RedisTestServer: Sendable {
    let port: Int
    let directory: URL
    private let process: Locked<Process?> = Locked(nil)

    struct DidNotStart: Error, CustomStringConvertible {
        var description: String
    }

    init(directory: URL) async throws {
        self.directory = directory
        port = try await freeLoopbackPort()
        try await start()
    }

    /// `redis://127.0.0.1:PORT`.
    var url: URL { URL(string: "redis://127.0.0.1:\(port)")! }

    /// A client configuration for this server with short timeouts, so that tests of failures
    /// take little time.
    var clientConfiguration: RedisClient.Configuration {
        var configuration = try! RedisClient.Configuration(url: url)
        configuration.commandTimeout = .milliseconds(Int64(1000 * SanitizerAllowance.time))
        configuration.retryInterval = .milliseconds(200)
        return configuration
    }

    /// Starts the server (again) and waits until it answers `PING`.
    func start() async throws {
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/redis-server")
        server.arguments = [
            "--port", "\(port)", "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
            "--dir", directory.path, "--logfile", directory.appendingPathComponent("redis.log").path,
        ]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        process.withLock { $0 = server }
        for _ in 0..<500 {
            guard server.isRunning else { throw DidNotStart(description: "redis-server exited: \(log)") }
            if (try? await cli("PING"))?.stdout.contains("PONG") == true { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw DidNotStart(description: "redis-server does not answer on \(port): \(log)")
    }

    /// Stops the server (`SHUTDOWN NOSAVE`, or SIGKILL to kill it the way a crash does) and
    /// waits. Not SIGTERM: a test process may have inherited it ignored, and so would Redis.
    func stop(killing: Bool = false) async {
        guard let server = process.withLock({ $0 }), server.isRunning else { return }
        var stopped = false
        if !killing { stopped = (try? await cli("SHUTDOWN", "NOSAVE")) != nil }
        if !stopped { kill(server.processIdentifier, SIGKILL) }
        _ = try? await offThePool { server.waitUntilExit() }
    }

    /// Runs `redis-cli` against the server.
    @discardableResult
    func cli(_ arguments: String...) async throws -> ProcessRun {
        try await ProcessRun.run("/usr/bin/redis-cli", ["-h", "127.0.0.1", "-p", "\(port)"] + arguments)
    }

    var log: String {
        (try? String(contentsOf: directory.appendingPathComponent("redis.log"), encoding: .utf8)) ?? ""
    }
}

/// Runs `body` with a fresh ``RedisTestServer`` and stops it afterwards, also when `body` throws.
func withRedis<T>(isolation: isolated (any Actor)? = #isolation, _ body: (RedisTestServer) async throws -> T) async throws -> T {
    try await withTemporaryDirectory { directory in
        let server = try await RedisTestServer(directory: directory)
        return try await run({ try await body(server) }, thenCleanUp: { await server.stop(killing: true) })
    }
}
