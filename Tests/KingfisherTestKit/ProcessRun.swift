// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// The executables built next to the test bundle: `kf` and `KingfisherCacheStress`.
package enum BuiltExecutable {
    /// The build products directory.
    package static var directory: URL {
        // The test bundle sits in the build products directory, next to `kf`.
        let bundle = Bundle.main.bundleURL
        if FileManager.default.fileExists(atPath: bundle.appendingPathComponent("kf").path) { return bundle }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    package static var kf: URL { directory.appendingPathComponent("kf") }
    package static var cacheStress: URL { directory.appendingPathComponent("KingfisherCacheStress") }
}

/// A finished process: its exit status, output and running time.
///
/// Tests wait for processes on a thread of their own, never on one of the few cooperative threads
/// (as many as cores) that every other test's awaits need: a test blocked on a slow process, as
/// under a sanitizer, would stall the whole run. At most one process per core runs at a time
/// through ``run(_:_:)``, so that parallel tests do not crowd the machine with processes.
package struct ProcessRun: Sendable {
    package var status: Int32
    package var stdout: String
    package var stderr: String
    /// From launch to exit.
    package var elapsed: Duration

    private static let slots = DispatchSemaphore(value: max(2, ProcessInfo.processInfo.activeProcessorCount))

    /// Runs `executable` with `arguments` once a slot is free, and waits for it to exit.
    package static func run(_ executable: String, _ arguments: [String]) async throws -> ProcessRun {
        try await offThePool {
            slots.wait()
            defer { slots.signal() }
            return try runBlocking(executable, arguments)
        }
    }

    /// Runs `kf` with `arguments`.
    package static func kf(_ arguments: String...) async throws -> ProcessRun {
        try await run(BuiltExecutable.kf.path, arguments)
    }

    /// Runs `executable` at once and blocks the calling thread until it exits: for code that
    /// cannot await (a static initializer), or on a dispatch thread (``offThePool(_:)``) for
    /// processes that must run together.
    package static func runBlocking(_ executable: String, _ arguments: [String]) throws -> ProcessRun {
        let start = ContinuousClock.now
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Both pipes are read at once: read one after the other, a process that fills the
        // second's buffer (64 KiB of warnings) before closing the first would wait forever.
        let stderrRead = PipeDrain(err.fileHandleForReading)
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = stderrRead.wait()
        process.waitUntilExit()
        return ProcessRun(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self), elapsed: ContinuousClock.now - start)
    }

    /// Standard output that is not a JSON object.
    package struct NotAJSONObject: Error {
        package var output: String
    }

    /// The standard output parsed as a JSON object.
    package func json() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any] else {
            throw NotAJSONObject(output: stdout)
        }
        return object
    }
}

/// Reads a pipe to its end on a thread of its own.
private final class PipeDrain: @unchecked Sendable {
    // Written by the reading thread before `done` is signalled, read after waiting for it.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }.start()
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}

/// Runs blocking `work` (waiting for a process) on a thread of its own, and returns its result.
///
/// Not on libdispatch's global queues either: their threads also run the in-process services'
/// processing, caching and encoding queues. Two Chromium runs waited on them for a page of the
/// in-process service, which then had no thread to answer with until Chromium's 300 s limit.
package func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

/// Runs CPU-heavy `work` (a large decode) on libdispatch's global queue and returns its result:
/// off the cooperative pool, and, unlike ``offThePool(_:)``, never more of it at once than the
/// pool has threads, so the cooperative threads keep their share of the cores.
package func onWorkQueue<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
    }
}
