// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The test kit's ControllableTransport keeps the transport contract the downloader relies on,
/// and its waits end when the waiting task is cancelled.
@Suite(.timeLimit(.minutes(10))) struct ControllableTransportTests {
    /// Records what an exchange reports, and whether two calls ever overlapped.
    final class RecordingReceiver: TransportExchangeReceiver {
        enum Event: Equatable, Sendable {
            case response(status: Int)
            case data(count: Int)
            case complete(failed: Bool)
        }

        let events = WaitableState<[Event]>([])
        private let inCall = Locked(false)
        private let overlapped = Locked(false)
        let proceeds: Bool
        let acceptsData: Bool

        init(proceeds: Bool = true, acceptsData: Bool = true) {
            self.proceeds = proceeds
            self.acceptsData = acceptsData
        }

        var sawOverlap: Bool { overlapped.withLock { $0 } }

        private func record(_ event: Event) {
            let busy = inCall.withLock { busy -> Bool in
                defer { busy = true }
                return busy
            }
            if busy { overlapped.withLock { $0 = true } }
            events.update { $0.append(event) }
            inCall.withLock { $0 = false }
        }

        func didReceiveResponse(_ response: TransportResponse, proceed: @escaping @Sendable (Bool) -> Void) {
            record(.response(status: response.statusCode))
            proceed(proceeds)
        }

        func didReceiveData(_ bytes: UnsafeRawBufferPointer) -> Bool {
            record(.data(count: bytes.count))
            return acceptsData
        }

        func didComplete(with error: (any Error)?) {
            record(.complete(failed: error != nil))
        }
    }

    let transport = ControllableTransport()
    let request = URLRequest(url: URL(string: "https://example.com/a.png")!)

    func start(_ receiver: RecordingReceiver) -> ControlledExchange {
        transport.startExchange(request, acceptingUntrustedCertificates: false, receiver: receiver) as! ControlledExchange
    }

    @Test func anExchangeIsHeldUntilAnswered() async throws {
        let receiver = RecordingReceiver()
        let exchange = start(receiver)
        #expect(try await transport.nextExchange() === exchange)
        #expect(receiver.events.current.isEmpty && exchange.ending == nil && transport.openCount == 1)
    }

    @Test func respondDeliversAWholeExchangeInOrder() async throws {
        let receiver = RecordingReceiver()
        let exchange = start(receiver)
        exchange.respond(body: Data(count: 40), chunkSize: 16)
        #expect(try await exchange.ended() == .completed)
        #expect(
            receiver.events.current == [
                .response(status: 200), .data(count: 16), .data(count: 16), .data(count: 8),
                .complete(failed: false),
            ])
        #expect(!receiver.sawOverlap && transport.openCount == 0)
    }

    @Test func aCancelledExchangeCompletesOnceWithAnError() async throws {
        let receiver = RecordingReceiver()
        let exchange = start(receiver)
        exchange.cancel()
        exchange.cancel()
        try await exchange.cancelled()
        #expect(try await exchange.ended() == .cancelled)
        // An answer after the cancellation reaches nobody.
        exchange.respond(body: Data(count: 10))
        await exchange.complete()
        #expect(receiver.events.current == [.complete(failed: true)])
        #expect(transport.openCount == 0)
    }

    @Test func aDeclinedHeadStopsTheExchange() async throws {
        let receiver = RecordingReceiver(proceeds: false)
        let exchange = start(receiver)
        #expect(try await exchange.sendHead() == false)
        #expect(try await exchange.ended() == .stopped)
        #expect(await exchange.sendBody(Data(count: 10)) == false)
        #expect(receiver.events.current == [.response(status: 200), .complete(failed: true)])
    }

    @Test func aDeclinedChunkStopsTheExchange() async throws {
        let receiver = RecordingReceiver(acceptsData: false)
        let exchange = start(receiver)
        exchange.respond(body: Data(count: 40), chunkSize: 16)
        #expect(try await exchange.ended() == .stopped)
        #expect(receiver.events.current == [.response(status: 200), .data(count: 16), .complete(failed: true)])
    }

    @Test func aFailedExchangeCompletesWithTheError() async throws {
        let receiver = RecordingReceiver()
        let exchange = start(receiver)
        exchange.fail()
        #expect(try await exchange.ended() == .failed)
        #expect(receiver.events.current == [.complete(failed: true)])
    }

    @Test func waitingForAnExchangeEndsWhenTheTaskIsCancelled() async {
        let transport = self.transport
        let waiting = Task { try await transport.nextExchange() }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }
}
