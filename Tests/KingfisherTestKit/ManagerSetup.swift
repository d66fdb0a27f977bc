// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

@testable import Kingfisher

/// A manager with its own downloader and a cache in a fresh directory, against the loopback
/// server.
package struct ManagerSetup {
    package let server: TestHTTPServer
    package let directory: URL
    package let cache: ImageCache
    package let manager: KingfisherManager
}

/// Runs `body` with the loopback server and a manager (its downloader and cache named `name`)
/// caching in a temporary directory; both are gone afterwards.
package func withManagerSetup(
    name: String, isolation: isolated (any Actor)? = #isolation,
    _ body: (ManagerSetup) async throws -> Void
) async throws {
    try await withTestHTTPServerAndDirectory { server, directory in
        let cache = try ImageCache(name: name, cacheDirectoryURL: directory)
        let manager = KingfisherManager(downloader: ImageDownloader(name: name), cache: cache)
        try await body(ManagerSetup(server: server, directory: directory, cache: cache, manager: manager))
    }
}
