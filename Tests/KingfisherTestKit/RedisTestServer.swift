// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

@testable import Kingfisher
@testable import KingfisherRedis

/// A real redis-server (the Debian package; `scripts/test.sh` installs it) on 127.0.0.1 with a
/// free port, no persistence, its directory a temporary one. It can be stopped and started again
/// on the same port, as a restarted Redis is.
package final class RedisTestServer: Sendable {
    package let port: Int
    package let directory: URL
    private let process: Locked<Process?> = Locked(nil)
    private let logged = Locked("")

    package struct DidNotStart: Error, CustomStringConvertible {
        package var description: String
    }

    package init(directory: URL) async throws {
        self.directory = directory
        port = try await freeLoopbackPort()
        try await start()
    }

    /// `redis://127.0.0.1:PORT`.
    package var url: URL { URL(string: "redis://127.0.0.1:\(port)")! }

    /// A client configuration for this server with short timeouts, so that tests of failures
    /// take little time.
    package var clientConfiguration: RedisClient.Configuration {
        var configuration = try! RedisClient.Configuration(url: url)
        configuration.commandTimeout = .milliseconds(Int64(1000 * SanitizerAllowance.time))
        configuration.connectTimeout = .milliseconds(Int64(500 * SanitizerAllowance.time))
        configuration.retryInterval = .milliseconds(200)
        return configuration
    }

    /// Starts the server (again) and waits until its log says it accepts connections.
    package func start() async throws {
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/redis-server")
        // The log goes to standard output, which is read as it comes: the ready line is the event
        // waited for, and the end of the output says the server exited.
        server.arguments = [
            "--port", "\(port)", "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
            "--dir", directory.path, "--logfile", "",
        ]
        let output = Pipe()
        server.standardOutput = output
        server.standardError = FileHandle.nullDevice
        try server.run()
        process.withLock { $0 = server }
        let logged = self.logged
        let ready = try await offThePool { () -> Bool in
            var thisStart = ""
            while true {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { return false }
                let text = String(decoding: chunk, as: UTF8.self)
                logged.withLock { $0 += text }
                thisStart += text
                if thisStart.contains("Ready to accept connections") { return true }
            }
        }
        guard ready else { throw DidNotStart(description: "redis-server exited: \(log)") }
        // The rest of the log is kept too, so that the pipe never fills and stops the server.
        DispatchQueue.global(qos: .utility).async {
            while case let chunk = output.fileHandleForReading.availableData, !chunk.isEmpty {
                logged.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
            }
        }
    }

    /// Stops the server (`SHUTDOWN NOSAVE`, or SIGKILL to kill it the way a crash does) and
    /// waits. Not SIGTERM: a test process may have inherited it ignored, and so would Redis.
    package func stop(killing: Bool = false) async {
        guard let server = process.withLock({ $0 }), server.isRunning else { return }
        var stopped = false
        if !killing { stopped = (try? await cli("SHUTDOWN", "NOSAVE")) != nil }
        if !stopped { kill(server.processIdentifier, SIGKILL) }
        _ = try? await offThePool { server.waitUntilExit() }
    }

    /// Runs `redis-cli` against the server.
    @discardableResult
    package func cli(_ arguments: String...) async throws -> ProcessRun {
        try await ProcessRun.run("/usr/bin/redis-cli", ["-h", "127.0.0.1", "-p", "\(port)"] + arguments)
    }

    /// What the server logged, every start.
    package var log: String { logged.withLock { $0 } }
}

/// Runs `body` with a fresh ``RedisTestServer`` and stops it afterwards, also when `body` throws.
package func withRedis<T>(isolation: isolated (any Actor)? = #isolation, _ body: (RedisTestServer) async throws -> T) async throws -> T {
    try await withTemporaryDirectory { directory in
        let server = try await RedisTestServer(directory: directory)
        return try await run({ try await body(server) }, thenCleanUp: { await server.stop(killing: true) })
    }
}
