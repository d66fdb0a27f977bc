// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// Where a retrieval's decoding and processing wait their turn: an image service's processing
/// slots, which a fetch must not hold.
///
/// With a gate, a ``RetrievalPipeline`` fetches a network source's bytes without decoding them,
/// then decodes and processes them, as it does originals from its tiers and data providers,
/// only once ``enter()`` lets it. Without one (the default), the downloader decodes and
/// processes as the body ends, as in Kingfisher.
public protocol RetrievalProcessingGate: Sendable {
    /// Waits for the retrieval's turn to decode and process.
    ///
    /// - Returns: What ends the turn, called once the processing is done (or failed); `nil`
    ///   when the gate turns the retrieval away (or it was cancelled while waiting): the
    ///   retrieval then fails with ``KingfisherError/RequestErrorReason/asyncTaskContextCancelled``,
    ///   and the gate's owner knows why.
    func enter() async -> (@Sendable () -> Void)?
}
