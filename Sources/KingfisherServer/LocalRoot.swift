// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// The directory `local:///path` sources are read from (`--local-root DIR`): a path is taken
/// under it, resolved with every symbolic link followed, and refused unless what it names is a
/// regular file still under the directory, so neither `..` nor a link leads out of it.
struct LocalRoot: Sendable {
    /// The scheme of local sources.
    static let scheme = "local"

    /// The directory, resolved.
    let directory: String

    /// The root at `path`, resolved.
    ///
    /// - Throws: a one-line error when `path` is not a directory.
    init(_ path: String) throws(ConfigurationError) {
        var isDirectory: ObjCBool = false
        guard let resolved = realpath(path, nil) else {
            throw ConfigurationError(description: "the local root \(path) cannot be used: \(String(cString: strerror(errno)))")
        }
        defer { free(resolved) }
        directory = String(cString: resolved)
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ConfigurationError(description: "the local root \(path) is not a directory")
        }
    }

    /// The file a `local:///path` source names, resolved.
    ///
    /// - Throws: ``SourcePolicy/Refusal`` saying why it is not served.
    func file(for source: URL) throws(SourcePolicy.Refusal) -> URL {
        let text = source.absoluteString.prefix(200)
        let path = source.path
        guard !path.isEmpty, !path.contains("\0") else { throw SourcePolicy.Refusal(description: "the source \(text) names no file") }
        guard let resolved = realpath(directory + "/" + path, nil) else {
            throw SourcePolicy.Refusal(description: "the source \(text) cannot be read: \(String(cString: strerror(errno)))")
        }
        defer { free(resolved) }
        let file = String(cString: resolved)
        guard file.hasPrefix(directory + "/") else {
            throw SourcePolicy.Refusal(description: "the source \(text) leads outside the local root")
        }
        var status = stat()
        guard stat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw SourcePolicy.Refusal(description: "the source \(text) is not a regular file")
        }
        return URL(fileURLWithPath: file)
    }
}
