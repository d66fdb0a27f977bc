// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher

/// What the part of an image URL after its signature asks for, parsed and checked once: the
/// source, the processor chain, the named format and the result key's stem.
struct ParsedRequest: Sendable {
    var source: URL
    /// The steps that make the pixels.
    var processor: ImageProcessorChain
    /// What the output steps ask of the encoding.
    var controls: OutputControls
    var format: OutputFormat?
    /// When the URL stops being served (its `expires(…)` step); checked on every request, since
    /// the parse is kept.
    var expires: Date?
    /// Source and processor identifier: with the format choice, the result cache key. The
    /// identifier, not the spec as written, so `resize(9x9)` and `resize(9x9,none)` share results.
    var keyStem: String
}

/// Recently parsed requests by the path after the signature, exactly as sent: parsing is a pure
/// function of those bytes, and a cached answer should cost a lookup, not a parse (decoding the
/// source and the spec was a third of a memory hit's CPU).
///
/// Bounded: past ``limit`` entries it starts again empty, which costs only re-parsing.
final class ParsedRequests: Sendable {
    /// The most requests kept. Default 4096.
    let limit: Int
    // Guarded by `entries`' lock.
    private let entries = Locked<[Substring: ParsedRequest]>([:])

    init(limit: Int = 4096) {
        self.limit = limit
    }

    /// The parsed request for `signedPart`, from memory or made by `parse` (and then kept;
    /// failures are not kept).
    func request(for signedPart: Substring, parse: () throws(ServiceError) -> ParsedRequest) throws(ServiceError) -> ParsedRequest {
        if let known = entries.withLock({ $0[signedPart] }) { return known }
        let parsed = try parse()
        // A copy of the bytes: the key must not keep the whole request's string alive.
        let key = Substring(String(signedPart))
        entries.withLock { entries in
            if entries.count >= limit { entries.removeAll(keepingCapacity: true) }
            entries[key] = parsed
        }
        return parsed
    }
}
