import Foundation
import NIOCore
import NIOPosix

/// A real tinyproxy (the Debian package, `scripts/install-deps.sh` installs it) on 127.0.0.1 with
/// a free port, its configuration and log in a temporary directory. It allows `CONNECT` to any
/// port (no `ConnectPort` line), which AsyncHTTPClient uses for every proxied request, and logs
/// each request line, so tests read in ``log`` which requests went through it.
final class Tinyproxy: Sendable {
    let port: Int
    private let process: Process
    private let logFile: URL

    /// The proxy URL, with `credentials` ("user:password") when given.
    func url(credentials: String? = nil) -> URL {
        URL(string: "http://\(credentials.map { "\($0)@" } ?? "")127.0.0.1:\(port)")!
    }

    struct DidNotStart: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts tinyproxy in the foreground in `directory`; with `basicAuth` ("user password") it
    /// requires those credentials.
    init(directory: URL, basicAuth: String? = nil) async throws {
        port = try await freeLoopbackPort()
        logFile = directory.appendingPathComponent("tinyproxy.log")
        let configuration = directory.appendingPathComponent("tinyproxy.conf")
        var lines = ["Port \(port)", "Listen 127.0.0.1", "Timeout 60", "MaxClients 32", "LogLevel Info",
                     "LogFile \"\(logFile.path)\"", "PidFile \"\(directory.appendingPathComponent("tinyproxy.pid").path)\""]
        if let basicAuth { lines.append("BasicAuth \(basicAuth)") }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: configuration)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/tinyproxy")
        process.arguments = ["-d", "-c", configuration.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try await waitUntilListening()
    }

    /// The log so far: tinyproxy writes a request's line before it connects onwards, so once a
    /// response came the line is there.
    var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    /// Whether the log shows a tunnel to 127.0.0.1:`port`.
    func tunnelled(toPort port: Int) -> Bool { log.contains("CONNECT 127.0.0.1:\(port) ") }

    /// Stops the proxy (its own process only) and waits for it to exit. SIGKILL, because
    /// tinyproxy notices SIGTERM only when its next connection arrives.
    func stop() async {
        kill(process.processIdentifier, SIGKILL)
        _ = try? await offThePool { [process] in process.waitUntilExit() }
    }

    /// Tries to connect until tinyproxy accepts (it binds right after starting); gives up when it
    /// exited, or after many attempts.
    private func waitUntilListening() async throws {
        for _ in 0..<500 {
            guard process.isRunning else { throw DidNotStart(description: "tinyproxy exited: \(log)") }
            if let probe = try? await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(host: "127.0.0.1", port: port).get() {
                try? await probe.close()
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw DidNotStart(description: "tinyproxy does not listen on \(port): \(log)")
    }
}

/// Runs `body` with a fresh ``Tinyproxy`` (see its initializer for `basicAuth`) and stops it
/// afterwards, also when `body` throws.
func withTinyproxy<T>(basicAuth: String? = nil, isolation: isolated (any Actor)? = #isolation,
                      _ body: (Tinyproxy) async throws -> T) async throws -> T {
    try await withTemporaryDirectory { directory in
        let proxy = try await Tinyproxy(directory: directory, basicAuth: basicAuth)
        return try await run({ try await body(proxy) }, thenCleanUp: { await proxy.stop() })
    }
}
