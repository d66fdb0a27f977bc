// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KingfisherImaging
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle

@testable import KingfisherServer

/// An ``ImageServer`` on 127.0.0.1 with a free port, its caches in a temporary directory, and a
/// client for it.
/// How a test reaches the service under test.
package enum ServiceReach: Sendable {
    /// Straight through its Hummingbird responder, in Hummingbird's router test mode: no socket,
    /// for everything that is not about connections.
    case router
    /// Over a loopback socket, for connections themselves (idle and trickling clients, a browser,
    /// graceful shutdown).
    case socket
}

package struct ImageServiceUnderTest: Sendable {
    /// The port it listens on, when reached over a socket.
    private let socketPort: Int?
    /// The port it listens on; only for a service reached over a socket (a test that needs one
    /// and forgot `reach: .socket` stops here instead of hanging).
    package var port: Int {
        guard let socketPort else { preconditionFailure("the service is reached in router mode: pass reach: .socket for a port") }
        return socketPort
    }
    package let configuration: ImageServerConfiguration
    /// Sends one request.
    private let send:
        @Sendable (_ path: String, _ headers: [(String, String)], _ method: HTTPMethod, _ body: String?) async throws -> Answer
    /// The processing slots: as the service last reported them, and taken by the test itself.
    package let slots: ObservedSlots

    /// Returns once the slots are as `condition` wants (requests waiting, slots busy).
    package func waitForSlots(_ condition: @escaping @Sendable ((waiting: Int, busy: Int)) -> Bool) async throws {
        _ = try await slots.state.wait(until: condition)
    }

    /// One answer: status, headers and body.
    package struct Answer: Sendable {
        package var status: Int
        package var headers: HTTPHeaders
        package var body: Data

        package var text: String { String(decoding: body, as: UTF8.self) }
        package func header(_ name: String) -> String? { headers.first(name: name) }
    }

    package func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// `GET` (or `method`) `path` with `headers` (and `body`).
    package func get(
        _ path: String, headers: [(String, String)] = [], method: HTTPMethod = .GET, body: String? = nil
    ) async throws -> Answer {
        try await send(path, headers, method, body)
    }

    /// A service reached over a socket, through `client`.
    init(port: Int, configuration: ImageServerConfiguration, client: HTTPClient, slots: ObservedSlots) {
        socketPort = port
        self.configuration = configuration
        self.slots = slots
        send = { path, headers, method, body in
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
            request.method = method
            for (name, value) in headers { request.headers.add(name: name, value: value) }
            if let body { request.body = .bytes(ByteBuffer(string: body)) }
            let response = try await client.execute(request, timeout: .seconds(60))
            let received = try await response.body.collect(upTo: 64 * 1024 * 1024)
            return Answer(status: Int(response.status.code), headers: response.headers, body: Data(received.readableBytesView))
        }
    }

    /// A service reached through its responder by Hummingbird's test `client`.
    init(configuration: ImageServerConfiguration, client: any TestClientProtocol, slots: ObservedSlots) {
        socketPort = nil
        self.configuration = configuration
        self.slots = slots
        send = { path, headers, method, body in
            var fields = HTTPFields()
            for (name, value) in headers {
                if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
            }
            let response = try await client.execute(
                uri: path, method: HTTPRequest.Method(rawValue: method.rawValue) ?? .get, headers: fields,
                body: body.map { ByteBuffer(string: $0) })
            var converted = HTTPHeaders()
            for field in response.headers { converted.add(name: field.name.rawName, value: field.value) }
            return Answer(status: response.status.code, headers: converted, body: Data(response.body.readableBytesView))
        }
    }

    /// The unsigned path of `source` with `processing` and `format`.
    package func path(_ source: URL, _ processing: String? = nil, format: OutputFormat? = nil) -> String {
        ImageURLPath.make(source: source, processing: processing, format: format, signer: nil)
    }
}

/// A configuration for tests: port 0, unsigned URLs and private networks allowed (the origin
/// is on 127.0.0.1), caches under `directory`.
package func testServiceConfiguration(directory: URL) -> ImageServerConfiguration {
    var configuration = ImageServerConfiguration()
    configuration.port = 0
    configuration.allowUnsigned = true
    configuration.allowPrivateNetworks = true
    configuration.directory = directory.path
    configuration.name = "kf-serve-test"
    if SanitizerAllowance.isActive {
        // On two cores under a sanitizer, connecting to Redis on loopback can take over the
        // client's default 500 ms; a node then works without Redis and a test of sharing fails.
        configuration.redisTimeout = .milliseconds(500 * SanitizerAllowance.time)
        // The whole suite slowed down tenfold: a plain resize can hold its slot past 10 s.
        configuration.processingTimeout *= Double(SanitizerAllowance.time)
    }
    return configuration
}

