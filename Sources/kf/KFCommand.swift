// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import ArgumentParser
import Foundation
import Kingfisher

/// `kf`: Kingfisher for Linux on the command line.
@main
struct KFCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kf",
        abstract: "Kingfisher for Linux: fetch, cache, inspect, process and encode images.",
        subcommands: [
            GetCommand.self, PrefetchCommand.self, InfoCommand.self, ProcessCommand.self, CacheCommand.self,
            ServeCommand.self, URLCommand.self,
        ]
    )
}

/// kf's exit statuses besides 0, 1 and ArgumentParser's 64 for bad usage: those of BSD's
/// sysexits.h, which scripts can test for.
enum ExitStatus {
    /// Input that was refused (not an image, corrupted, too large): EX_DATAERR.
    static let refusedInput: Int32 = 65
    /// A file that cannot be read, or an image not in the cache with --only-from-cache:
    /// EX_NOINPUT.
    static let noInput: Int32 = 66
    /// The network or a source failed: EX_UNAVAILABLE.
    static let unavailable: Int32 = 69
    /// An output file or the cache directory cannot be created or written: EX_CANTCREAT.
    static let cannotCreate: Int32 = 73
}

/// The one-line message for `error` loading `source`: most messages name the URL already, and
/// the source goes first only when they do not.
func failureLine(_ error: KingfisherError, source: String) -> String {
    error.description.contains(source) ? error.description : "\(source): \(error.description)"
}

/// Prints one line on standard error and exits with `status`.
func exitWithError(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("kf: error: \(message)\n".utf8))
    exit(status)
}

/// Reads a whole file, or exits with ``ExitStatus/noInput``.
func readInput(_ path: String) -> Data {
    guard let data = FileManager.default.contents(atPath: path) else {
        exitWithError("cannot read \(path)", status: ExitStatus.noInput)
    }
    return data
}

/// Writes `data` to `path` atomically, or exits with ``ExitStatus/cannotCreate``.
func writeOutput(_ data: Data, to path: String) {
    do {
        try AtomicFile.write(data, to: URL(fileURLWithPath: path))
    } catch {
        exitWithError("\(path): \(error)", status: ExitStatus.cannotCreate)
    }
}

/// Prints `value` as one line of JSON with sorted keys: the `--json` output of every command.
func printJSON(_ value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}
