// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Work for a key done by one process at a time among all that share a ``CacheTier``: N
/// processes asking for the same new key make it once, and the others take what it left in
/// the tier.
public protocol CacheTierSingleFlight: Sendable {
    /// Runs the work for `key` once among the processes: `find` looks for what the work leaves
    /// in the tier (`nil`: not there, or the tier failed); `make` does the work and returns its
    /// value with `kept`, which returns once what `find` looks for is in the tier (`nil`: it is
    /// there already). The caller gets the value at once; the others are told only once `kept`
    /// returned. What `make` throws is thrown; the tier's own failures never are (without the
    /// tier, every process makes the value itself).
    func run<V: Sendable>(
        forKey key: String, find: () async -> V?,
        make: () async throws -> (V, kept: (@Sendable () async -> Void)?)
    ) async throws -> (V, SingleFlightOutcome)
}

/// How a ``CacheTierSingleFlight`` had a value.
public enum SingleFlightOutcome: Sendable, Equatable {
    /// It was in the tier already.
    case found
    /// Another process made it while this one waited.
    case waited
    /// This process made it (holding the key, or without the tier).
    case made
}
