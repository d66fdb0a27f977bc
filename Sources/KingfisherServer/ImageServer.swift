// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// The image service: `GET /{signature}/{processing}/{source}[.{ext}]`, `/healthz`, `/metrics`
/// and a playground at `/`, on Hummingbird, over the library's manager, caches, downloader and
/// processors.
///
/// A `Service`: run it in a `ServiceGroup` (``runUntilSignalled(logger:)`` does) for graceful shutdown:
/// on SIGTERM or SIGINT it stops accepting, finishes the requests in flight and returns.
public struct ImageServer: Service {
    /// The settings it runs with.
    public let configuration: ImageServerConfiguration
    // Internal: the tests drive it through Hummingbird's router test mode, without a socket.
    let application: Application<ImageServiceResponder>
    let service: ImageService

    /// Creates the service; nothing listens until ``run()``.
    ///
    /// - Parameters:
    ///   - configuration: The settings; checked here.
    ///   - logger: Where the access log (one line per request, at `info`) and errors go.
    ///   - onListening: Called with the bound port once the service accepts connections (useful
    ///     with port 0).
    /// - Throws: ``ConfigurationError`` for unusable settings or cache directory.
    public init(
        configuration: ImageServerConfiguration, logger: Logger,
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) throws {
        self.configuration = configuration
        let service = try ImageService(configuration: configuration, metrics: ServiceMetrics(), logger: logger)
        self.service = service
        let responder = ImageServiceResponder(service: service, logger: logger)
        let metrics = service.metrics
        let memoryRelease = BurstMemoryRelease {
            metrics.recordMemoryRelease()
            logger.info("gave the memory of a burst of connections back to the system")
        }
        let connections = ConnectionRegistry(limit: configuration.maxConnections) { open in
            metrics.openConnections.set(Int64(open))
            memoryRelease.connectionsChanged(open: open)
        }
        let idleTimeout = TimeAmount.milliseconds(Int64(configuration.clientIdleTimeout * 1000))
        let server = HTTPServerBuilder { responder in
            ServiceConnectionChannel(http1: HTTP1Channel(responder: responder, configuration: .init(idleTimeout: idleTimeout))) {
                ConnectionRules(
                    registry: connections, metrics: metrics, maxBodyBytes: configuration.maxRequestBodyBytes,
                    retryAfter: configuration.retryAfter)
            }
        }
        application = Application(
            responder: responder,
            server: server,
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: configuration.name),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? configuration.port) },
            logger: logger)
    }

    /// Serves until the task is cancelled or a graceful shutdown is triggered; then closes its
    /// Redis connections (`--redis`).
    ///
    /// - Throws: ``ConfigurationError`` naming the address when it cannot listen there (in use,
    ///   not an address of this machine, a port it may not bind).
    public func run() async throws {
        defer { service.shutdown() }
        try OpenFileLimit.raise(toFit: configuration.maxConnections)
        do {
            try await application.run()
        } catch let error as IOError {
            throw ConfigurationError(
                description: "cannot listen on \(configuration.host):\(configuration.port): \(String(cString: strerror(error.errnoCode)))")
        }
    }

    /// Serves until SIGTERM or SIGINT, then shuts down gracefully.
    public func runUntilSignalled(logger: Logger) async throws {
        let group = ServiceGroup(configuration: .init(services: [self], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}