/// A service's processing slots, as a test sees and drives them, and the clock its sources'
/// freshness reads (stopped until a test moves it).
package struct ObservedSlots: Sendable {
    /// The counts (requests waiting, slots busy) as the service last reported them.
    package let state = WaitableState<(waiting: Int, busy: Int)>((0, 0))
    /// Takes a slot as a request does, waiting in line if need be (or throwing at a full line).
    package let take: @Sendable () async throws -> Void
    /// Gives back a slot ``take`` took.
    package let giveBack: @Sendable () -> Void
    /// The service's pixel memory budget: a test holds some of it as a request in processing would.
    package let pixelMemory: PixelMemoryBudget
    /// What the service takes for now when it asks whether a source is still fresh.
    package let sourceClock = TestClock()
    /// How many purges the service heard from other nodes.
    package let purgesHeard = WaitableState<Int>(0)
    /// Returns once the service hears the other nodes' purges (subscribed in Redis).
    package let listening: @Sendable () async -> Void

    init(_ server: ImageServer) {
        server.service.freshness.setClock(sourceClock.function)
        let state = self.state
        server.service.slotsObserver.set { counts in state.update { $0 = counts } }
        let purgesHeard = self.purgesHeard
        server.service.purger.heard.set { _ in purgesHeard.update { $0 += 1 } }
        let purger = server.service.purger
        listening = { await purger.waitUntilListening() }
        let slots = server.service.slots
        take = { try await slots.acquire() }
        giveBack = { slots.release() }
        pixelMemory = server.service.pixelMemory
    }
}

/// An ``ImageServer`` running in a `ServiceGroup` on a free port, and how to stop it.
package struct StartedImageService {
    package let port: Int
    package let slots: ObservedSlots
    private let group: ServiceGroup
    private let running: Task<Void, any Error>

    /// Starts a service built from `configuration` and waits until it listens.
    package static func start(_ configuration: ImageServerConfiguration) async throws -> StartedImageService {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let logger = Logger(label: "kf-serve-test", factory: { _ in SwiftLogNoOpLogHandler() })
        let server = try ImageServer(configuration: configuration, logger: logger) { port in continuation.yield(port) }
        let slots = ObservedSlots(server)
        let group = ServiceGroup(configuration: .init(services: [server], logger: logger))
        let running = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw ServiceDidNotStart() }
        return StartedImageService(port: port, slots: slots, group: group, running: running)
    }

    /// Triggers a graceful shutdown and waits for the service to stop; whether it stopped
    /// without an error.
    package func stop() async -> Bool {
        await group.triggerGracefulShutdown()
        return (try? await running.value) != nil
    }
}

/// Runs `body` with a service built from `configuration`, then shuts it down gracefully and
/// waits for it to stop.
/// Runs `body` with a service built from `configuration`, reached as `reach` says (default
/// ``ServiceReach/router``); the service is stopped afterwards.
package func withImageService<T: Sendable>(
    _ configuration: ImageServerConfiguration, reach: ServiceReach = .router,
    _ body: @Sendable (ImageServiceUnderTest) async throws -> T
) async throws -> T {
    if reach == .router {
        let logger = Logger(label: "kf-serve-test", factory: { _ in SwiftLogNoOpLogHandler() })
        let server = try ImageServer(configuration: configuration, logger: logger)
        let slots = ObservedSlots(server)
        defer { server.service.shutdown() }
        return try await server.application.test(.router) { client in
            try await body(ImageServiceUnderTest(configuration: configuration, client: client, slots: slots))
        }
    }
    let started = try await StartedImageService.start(configuration)
    let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
    let result: Result<T, any Error>
    do {
        result = .success(
            try await body(ImageServiceUnderTest(port: started.port, configuration: configuration, client: client, slots: started.slots)))
    } catch {
        result = .failure(error)
    }
    try? await client.shutdown()
    _ = await started.stop()
    return try result.get()
}

/// Starts a request for the path `makePath` gives, waits for `inFlight` (the origin seeing the
/// fetch), triggers a graceful shutdown, and returns whether the service stopped and what the
/// request got.
package func withImageServiceStoppedMidRequest(
    _ configuration: ImageServerConfiguration,
    inFlight: () async throws -> Void,
    _ makePath: (ImageServiceUnderTest) -> String
) async throws -> (Bool, ImageServiceUnderTest.Answer) {
    let started = try await StartedImageService.start(configuration)
    let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
    let service = ImageServiceUnderTest(port: started.port, configuration: configuration, client: client, slots: started.slots)
    let path = makePath(service)
    async let answer = service.get(path)
    try await inFlight()
    // A graceful stop ends only once the request in flight has been answered.
    let stopped = await started.stop()
    let result: Result<ImageServiceUnderTest.Answer, any Error>
    do {
        result = .success(try await answer)
    } catch {
        result = .failure(error)
    }
    try? await client.shutdown()
    return (stopped, try result.get())
}

package struct ServiceDidNotStart: Error {}
