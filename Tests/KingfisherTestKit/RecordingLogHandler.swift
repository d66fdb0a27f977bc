// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Logging

@testable import KingfisherImaging

/// A swift-log handler that keeps every message, for tests that check what was logged.
package struct RecordingLogHandler: LogHandler {
    /// The messages logged through any logger made from ``logger(label:)``, in order.
    package final class Lines: Sendable {
        /// No lines yet.
        package init() {}

        private let lines = Locked<[(Logger.Level, String)]>([])

        package func append(_ level: Logger.Level, _ message: String) { lines.withLock { $0.append((level, message)) } }
        package var all: [(level: Logger.Level, message: String)] { lines.withLock { $0.map { (level: $0.0, message: $0.1) } } }
        package var messages: [String] { all.map(\.message) }

        /// A logger at `trace` level whose messages go here.
        package func logger(label: String = "test") -> Logger {
            Logger(label: label) { _ in RecordingLogHandler(lines: self) }
        }
    }

    package let lines: Lines
    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level = .trace

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        lines.append(event.level, "\(event.message)")
    }
}
