// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher
import NIOCore

/// One process's claim, held in Redis for a short time, to do the work for a key.
///
/// Taken with `SET key token NX PX duration`: only one process gets it while it lives. The
/// holder renews it while it works and releases it after; a holder that dies stops renewing,
/// and the lease lapses after at most its duration. Renewing and releasing check the token in
/// one Lua script, so a holder whose lease lapsed never extends or deletes another's.
final class RedisLease: Sendable {
    /// The lease's Redis key.
    let key: String
    /// What only this holder put in the key.
    let token: String
    let client: RedisClient

    private init(key: String, token: String, client: RedisClient) {
        self.key = key
        self.token = token
        self.client = client
    }

    /// Takes the lease `key` for `duration`; `nil` when another process holds it.
    static func acquire(_ key: String, duration: TimeAmount, client: RedisClient) async throws(RedisError) -> RedisLease? {
        let token = UUID().uuidString
        let reply = try await client.send(RESPCommand("SET", key, token, "NX", "PX", String(duration.milliseconds)))
        return reply == .simpleString("OK") ? RedisLease(key: key, token: token, client: client) : nil
    }

    private static let renewScript =
        "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end"
    private static let releaseScript =
        "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"

    /// Extends the lease to `duration` from now; `false` when it lapsed (another may hold it).
    func renew(for duration: TimeAmount) async throws(RedisError) -> Bool {
        try await client.send(renewal(for: duration)) == .integer(1)
    }

    private func renewal(for duration: TimeAmount) -> RESPCommand {
        RESPCommand("EVAL", Self.renewScript, "1", key, token, String(duration.milliseconds))
    }

    /// Gives the lease up, if it is still this holder's.
    func release() async throws(RedisError) {
        _ = try await client.send(RESPCommand("EVAL", Self.releaseScript, "1", key, token))
    }

    /// Renews the lease every third of `duration` until the returned task is cancelled or the
    /// lease was lost; a renewal that failed (a timeout, Redis down, no open connection) is
    /// tried again at the next third.
    ///
    /// Renewals run on a NIO event loop, not in a task: a cooperative pool kept busy by the
    /// holder's work must not let the lease lapse. `renewed` (default `nil`) is called after
    /// each renewal Redis confirmed.
    func keepRenewed(for duration: TimeAmount, renewed: (@Sendable () -> Void)? = nil) -> RepeatedTask {
        let interval = TimeAmount.nanoseconds(duration.nanoseconds / 3)
        let command = renewal(for: duration)
        let timeout = TimeAmount(client.configuration.commandTimeout)
        let eventLoop = client.group.next()
        return eventLoop.scheduleRepeatedAsyncTask(initialDelay: interval, delay: interval) { [client] task in
            guard let connection = client.openConnection() else { return eventLoop.makeSucceededVoidFuture() }
            return connection.replies(to: [command], timeout: timeout).map { replies in
                if replies.first == .integer(0) { task.cancel() } else { renewed?() }
            }.recover { _ in }
        }
    }
}
