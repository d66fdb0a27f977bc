// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher
import Logging
import NIOCore
import NIOPosix

/// A small Redis client for the shared cache tier: a few connections to one server, commands
/// pipelined over them, a timeout on every command, and reconnection.
///
/// While the server cannot be reached (refused, reset, or a command timed out) the client is
/// *down*: commands fail at once with ``RedisError/Kind/unreachable`` instead of each waiting for
/// a timeout, and a connection is tried again every ``Configuration/retryInterval``. Each change
/// between up and down is logged once.
public final class RedisClient: Sendable {
    /// Where the server is and how long to wait for it.
    public struct Configuration: Sendable {
        /// The server's host. Default `127.0.0.1`.
        public var host = "127.0.0.1"
        /// The server's port. Default 6379.
        public var port = 6379
        /// How many connections commands are spread over. Default 2.
        public var connections = 2
        /// How long a command (or a pipelined batch) may take. Default 500 ms.
        public var commandTimeout: Duration = .milliseconds(500)
        /// How long connecting may take. Default 500 ms.
        public var connectTimeout: Duration = .milliseconds(500)
        /// While the server is down, how often a connection is tried again. Default 1 s.
        public var retryInterval: Duration = .seconds(1)

        /// The defaults, for the server on `127.0.0.1:6379`.
        public init() {}

        /// The configuration for a `redis://HOST[:PORT]` URL; other settings are the defaults.
        /// - Throws: ``RedisError`` (`.refused`) naming what is wrong with the URL.
        public init(url: URL) throws(RedisError) {
            guard url.scheme == "redis", let host = url.host, !host.isEmpty else {
                throw RedisError(.refused, "\(url.absoluteString) is not a redis://HOST[:PORT] URL")
            }
            guard url.path.isEmpty || url.path == "/", url.user == nil, url.query == nil else {
                throw RedisError(.refused, "\(url.absoluteString): only redis://HOST[:PORT] is supported (no database, user or options)")
            }
            self.host = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
            self.port = url.port ?? 6379
        }

        /// `host:port`, for messages.
        public var address: String { "\(host):\(port)" }
    }

    /// The client's settings.
    public let configuration: Configuration
    let group: any EventLoopGroup
    private let logger: Logger
    private let state: Locked<State>

    private struct State {
        var slots: [Task<RedisConnection, any Error>?]
        /// The slots' connections once made.
        var connected: [RedisConnection?]
        var next = 0
        /// When the server went down and why; `nil` while it is up.
        var down: (since: NIODeadline, retryAt: NIODeadline, reason: String)?
        var isShutDown = false
    }

    /// A client for the server in `configuration`; it connects on the first command.
    /// - Parameters:
    ///   - configuration: Where the server is and how long to wait for it.
    ///   - logger: Where changes between up and down go. Default: label `kingfisher.redis`.
    ///   - group: The event loops for the connections. Default: NIO's shared singleton.
    public init(
        configuration: Configuration, logger: Logger = Logger(label: "kingfisher.redis"),
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.configuration = configuration
        self.logger = logger
        self.group = group
        let count = max(1, configuration.connections)
        state = Locked(State(slots: Array(repeating: nil, count: count), connected: Array(repeating: nil, count: count)))
    }

    /// Whether commands are being sent (`false` while the server is down).
    public var isUp: Bool { state.withLock { $0.down == nil } }

    /// Sends `commands` together on one connection and returns their replies in order.
    func send(_ commands: [RESPCommand]) async throws(RedisError) -> [RESPValue] {
        let connection = try await connection()
        do {
            let replies = try await connection.send(commands, timeout: TimeAmount(configuration.commandTimeout))
            markUp()
            return replies
        } catch {
            markDown(error)
            throw error
        }
    }

    /// Sends one command and returns its reply; an error reply is thrown as `.refused`.
    func send(_ command: RESPCommand) async throws(RedisError) -> RESPValue {
        let reply = try await send([command])[0]
        if case .error(let message) = reply {
            throw RedisError(.refused, "redis at \(configuration.address) refused \(command.name): \(message)")
        }
        return reply
    }

