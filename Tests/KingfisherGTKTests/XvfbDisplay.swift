// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

/// An X server of a test's own: Xvfb (Debian's `xvfb`), on the first free display, with no TCP
/// listener. Xvfb says which display it took on its standard output once it accepts clients
/// (`-displayfd 1`), so nothing waits on a timer.
final class XvfbDisplay: Sendable {
    /// `:N`, for `DISPLAY`.
    let name: String
    private let process: Process

    private init(name: String, process: Process) {
        self.name = name
        self.process = process
    }

    /// Starts a server and waits until it is ready.
    static func start() async throws -> XvfbDisplay {
        guard let executable = ["/usr/bin/Xvfb", "/usr/local/bin/Xvfb"].first(where: FileManager.default.isExecutableFile)
        else {
            throw Failure("Xvfb is not installed: scripts/install-deps.sh xvfb")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-displayfd", "1", "-screen", "0", "1280x1024x24", "-nolisten", "tcp", "-noreset"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let line = try await offThePool { () -> String in
            var bytes: [UInt8] = []
            while let byte = try output.fileHandleForReading.read(upToCount: 1)?.first, byte != UInt8(ascii: "\n") {
                bytes.append(byte)
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        guard let number = Int(line) else {
            kill(process.processIdentifier, SIGKILL)
            throw Failure("Xvfb did not start (it said '\(line)')")
        }
        return XvfbDisplay(name: ":\(number)", process: process)
    }

    /// Stops the server. SIGKILL: processes started from the test run's threads inherit a
    /// signal mask that blocks SIGTERM.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Runs `executable` with `arguments` on this display, with GSK's cairo renderer (the
    /// screenshots are rendered by it too) and GL off (Xvfb has no GPU: GDK would load Mesa's
    /// software driver, 50 MB of it, and not use it), no accessibility bus, and `environment`
    /// (`NAME=value`). The run is killed after 300 s: with SIGKILL, since the probe inherits the
    /// test run's mask that blocks SIGTERM, `timeout`'s default.
    func run(_ executable: URL, _ arguments: [String], environment: [String] = []) async throws -> ProcessRun {
        try await ProcessRun.run(
            "/usr/bin/env",
            ["DISPLAY=\(name)", "GSK_RENDERER=cairo", "GDK_DEBUG=gl-disable", "GTK_A11Y=none", "NO_AT_BRIDGE=1"] + environment
                + ["timeout", "--signal=KILL", "300", executable.path] + arguments)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

/// Runs `body` with an X server that is stopped afterwards.
func withXvfb<T>(isolation: isolated (any Actor)? = #isolation, _ body: (XvfbDisplay) async throws -> T) async throws -> T {
    let display = try await XvfbDisplay.start()
    defer { display.stop() }
    return try await body(display)
}
