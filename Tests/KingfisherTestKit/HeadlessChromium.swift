// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Testing

/// Headless Chromium (Debian's `chromium`), for tests that must show a page works in a real
/// browser: it opens a URL, lets the page's scripts run, and hands back the DOM they left.
///
/// Each page is one browser process with a fresh profile in a temporary directory, run through
/// ``ProcessRun`` (waited for off the cooperative pool) under `timeout`, so a browser that hangs
/// fails its test instead of stalling the run.
package struct HeadlessChromium: Sendable {
    /// The browser's executable.
    package let executable: String

    /// How long one page may take from launch to exit: 5 minutes. Starting Chromium takes about
    /// a second alone, but far longer when the parallel suite, or a sanitizer run, has every core
    /// busy; the limit only turns a hang into a failure, within the suites' 10-minute limit.
    package static let wallClockLimit = 300

    /// The browser, or `nil` after recording an issue saying how to install it. Tests that need
    /// it fail rather than skip: the suite's scripts install it (scripts/test.sh and scripts/sanitize.sh).
    package static func require(sourceLocation: SourceLocation = #_sourceLocation) -> HeadlessChromium? {
        if let path = installedPath { return HeadlessChromium(executable: path) }
        Issue.record(
            "no chromium or chromium-browser on PATH: install it: scripts/install-deps.sh chromium",
            sourceLocation: sourceLocation)
        return nil
    }

    private static let installedPath: String? = {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for name in ["chromium", "chromium-browser"] {
            for directory in directories where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
                return "\(directory)/\(name)"
            }
        }
        return nil
    }()

    /// A browser run that did not end with a DOM.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// The DOM of `url` once its scripts have had `virtualTime` to run.
    ///
    /// The time is virtual: it stands still while a request is waiting for the network, so a slow
    /// service (a loaded machine, a sanitizer) leaves the page as much time as a fast one, and it
    /// jumps over idle stretches, so the page's timers cost no real time.
    package func dom(of url: String, virtualTime: Duration = .seconds(30)) async throws -> RenderedPage {
        try await withTemporaryDirectory { profile in
            let arguments = [
                "--kill-after=10", String(Self.wallClockLimit), executable,
                "--headless", "--no-sandbox", "--disable-gpu",
                // Containers give /dev/shm 64 MB, too little for Chromium's shared memory; the Debian
                // launcher's own check for that fails when findmnt prints several lines.
                "--disable-dev-shm-usage",
                // The pages under test are on 127.0.0.1: no proxy from the environment, nothing
                // fetched beyond them.
                "--no-proxy-server", "--disable-background-networking", "--disable-component-update",
                "--disable-extensions", "--disable-sync", "--no-first-run", "--no-default-browser-check",
                "--user-data-dir=\(profile.path)", "--window-size=1100,1000",
                "--virtual-time-budget=\(virtualTime.components.seconds * 1000)",
                "--dump-dom", url,
            ]
            let run = try await ProcessRun.run("/usr/bin/timeout", arguments)
            let stderrTail = run.stderr.split(separator: "\n").suffix(12).joined(separator: "\n")
            if run.status == 124 || run.status == 137 {
                throw Failure(
                    description: "Chromium did not finish \(url) within \(Self.wallClockLimit) s; its last output:\n\(stderrTail)")
            }
            guard run.status == 0, run.stdout.contains("<html") else {
                throw Failure(description: "Chromium exited with \(run.status) and no DOM for \(url):\n\(stderrTail)")
            }
            return RenderedPage(html: run.stdout)
        }
    }
}

/// A DOM as Chromium serialized it, read by element id: enough for pages whose elements of
/// interest have ids and hold no element of their own tag.
package struct RenderedPage: Sendable, CustomStringConvertible {
    /// The serialized DOM.
    package let html: String

    package var description: String { html }

    /// The value of the attribute `name` of the element with id `id`, or of `<body>` when `id` is
    /// `nil`; `nil` when there is no such element or attribute.
    package func attribute(_ name: String, of id: String? = nil) -> String? {
        guard let tag = startTag(of: id) else { return nil }
        let pattern = "\\s\(NSRegularExpression.escapedPattern(for: name))=\"([^\"]*)\""
        guard let value = firstGroup(pattern, in: tag.text) else { return nil }
        return Self.decodingEntities(value)
    }

    /// The text of the element with id `id`: its content without markup, entities decoded.
    package func text(of id: String) -> String? {
        guard let tag = startTag(of: id) else { return nil }
        let rest = html[tag.end...]
        guard let close = rest.range(of: "</\(tag.name)>") else { return nil }
        let content = String(rest[..<close.lowerBound]).replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression)
        return Self.decodingEntities(content)
    }

    private func startTag(of id: String?) -> (name: String, text: Substring, end: String.Index)? {
        let pattern =
            id.map { "<([a-zA-Z0-9]+)\\b[^>]*\\sid=\"\(NSRegularExpression.escapedPattern(for: $0))\"[^>]*>" } ?? "<(body)\\b[^>]*>"
        guard let range = html.range(of: pattern, options: .regularExpression),
            let name = firstGroup("^<([a-zA-Z0-9]+)", in: html[range])
        else { return nil }
        return (name, html[range], range.upperBound)
    }

    private func firstGroup(_ pattern: String, in text: Substring) -> String? {
        let text = String(text)
        guard let expression = try? NSRegularExpression(pattern: pattern),
            let match = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
            let group = Range(match.range(at: 1), in: text)
        else { return nil }
        return String(text[group])
    }

    private static func decodingEntities(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&nbsp;", with: "\u{A0}").replacingOccurrences(of: "&amp;", with: "&")
    }
}
