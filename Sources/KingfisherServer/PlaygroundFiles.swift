// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Hummingbird
import Logging

/// The playground page's files (`Sources/KingfisherServer/Playground`: `index.html` and
/// `playground/` with its script and styles), served by Hummingbird's file middleware at `/`
/// and `/playground/…`.
enum PlaygroundFiles {
    /// The folder holding the files: SwiftPM's resource bundle beside the executable (where a
    /// build puts it, and where a copied `kf` must keep it), else the package's own folder (a
    /// binary run from the checkout it was built in); `nil` when neither has them.
    static let directory: String? = {
        let bundled = Bundle.main.bundleURL.appendingPathComponent("Kingfisher_KingfisherServer.resources/Playground").path
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Playground").path
        return [bundled, checkout].first { FileManager.default.fileExists(atPath: $0 + "/index.html") }
    }()

    /// Whether `path` is one of the page's files rather than an image URL.
    static func serves(_ path: Substring) -> Bool {
        path == "/" || (path.hasPrefix("/playground/") && path != "/playground/catalogue.json")
    }

    /// The file middleware over ``directory``; files are revalidated (`no-cache`) so that a new
    /// version of the service serves its new page.
    static func middleware(for directory: String) -> FileMiddleware<ImageServiceRequestContext, LocalFileSystem> {
        // Its own logger says where it serves from at `info`, on every start: not worth a line.
        var quiet = Logger(label: "com.kingfisher-linux.serve.playground")
        quiet.logLevel = .warning
        return FileMiddleware(
            directory, cacheControl: .init([(MediaType(type: .any), [.noCache])]), searchForIndexHtml: true, logger: quiet)
    }
}
