// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Kingfisher

/// One result's hold on a processing slot: taken when its decoding starts (as the retrieval
/// pipeline's gate) or, for a processed image from memory, when its encoding does; kept through
/// the encoding, and given back once the result is made or failed. Fetching the source and
/// waiting for another node hold no slot, so a hanging source delays only what needs it.
final class RequestSlot: RetrievalProcessingGate {
    private let slots: WorkSlots
    private let state = Locked<(held: Bool, refusal: (any Error)?)>((false, nil))
    private let taken: AsyncStream<Void>
    private let takenContinuation: AsyncStream<Void>.Continuation

    init(_ slots: WorkSlots) {
        self.slots = slots
        (taken, takenContinuation) = AsyncStream<Void>.makeStream()
    }

    /// Returns once the slot is first taken (or when the caller is cancelled); for one caller,
    /// the processing deadline.
    func waitUntilTaken() async {
        for await _ in taken { return }
    }

    /// Why the slot was not had (``WorkSlots/Full``, `CancellationError`), once the pipeline
    /// failed for it.
    var refusal: (any Error)? { state.withLock { $0.refusal } }

    /// Takes a slot unless held already.
    ///
    /// - Throws: ``WorkSlots/Full`` when the line is full, `CancellationError` when cancelled
    ///   in line.
    func hold() async throws {
        guard !state.withLock({ $0.held }) else { return }
        do {
            try await slots.acquire()
            state.withLock { $0.held = true }
            takenContinuation.yield()
            takenContinuation.finish()
        } catch {
            state.withLock { $0.refusal = error }
            throw error
        }
    }

    /// The pipeline's turn: the slot stays held after processing, for the encoding.
    func enter() async -> (@Sendable () -> Void)? {
        do {
            try await hold()
            return {}
        } catch {
            return nil
        }
    }

    /// Gives the slot back, if held.
    func release() {
        let held = state.withLock { state in
            defer { state.held = false }
            return state.held
        }
        if held { slots.release() }
    }
}
