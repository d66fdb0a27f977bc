// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Runs `body` with a fresh, empty directory under the system's temporary directory, and removes
/// the directory and everything in it afterwards, also when `body` throws.
package func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let directory = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(directory) }
    return try body(directory)
}

/// The async form: runs `body` in the caller's isolation with a fresh directory, removed
/// afterwards, also when `body` throws or the task is cancelled.
package func withTemporaryDirectory<T>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (URL) async throws -> T
) async throws -> T {
    let directory = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(directory) }
    return try await body(directory)
}

private func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("kf-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

private func removeTemporaryDirectory(_ url: URL) {
    try? FileManager.default.removeItem(at: url)
}
