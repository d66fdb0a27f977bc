// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import NIOCore
import NIOPosix

/// A real tinyproxy (the Debian package, `scripts/install-deps.sh` installs it) on 127.0.0.1 with
/// a free port, its configuration and log in a temporary directory. By default it allows
/// `CONNECT` to any port (no `ConnectPort` line), so https tests can tunnel to a test server; it
/// logs each request line, so tests read in ``log`` which requests went through it, and how.
package final class Tinyproxy: Sendable {
    package let port: Int
    private let process: Process
    private let logFile: URL

    /// The proxy URL, with `credentials` ("user:password") when given.
    package func url(credentials: String? = nil) -> URL {
        URL(string: "http://\(credentials.map { "\($0)@" } ?? "")127.0.0.1:\(port)")!
    }

    package struct DidNotStart: Error, CustomStringConvertible {
        package var description: String
    }

    /// Starts tinyproxy in the foreground in `directory`; with `basicAuth` ("user password") it
    /// requires those credentials; with `connectPorts` it opens tunnels only to those ports (as
    /// `ConnectPort 443` does in tinyproxy's and squid's stock setups). A port found free can be taken by another test's listener
    /// before tinyproxy binds it (tinyproxy then exits): it is started again on another port.
    package init(directory: URL, basicAuth: String? = nil, connectPorts: [Int] = []) async throws {
        logFile = directory.appendingPathComponent("tinyproxy.log")
        let watch = try DirectoryWatch(directory)
        for attempt in 1... {
            let port = try await freeLoopbackPort()
            let configuration = directory.appendingPathComponent("tinyproxy.conf")
            var lines = [
                "Port \(port)", "Listen 127.0.0.1", "Timeout 60", "MaxClients 32", "LogLevel Info",
                "LogFile \"\(logFile.path)\"", "PidFile \"\(directory.appendingPathComponent("tinyproxy.pid").path)\"",
            ]
            if let basicAuth { lines.append("BasicAuth \(basicAuth)") }
            lines += connectPorts.map { "ConnectPort \($0)" }
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: configuration)
            try? FileManager.default.removeItem(at: logFile)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/tinyproxy")
            process.arguments = ["-d", "-c", configuration.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            if try await Self.waitUntilAccepting(process, log: logFile, watch: watch) {
                self.port = port
                self.process = process
                return
            }
            guard attempt < 5 else {
                throw DidNotStart(
                    description: "tinyproxy exited 5 times before listening: \((try? String(contentsOf: logFile, encoding: .utf8)) ?? "")")
            }
        }
        fatalError("unreachable")
    }

    /// The log so far: tinyproxy writes a request's line before it connects onwards, so once a
    /// response came the line is there.
    package var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    /// Whether the log shows a tunnel to 127.0.0.1:`port`.
    package func tunnelled(toPort port: Int) -> Bool { log.contains("CONNECT 127.0.0.1:\(port) ") }

    /// Whether the log shows a plain http request to 127.0.0.1:`port` sent in absolute form.
    package func forwarded(toPort port: Int) -> Bool { log.contains("GET http://127.0.0.1:\(port)/") }

    /// Whether anything, tunnelled or forwarded, went through to 127.0.0.1:`port`.
    package func carried(toPort port: Int) -> Bool { tunnelled(toPort: port) || forwarded(toPort: port) }

    /// Stops the proxy (its own process only) and waits for it to exit. SIGKILL, because
    /// tinyproxy notices SIGTERM only when its next connection arrives.
    package func stop() async {
        kill(process.processIdentifier, SIGKILL)
        _ = try? await offThePool { [process] in process.waitUntilExit() }
    }

    /// Waits until tinyproxy's log says it accepts connections (a connection alone could reach
    /// another listener that took the port): `true`; `false` when it exited first. Each look at
    /// the log follows a change in its directory; a quiet 200 ms only makes it check that the
    /// process still runs.
    private static func waitUntilAccepting(_ process: Process, log: URL, watch: DirectoryWatch) async throws -> Bool {
        try await offThePool {
            // A bound for a machine so slow that nothing else would tell: not a measured wait.
            let deadline = ContinuousClock.now.advanced(by: .seconds(60))
            while ContinuousClock.now < deadline {
                if let text = try? String(contentsOf: log, encoding: .utf8), text.contains("Accepting connections") {
                    return process.isRunning
                }
                guard process.isRunning else { return false }
                _ = watch.waitForChange(upTo: 200)
            }
            throw DidNotStart(description: "tinyproxy does not accept connections after 60 s")
        }
    }
}

/// Runs `body` with a fresh ``Tinyproxy`` (see its initializer for `basicAuth`) and stops it
/// afterwards, also when `body` throws.
package func withTinyproxy<T>(
    basicAuth: String? = nil, connectPorts: [Int] = [], isolation: isolated (any Actor)? = #isolation,
    _ body: (Tinyproxy) async throws -> T
) async throws -> T {
    try await withTemporaryDirectory { directory in
        let proxy = try await Tinyproxy(directory: directory, basicAuth: basicAuth, connectPorts: connectPorts)
        return try await run({ try await body(proxy) }, thenCleanUp: { await proxy.stop() })
    }
}
