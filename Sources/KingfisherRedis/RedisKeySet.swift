// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher
import NIOCore

/// Sets of Redis keys kept in Redis, each naming the keys stored for one thing (the results
/// made from one source), so that they can be removed together.
package struct RedisKeySet: Sendable {
    package let client: RedisClient
    /// Put before each set's name to make its Redis key.
    package let prefix: String

    package init(client: RedisClient, prefix: String) {
        self.client = client
        self.prefix = prefix
    }

    /// Adds the Redis key `member` to the set `name`, which then lives for `expiration`: each
    /// addition renews it, so a set outlives the keys it names.
    /// - Throws: ``RedisError`` when the server cannot be reached or refuses.
    package func insert(_ member: String, into name: String, expiration: StorageExpiration) async throws(RedisError) {
        let key = prefix + name
        var commands = [RESPCommand("SADD", key, member)]
        if let milliseconds = RedisStorage.Backend<Data>.milliseconds(of: expiration) {
            commands.append(RESPCommand("PEXPIRE", key, String(milliseconds)))
        }
        for case .error(let message) in try await client.send(commands) {
            throw RedisError(.refused, "redis at \(client.configuration.address) refused SADD: \(message)")
        }
    }

    /// Removes the set `name` and every key it names.
    /// - Returns: How many of the keys it named were still there.
    /// - Throws: ``RedisError`` when the server cannot be reached or refuses.
    @discardableResult
    package func removeAll(in name: String) async throws(RedisError) -> Int {
        let key = prefix + name
        guard case .array(let members?) = try await client.send(RESPCommand("SMEMBERS", key)) else { return 0 }
        let keys = members.compactMap(\.bytes)
        guard case .integer(let removed) = try await client.send(RESPCommand("DEL", [ByteBuffer(string: key)] + keys)) else { return 0 }
        // DEL counted the set itself too.
        return max(0, Int(removed) - 1)
    }
}
