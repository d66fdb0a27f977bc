// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import ArgumentParser
import Foundation
import Kingfisher

/// `kf prefetch`: ImagePrefetcher over many URLs, with live progress.
struct PrefetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prefetch",
        abstract: "Download many images into the cache (skipping cached ones), a few at a time.",
        discussion: """
            Sources come from the arguments and/or --input (one per line; '-' reads standard \
            input). Shows a progress bar on a terminal, one line a second otherwise, then \
            'completed N, skipped N, failed N' and each failure with its reason (with --json, one \
            JSON object instead). Exits 0 only if nothing failed (69 otherwise).
            """
    )

    @Argument(help: "URLs (or file paths, or data: URLs) to prefetch.")
    var sources: [String] = []

    @Option(help: "A file with one source per line, or '-' for standard input.")
    var input: String?

    @Option(help: "Images loaded at once.")
    var concurrency = 5

    @Flag(help: "Print JSON with the keys completed, skipped (lists of sources) and failed (a list of {source, reason}).")
    var json = false

    @OptionGroup var retrieval: RetrievalOptions

    /// What `kf prefetch --json` prints.
    struct Report: Encodable {
        struct Failure: Encodable {
            var source: String
            var reason: String
        }

        var completed: [String]
        var skipped: [String]
        var failed: [Failure]
    }

    func validate() throws {
        guard concurrency > 0 else { throw ValidationError("--concurrency must be positive") }
        if sources.isEmpty && input == nil { throw ValidationError("give sources as arguments or with --input") }
    }

    func run() async throws {
        var lines = sources
        if let input {
            let data = input == "-" ? FileHandle.standardInput.readDataToEndOfFile() : readInput(input)
            lines += String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        }
        let cache = retrieval.openCache()
        let printer = ProgressPrinter(total: lines.count, live: isatty(STDERR_FILENO) == 1)
        let prefetcher = ImagePrefetcher(
            sources: lines.map(imageSource(from:)), options: try retrieval.options(cache: cache),
            progressBlock: { skipped, failed, completed in
                printer.update(done: skipped.count + failed.count + completed.count)
            })
        prefetcher.maxConcurrentDownloads = concurrency
        let summary = await prefetcher.run()
        printer.finish()
        let failures = zip(summary.failed, summary.failureReasons).map { source, reason in
            let name = Self.name(source)
            return Report.Failure(
                source: name, reason: reason.map { failureLine($0, source: name) } ?? "\(name): stopped before it started")
        }
        if json {
            try printJSON(Report(completed: summary.completed.map(Self.name), skipped: summary.skipped.map(Self.name), failed: failures))
        } else {
            for failure in failures.prefix(20) { FileHandle.standardError.write(Data("failed: \(failure.reason)\n".utf8)) }
            if failures.count > 20 { FileHandle.standardError.write(Data("… and \(failures.count - 20) more\n".utf8)) }
            print("completed \(summary.completed.count), skipped \(summary.skipped.count), failed \(summary.failed.count)")
        }
        if !summary.failed.isEmpty { throw ExitCode(ExitStatus.unavailable) }
    }

    /// How a source is named in the output: its URL, or its cache key for a provider.
    private static func name(_ source: Source) -> String {
        source.url?.absoluteString ?? source.cacheKey
    }
}

/// Prints prefetch progress on standard error: a redrawn bar (count, rate, ETA) on a terminal,
/// else a plain line at most once a second.
final class ProgressPrinter: Sendable {
    private struct State {
        var lastPrint: ContinuousClock.Instant?
        var done = 0
        var finished = false
    }

    private let state = Locked(State())
    private let total: Int
    private let live: Bool
    private let start = ContinuousClock.now

    init(total: Int, live: Bool) {
        self.total = total
        self.live = live
    }

    func update(done: Int) {
        // Printing under the lock keeps lines whole and in order.
        state.withLock { state in
            guard !state.finished else { return }
            state.done = max(state.done, done)
            let now = ContinuousClock.now
            let interval: Duration = live ? .milliseconds(100) : .seconds(1)
            if let lastPrint = state.lastPrint, now - lastPrint < interval, state.done < total { return }
            state.lastPrint = now
            write(line(done: state.done, now: now))
        }
    }

    func finish() {
        state.withLock { state in
            state.finished = true
            if live { write(line(done: state.done, now: .now) + "\n") }
        }
    }

    private func line(done: Int, now: ContinuousClock.Instant) -> String {
        let seconds = max((now - start).seconds, 0.001)
        let rate = Double(done) / seconds
        let eta = rate > 0 ? Int((Double(total - done) / rate).rounded(.up)) : 0
        let text = "\(done)/\(total)  \(String(format: "%.1f", rate))/s  ETA \(eta)s"
        guard live else { return text + "\n" }
        let width = 30
        let filled = total > 0 ? width * done / total : width
        return "\r[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] " + text + "\u{1B}[K"
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
