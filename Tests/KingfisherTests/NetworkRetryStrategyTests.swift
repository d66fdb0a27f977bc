// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher

/// The link state read from a directory laid out as `/proc` and `/sys`, the monitor polling it,
/// and the strategy deciding on a manager's failed downloads.
@Suite(.timeLimit(.minutes(10))) struct NetworkRetryStrategyTests {
    /// A fake root with a default route through `interface` (IPv4, or IPv6 when `ipv6`) and the
    /// interface's operstate.
    struct FakeLinks {
        let root: URL

        func route(through interface: String, ipv6: Bool = false) throws {
            try FileManager.default.createDirectory(at: root.appendingPathComponent("proc/net"), withIntermediateDirectories: true)
            let v4 = ipv6 ? "" : "\(interface)\t00000000\t010200C0\t0003\t0\t0\t0\t00000000\t0\t0\t0\n"
            try
                ("Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n" + v4
                + "eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n")
                .write(to: root.appendingPathComponent("proc/net/route"), atomically: true, encoding: .utf8)
            let zero = String(repeating: "0", count: 32)
            let v6 = ipv6 ? "\(zero) 00 \(zero) 00 fd000000000000000000000000000001 00000400 00000003 00000000 00000003 \(interface)\n" : ""
            try (v6 + "\(zero.dropLast())1 80 \(zero) 00 \(zero) 00000000 00000002 00000000 80200001       lo\n")
                .write(to: root.appendingPathComponent("proc/net/ipv6_route"), atomically: true, encoding: .utf8)
        }

        func set(_ interface: String, operstate: String, carrier: String? = nil) throws {
            let directory = root.appendingPathComponent("sys/class/net/\(interface)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try "\(operstate)\n".write(to: directory.appendingPathComponent("operstate"), atomically: true, encoding: .utf8)
            if let carrier { try "\(carrier)\n".write(to: directory.appendingPathComponent("carrier"), atomically: true, encoding: .utf8) }
        }

        var state: LinkState { LinkState(root: root) }
    }

    @Test func aDefaultRouteThroughAnInterfaceThatIsUpIsConnected() throws {
        try withTemporaryDirectory { directory in
            let links = FakeLinks(root: directory)
            #expect(links.state.isConnected, "no route tables: unknown, taken as connected")
            try links.route(through: "eth9")
            try links.set("eth9", operstate: "down")
            #expect(links.state.defaultRouteInterfaces() == ["eth9"] && !links.state.isConnected)
            try links.set("eth9", operstate: "up")
            #expect(links.state.isConnected)
            try links.route(through: "tun0", ipv6: true)
            try links.set("tun0", operstate: "unknown", carrier: "0")
            #expect(!links.state.isConnected, "an IPv6 default route through a tunnel without carrier")
            try links.set("tun0", operstate: "unknown", carrier: "1")
            #expect(links.state.isConnected)
            #expect(!links.state.isUp("lo") && !links.state.isUp("../eth9"))
        }
    }

    @Test func theMonitorCallsBackWhenTheLinkComesUpOrTheWaitEnds() async throws {
        try await withTemporaryDirectory { directory in
            let links = FakeLinks(root: directory)
            try links.route(through: "eth9")
            try links.set("eth9", operstate: "down")
            let monitor = NetworkMonitor(linkState: links.state, pollInterval: 0.02)
            let answers = WaitableState<[Bool]>([])
            // Whoever waits holds the observer (the strategy keeps it in the retry context).
            let first = monitor.observeConnectivity(timeoutInterval: 600) { connected in answers.update { $0.append(connected) } }
            try links.set("eth9", operstate: "up")
            #expect(try await answers.waitForValue { $0.first } == true)
            withExtendedLifetime(first) {}

            try links.set("eth9", operstate: "down")
            let timedOut = WaitableState<Bool?>(nil)
            let second = monitor.observeConnectivity(timeoutInterval: 0.1) { connected in timedOut.update { $0 = connected } }
            #expect(try await timedOut.waitForValue { $0 } == false)
            withExtendedLifetime(second) {}

            let cancelled = Locked(0)
            let observer = monitor.observeConnectivity(timeoutInterval: 0.05) { _ in cancelled.withLock { $0 += 1 } }
            observer.cancel()
            // A wait started later with a longer timeout ends after the cancelled one's would
            // have: once it has, the cancelled one had its chance to (wrongly) call back.
            let later = WaitableState<Bool?>(nil)
            let probe = monitor.observeConnectivity(timeoutInterval: 0.1) { connected in later.update { $0 = connected } }
            #expect(try await later.waitForValue { $0 } == false)
            withExtendedLifetime(probe) {}
            #expect(cancelled.withLock { $0 } == 0, "nothing is called after cancel")
            #expect(answers.read { $0 } == [true], "called back once")
        }
    }

    /// A monitor the test switches.
    final class SwitchedMonitor: NetworkMonitoring {
        private let connected: Locked<Bool>
        private let waiting = WaitableState<[@Sendable (Bool) -> Void]>([])
        let cancelledObservers = Locked(0)

        init(connected: Bool) { self.connected = Locked(connected) }

        var isConnected: Bool { connected.withLock { $0 } }
        var waitingCount: Int { waiting.read { $0.count } }

        /// Returns once someone waits for the network.
        func waitUntilObserved() async throws {
            _ = try await waiting.wait { !$0.isEmpty }
        }

        func reconnect() {
            connected.withLock { $0 = true }
            for callback in waiting.update({ state in
                defer { state = [] }
                return state
            }) { callback(true) }
        }

        struct Observer: NetworkObserver {
            let cancelled: @Sendable () -> Void
            func cancel() { cancelled() }
        }

        func observeConnectivity(timeoutInterval: TimeInterval?, callback: @escaping @Sendable (Bool) -> Void) -> any NetworkObserver {
            waiting.update { $0.append(callback) }
            return Observer { [cancelledObservers] in cancelledObservers.withLock { $0 += 1 } }
        }
    }

    let url = URL(string: "https://example.com/photo.png")!

    func withManager(_ body: (KingfisherManager, ControllableTransport) async throws -> Void) async throws {
        try await withTemporaryDirectory { directory in
            let transport = ControllableTransport()
            let cache = try ImageCache(name: "network-retry", cacheDirectoryURL: directory)
            try await body(KingfisherManager(downloader: transport.makeDownloader(), cache: cache), transport)
        }
    }

    @Test func aFailureWhileOfflineIsRetriedWhenTheNetworkComesBack() async throws {
        try await withManager { manager, transport in
            let monitor = SwitchedMonitor(connected: false)
            let strategy = NetworkRetryStrategy(timeoutInterval: 30, networkMonitor: monitor)
            let task = Task { try await manager.retrieveImage(with: url, options: [.retryStrategy(strategy)]) }
            try await transport.nextExchange().respond(status: 503)
            try await monitor.waitUntilObserved()
            #expect(monitor.waitingCount == 1 && transport.startedCount == 1, "waiting for the network, not retrying")
            monitor.reconnect()
            try await transport.nextExchange().respond(withImage: Fixtures.data("photo.png"))
            #expect(try await task.value.image.pixelWidth == 190)
        }
    }

    @Test func cancellingAWaitStopsWatchingTheNetwork() async throws {
        try await withManager { manager, transport in
            let monitor = SwitchedMonitor(connected: false)
            let task = Task {
                try await manager.retrieveImage(
                    with: url, options: [.retryStrategy(NetworkRetryStrategy(timeoutInterval: nil, networkMonitor: monitor))])
            }
            try await transport.nextExchange().respond(status: 503)
            try await monitor.waitUntilObserved()
            task.cancel()
            await #expect(throws: KingfisherError.self) { try await task.value }
            #expect(monitor.cancelledObservers.withLock { $0 } == 1)
        }
    }

    @Test func onlyResponseErrorsAreRetried() async throws {
        let strategy = NetworkRetryStrategy(timeoutInterval: 1, networkMonitor: SwitchedMonitor(connected: true))
        func decision(for error: KingfisherError) async -> String {
            await withCheckedContinuation { continuation in
                strategy.retry(context: RetryContext(source: .network(KF.ImageResource(downloadURL: url)), error: error)) { decision in
                    if case .retry = decision { continuation.resume(returning: "retry") } else { continuation.resume(returning: "stop") }
                }
            }
        }
        #expect(await decision(for: .responseError(reason: .URLSessionError(error: URLError(.networkConnectionLost)))) == "retry")
        #expect(await decision(for: .requestError(reason: .asyncTaskContextCancelled)) == "stop")
        #expect(await decision(for: .tooManyRedirects(url: url, limit: 1)) == "stop")
        #expect(await decision(for: .cacheError(reason: .imageNotExisting(key: "k"))) == "stop")
    }
}
