// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Kingfisher
import NIOCore
import NIOPosix

/// One TCP connection to a Redis server, with commands pipelined over it.
///
/// Replies come back in the order the commands went out; every command has a promise in that
/// order. When a batch takes longer than its timeout, or the connection fails, the connection
/// is closed and every command still waiting fails: a late reply would otherwise be taken for
/// the next command's.
final class RedisConnection: Sendable {
    let channel: any Channel
    /// Where the connection goes, for errors: `host:port`.
    let peer: String

    private init(channel: any Channel, peer: String) {
        self.channel = channel
        self.peer = peer
    }

    /// Whether the connection is still open.
    var isActive: Bool { channel.isActive }

    /// Connects to `host:port` within `timeout`. With `onPush`, the connection is for
    /// `SUBSCRIBE`: published messages go to `onPush` instead of a command's promise.
    static func connect(
        host: String, port: Int, timeout: TimeAmount, group: any EventLoopGroup,
        onPush: (@Sendable (RESPValue) -> Void)? = nil
    ) async throws(RedisError) -> RedisConnection {
        let peer = "\(host):\(port)"
        do {
            let channel = try await ClientBootstrap(group: group)
                .connectTimeout(timeout)
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(RedisCommandHandler(peer: peer, onPush: onPush))
                    }
                }
                .connect(host: host, port: port).get()
            return RedisConnection(channel: channel, peer: peer)
        } catch ChannelError.connectTimeout {
            throw RedisError(.unreachable, "connecting to redis at \(peer) timed out after \(timeout.seconds) s")
        } catch {
            throw RedisError(.unreachable, "cannot connect to redis at \(peer): \(RedisError.describe(error))")
        }
    }

    /// Sends `commands` in one write and returns their replies in order; fails if they have not
    /// all come within `timeout`, closing the connection. A Redis error reply is returned as
    /// ``RESPValue/error(_:)``, not thrown: in a pipeline it belongs to one command.
    func send(_ commands: [RESPCommand], timeout: TimeAmount) async throws(RedisError) -> [RESPValue] {
        do {
            return try await replies(to: commands, timeout: timeout).get()
        } catch let error as RedisError {
            throw error
        } catch {
            throw RedisError(.unreachable, "redis at \(peer) failed: \(RedisError.describe(error))")
        }
    }

    /// ``send(_:timeout:)`` on the connection's event loop, for work that must not wait for the
    /// cooperative pool (renewing a lease).
    func replies(to commands: [RESPCommand], timeout: TimeAmount) -> EventLoopFuture<[RESPValue]> {
        let eventLoop = channel.eventLoop
        let promises = commands.map { _ in eventLoop.makePromise(of: RESPValue.self) }
        let all = EventLoopFuture.whenAllSucceed(promises.map(\.futureResult), on: eventLoop)
        let channel = self.channel
        let peer = self.peer
        // The deadline fails the promises itself: once the channel has closed and its handler
        // is gone, nothing else would (completing a promise twice does nothing).
        let deadline = eventLoop.scheduleTask(in: timeout) {
            let error = RedisError(.timedOut, "redis at \(peer) did not answer \(commands.first?.name ?? "") within \(timeout.seconds) s")
            channel.pipeline.fireErrorCaught(error)
            for promise in promises { promise.fail(error) }
            channel.close(promise: nil)
        }
        all.whenComplete { _ in deadline.cancel() }
        // A write the closed channel drops fails the batch now, not at the deadline.
        let written = eventLoop.makePromise(of: Void.self)
        written.futureResult.whenFailure { error in
            let failure = error as? RedisError ?? RedisError(.unreachable, "the connection to redis at \(peer) is closed")
            for promise in promises { promise.fail(failure) }
        }
        channel.writeAndFlush(RedisCommandHandler.Batch(commands: commands, promises: promises), promise: written)
        return all
    }

    /// Sends one command and returns its reply.
    func send(_ command: RESPCommand, timeout: TimeAmount) async throws(RedisError) -> RESPValue {
        try await send([command], timeout: timeout)[0]
    }

    /// Closes the connection; commands still waiting fail.
    func close() {
        channel.close(promise: nil)
    }
}
