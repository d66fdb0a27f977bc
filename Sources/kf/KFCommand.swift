import ArgumentParser
import Foundation
import Kingfisher

/// `kf`: Kingfisher for Linux on the command line.
@main
struct KFCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kf",
        abstract: "Kingfisher for Linux: fetch, cache, inspect, process and encode images.",
        subcommands: [Get.self, Prefetch.self, Info.self, Process.self, CacheCommand.self]
    )
}

/// Exit status for input that was refused (not an image, corrupted, too large): EX_DATAERR.
let refusedInputStatus: Int32 = 65

/// Prints one line on standard error and exits with `status`.
func exitWithError(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("kf: error: \(message)\n".utf8))
    exit(status)
}

/// Reads a whole file, or exits with EX_NOINPUT (66).
func readInput(_ path: String) -> Data {
    guard let data = FileManager.default.contents(atPath: path) else {
        exitWithError("cannot read \(path)", status: 66)
    }
    return data
}