    /// Closes every connection; commands after this fail.
    public func shutdown() {
        let slots = state.withLock { state in
            state.isShutDown = true
            defer {
                state.slots = state.slots.map { _ in nil }
                state.connected = state.connected.map { _ in nil }
            }
            return state.slots
        }
        for slot in slots.compactMap({ $0 }) {
            Task { try? await slot.value.close() }
        }
    }

    /// A connection from the pool, connecting one if its slot has none; fails at once while the
    /// server is down and the retry time has not come.
    private func connection() async throws(RedisError) -> RedisConnection {
        // A slot's connection may have closed since (a timeout, a restarted server). After a
        // restart every slot may hold a dead one: each is emptied once, and the round after
        // that connects.
        for _ in 0...(configuration.connections + 1) {
            if let connection = try await pickConnection(), connection.isActive { return connection }
        }
        throw RedisError(.unreachable, "the connections to redis at \(configuration.address) keep closing")
    }

    /// The connection of the next slot, connecting it if it has none; `nil` (and the slot
    /// emptied) when that connection has closed.
    private func pickConnection() async throws(RedisError) -> RedisConnection? {
        enum Pick {
            case use(Task<RedisConnection, any Error>)
            case refuse(RedisError)
        }
        let now = NIODeadline.now()
        let pick: Pick = state.withLock { state in
            if state.isShutDown { return .refuse(RedisError(.unreachable, "the redis client for \(configuration.address) is shut down")) }
            let index = state.next % state.slots.count
            state.next &+= 1
            if let slot = state.slots[index] { return .use(slot) }
            if let down = state.down, now < down.retryAt {
                return .refuse(RedisError(.unreachable, "redis at \(configuration.address) is down: \(down.reason)"))
            }
            if var down = state.down {
                // One connection attempt per retry interval; other commands keep failing fast.
                down.retryAt = now + TimeAmount(configuration.retryInterval)
                state.down = down
            }
            let connecting = Task { [configuration, group] in
                try await RedisConnection.connect(
                    host: configuration.host, port: configuration.port,
                    timeout: TimeAmount(configuration.connectTimeout), group: group)
            }
            state.slots[index] = connecting
            return .use(connecting)
        }
        switch pick {
        case .refuse(let error):
            throw error
        case .use(let task):
            let connection: RedisConnection
            do {
                connection = try await task.value
            } catch {
                forget(task)
                let failure = error as? RedisError ?? RedisError(.unreachable, "\(error)")
                markDown(failure)
                throw failure
            }
            guard connection.isActive else {
                forget(task)
                return nil
            }
            state.withLock { state in
                for index in state.slots.indices where state.slots[index] == task { state.connected[index] = connection }
            }
            return connection
        }
    }

    /// Empties the slot holding `task`, so that the next command in it connects again.
    private func forget(_ task: Task<RedisConnection, any Error>) {
        state.withLock { state in
            for index in state.slots.indices where state.slots[index] == task {
                state.slots[index] = nil
                state.connected[index] = nil
            }
        }
    }

    /// An open connection already made, if any: for commands sent from an event loop, which
    /// cannot wait to connect.
    func openConnection() -> RedisConnection? {
        state.withLock { state in state.connected.first { $0?.isActive == true } ?? nil }
    }

    private func markDown(_ error: RedisError) {
        guard error.kind == .unreachable || error.kind == .timedOut || error.kind == .protocolViolation else { return }
        let now = NIODeadline.now()
        let wentDown = state.withLock { state -> Bool in
            guard state.down == nil else { return false }
            state.down = (now, now + TimeAmount(configuration.retryInterval), error.description)
            return true
        }
        if wentDown {
            logger.warning(
                "\(error.description); carrying on without it, trying again every \(TimeAmount(configuration.retryInterval).seconds) s")
        }
    }

    private func markUp() {
        let downSince = state.withLock { state -> NIODeadline? in
            defer { state.down = nil }
            return state.down?.since
        }
        if let downSince {
            let seconds = Double((NIODeadline.now() - downSince).nanoseconds) / 1e9
            logger.notice("redis at \(configuration.address) answers again after \(String(format: "%.1f", seconds)) s down")
        }
    }
}
