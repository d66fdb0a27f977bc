// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher
import NIOCore

/// The shared half of the cache: values kept in Redis, so that every process (every node of a
/// service) using the same server and prefix finds what any of them stored.
///
/// It is a level below `MemoryStorage` and `DiskStorage`: slower than a local disk by a
/// network round trip, but one copy for all nodes. A value over ``Config/itemSizeLimit`` is not
/// stored; expirations become Redis TTLs, so Redis removes expired values itself.
public enum RedisStorage {
    /// Where values go and how long they live.
    public struct Config: Sendable {
        /// The client for the server.
        public var client: RedisClient
        /// Put before every key, so that several caches (and other data) can share a server.
        /// Default `kingfisher:`.
        public var prefix: String
        /// How long a stored value lives. Default `.days(7)`, as the disk cache.
        public var expiration: StorageExpiration = .days(7)
        /// The largest value stored, in bytes; larger ones stay local. Default 16 MiB.
        public var itemSizeLimit = 16 << 20

        /// A configuration for `client`, with keys under `prefix`.
        public init(client: RedisClient, prefix: String = "kingfisher:") {
            self.client = client
            self.prefix = prefix
        }
    }

    /// Values of type `T` in Redis, under the configured prefix.
    public final class Backend<T: DataTransformable & Sendable>: Sendable {
        /// The configuration.
        public let config: Config

        /// A storage on `config`'s server; it connects on first use.
        public init(config: Config) {
            self.config = config
        }

        /// The Redis key for `key`.
        package func redisKey(_ key: String) -> String { config.prefix + key }

        /// Stores `value` for `key`, living per `expiration` (default: the config's). Nothing is
        /// stored when the value is over the size limit or the expiration is already over.
        /// - Returns: Whether the value was stored.
        /// - Throws: ``RedisError`` when the server cannot be reached or refuses.
        @discardableResult
        public func store(value: T, forKey key: String, expiration: StorageExpiration? = nil) async throws -> Bool {
            let data = try value.toData()
            let expiration = expiration ?? config.expiration
            guard data.count <= config.itemSizeLimit, !expiration.isExpired else { return false }
            var arguments = [ByteBuffer(string: redisKey(key)), ByteBuffer(bytes: data)]
            if let milliseconds = Self.milliseconds(of: expiration) {
                arguments += [ByteBuffer(string: "PX"), ByteBuffer(string: String(milliseconds))]
            }
            _ = try await config.client.send(RESPCommand("SET", arguments))
            return true
        }

        /// The value for `key`, or `nil` when Redis has none.
        /// - Throws: ``RedisError`` when the server cannot be reached or refuses; whatever
        ///   `T.fromData` throws for bytes it cannot read.
        public func value(forKey key: String) async throws -> T? {
            let reply = try await config.client.send(RESPCommand("GET", redisKey(key)))
            guard let bytes = reply.bytes else { return nil }
            return try T.fromData(Data(bytes.readableBytesView))
        }

        /// Whether Redis holds a value for `key`.
        public func isCached(forKey key: String) async throws -> Bool {
            try await config.client.send(RESPCommand("EXISTS", redisKey(key))) == .integer(1)
        }

        /// Removes the value for `key`.
        public func remove(forKey key: String) async throws {
            _ = try await config.client.send(RESPCommand("DEL", redisKey(key)))
        }

        /// A TTL in milliseconds for `expiration`; `nil` for never.
        static func milliseconds(of expiration: StorageExpiration) -> Int64? {
            let interval = expiration.timeInterval
            guard interval.isFinite else { return nil }
            return max(1, Int64((interval * 1000).rounded(.up)))
        }
    }
}
