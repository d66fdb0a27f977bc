// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import NIOCore

extension RedisConnection {
    /// A connection of its own to `client`'s server, subscribed to `channel`: each message
    /// published there is handed to `onMessage` (on the connection's event loop) as its payload.
    static func subscribed(
        to channel: String, on client: RedisClient, onMessage: @escaping @Sendable (String) -> Void
    ) async throws(RedisError) -> RedisConnection {
        let configuration = client.configuration
        let connection = try await connect(
            host: configuration.host, port: configuration.port, timeout: TimeAmount(configuration.connectTimeout), group: client.group,
            onPush: { message in
                // ["message", channel, payload]
                guard case .array(let parts?) = message, parts.count == 3, let payload = parts[2].bytes else { return }
                onMessage(String(buffer: payload))
            })
        do {
            _ = try await connection.send(RESPCommand("SUBSCRIBE", channel), timeout: TimeAmount(configuration.commandTimeout))
        } catch {
            connection.close()
            throw error
        }
        return connection
    }

    /// Returns once the connection has closed (the server went away, or ``close()``).
    func closed() async {
        try? await channel.closeFuture.get()
    }
}
