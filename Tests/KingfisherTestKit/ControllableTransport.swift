// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

@testable import Kingfisher

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An in-memory ``ImageDownloaderTransport`` that records every exchange the downloader starts
/// and holds it until the test answers it (modelled on Nuke's `MockDataLoader` with
/// `isSuspended`, but always suspended). Coalescing, priority and cancellation tests use it to
/// decide exactly when each response arrives, without sleeps or a server:
///
/// ```swift
/// let transport = ControllableTransport()
/// let downloader = transport.makeDownloader()
/// let call = DownloadCall(downloader, url)
/// let exchange = try await transport.nextExchange()
/// exchange.respond(withImage: try Fixtures.data("photo.png"))
/// let image = try await call.image()
/// ```
///
/// The downloader starts an exchange synchronously when a download gets a slot, so right after a
/// callback-form `downloadImage` returns, ``startedCount`` already counts it.
package final class ControllableTransport: ImageDownloaderTransport {
    /// A transport with no exchanges yet.
    package init() {}

    private struct State {
        var exchanges: [ControlledExchange] = []
        /// Exchanges handed out by ``nextExchange()`` so far.
        var taken = 0
        /// Started and neither cancelled nor ended.
        var open = 0
        var maxOpen = 0
    }

    private let state = WaitableState(State())

    /// A downloader on this transport whose timers never end a held exchange: no idle timeout
    /// (an hour) and no duration limit.
    package func makeDownloader(name: String = "controlled") -> ImageDownloader {
        let downloader = ImageDownloader(name: name, transport: self)
        downloader.downloadTimeout = 3600
        downloader.maxDownloadDuration = 0
        return downloader
    }

    package func startExchange(
        _ request: URLRequest, acceptingUntrustedCertificates: Bool,
        receiver: any TransportExchangeReceiver
    ) -> any TransportExchange {
        let state = self.state
        let exchange = ControlledExchange(
            request: request, acceptingUntrustedCertificates: acceptingUntrustedCertificates,
            receiver: receiver, onClose: { state.update { $0.open -= 1 } })
        state.update { state in
            state.exchanges.append(exchange)
            state.open += 1
            state.maxOpen = max(state.maxOpen, state.open)
        }
        return exchange
    }

    // MARK: Looking

    /// Every exchange started so far, in order.
    package var exchanges: [ControlledExchange] { state.read { $0.exchanges } }

    /// The exchanges started for `url`, in order.
    package func exchanges(for url: URL) -> [ControlledExchange] {
        state.read { $0.exchanges.filter { $0.url == url } }
    }

    /// How many exchanges have started.
    package var startedCount: Int { state.read { $0.exchanges.count } }

    /// Exchanges started and not yet cancelled or ended.
    package var openCount: Int { state.read { $0.open } }

    /// The most exchanges open at once so far.
    package var maxOpenCount: Int { state.read { $0.maxOpen } }

    // MARK: Waiting

    /// The next exchange in start order not yet handed out by this method, once it has started.
    package func nextExchange() async throws -> ControlledExchange {
        let index = state.update { state -> Int in
            defer { state.taken += 1 }
            return state.taken
        }
        return try await exchange(at: index)
    }

    /// The `index`th exchange (from 0) in start order, once it has started.
    package func exchange(at index: Int) async throws -> ControlledExchange {
        try await state.waitForValue { $0.exchanges.count > index ? $0.exchanges[index] : nil }
    }

    /// The first exchange for `url`, once it has started.
    package func exchange(for url: URL) async throws -> ControlledExchange {
        try await state.waitForValue { $0.exchanges.first { $0.url == url } }
    }

    /// The first `count` exchanges, once they have started.
    package func exchanges(count: Int) async throws -> [ControlledExchange] {
        try await state.waitForValue { $0.exchanges.count >= count ? Array($0.exchanges.prefix(count)) : nil }
    }
}
