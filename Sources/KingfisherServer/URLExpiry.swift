// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// The `expires(UNIX_SECONDS)` step of an image URL's processing: the time after which the URL
/// is refused with `403`. It sits in the processing segment, so the signature covers it and a
/// client cannot move it; it is not a processor, and results are shared with the same URL
/// without it.
enum URLExpiry {
    /// The step's name.
    static let stepName = "expires"
    /// The separator of processing steps (``ImageProcessorSpec``'s).
    private static let separator = "|>"

    /// The step for `date`, in whole seconds since 1970 (rounded down).
    static func step(for date: Date) -> String {
        "\(stepName)(\(Int64(date.timeIntervalSince1970.rounded(.down))))"
    }

    /// `processing` with `step` put first, or `step` alone when there is no processing.
    static func prepending(_ step: String, to processing: String?) -> String {
        guard let processing, !processing.isEmpty, processing != "-" else { return step }
        return step + separator + processing
    }

    /// The processing without its expiry step (`nil` when nothing else is left), and the expiry.
    ///
    /// - Throws: ``ImageURLPath/Problem`` for an expiry step that is not whole seconds since
    ///   1970, or more than one.
    static func split(_ processing: String) throws(ImageURLPath.Problem) -> (processing: String?, expires: Date?) {
        guard processing.contains(stepName + "(") else { return (processing, nil) }
        var expires: Date?
        var rest: [Substring] = []
        for step in processing.split(separator: separator, omittingEmptySubsequences: false) {
            let trimmed = step.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix(stepName + "("), trimmed.hasSuffix(")") else {
                rest.append(step)
                continue
            }
            let argument = trimmed.dropFirst(stepName.count + 1).dropLast()
            guard let seconds = Int64(argument), seconds >= 0, argument.allSatisfy(\.isASCII) else {
                throw ImageURLPath.Problem(
                    description: "expires(\(argument.prefix(24))) is not a time: give whole seconds since 1970, e.g. expires(1767225600)")
            }
            guard expires == nil else {
                throw ImageURLPath.Problem(description: "the processing names more than one expires(…) step")
            }
            expires = Date(timeIntervalSince1970: TimeInterval(seconds))
        }
        return (rest.isEmpty ? nil : rest.joined(separator: separator), expires)
    }

    /// Whether a URL that expires at `expires` is still valid at `now`, and why not: one line.
    static func refusal(expires: Date, now: Date) -> String? {
        guard now >= expires else { return nil }
        let stamp = ISO8601DateFormatter().string(from: expires)
        let ago = Int((now.timeIntervalSince(expires)).rounded(.down))
        return "the URL expired at \(stamp) (\(ago) s ago): ask for a new one"
    }
}
