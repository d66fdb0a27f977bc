// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Runs `body` with a fresh ``TestHTTPServer`` (HTTPS with `tls`), in the caller's isolation,
/// and shuts the server down afterwards, also when `body` throws or the task is cancelled (the
/// certificate's temporary files are already gone once the server runs).
package func withTestHTTPServer<T>(
    tls: Bool = false, isolation: isolated (any Actor)? = #isolation,
    _ body: (TestHTTPServer) async throws -> T
) async throws -> T {
    let server = try await TestHTTPServer(tls: tls)
    let result: Result<T, any Error>
    do {
        result = .success(try await body(server))
    } catch {
        result = .failure(error)
    }
    await server.shutdown()
    return try result.get()
}

/// Runs `body` with a fresh ``TestHTTPServer`` and a fresh temporary directory (for a cache, or
/// a command's files); shuts the server down and removes the directory afterwards, also when
/// `body` throws.
package func withTestHTTPServerAndDirectory<T>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (TestHTTPServer, URL) async throws -> T
) async throws -> T {
    try await withTestHTTPServer { server in
        try await withTemporaryDirectory { directory in try await body(server, directory) }
    }
}
