// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Kingfisher
import NIOCore

/// The channel handler under ``RedisConnection``: writes command batches, parses replies, and
/// completes each command's promise in order.
///
/// Only the channel's event loop touches its state.
final class RedisCommandHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = Batch
    typealias OutboundOut = ByteBuffer

    /// Commands written together, with a promise each for its reply.
    struct Batch {
        var commands: [RESPCommand]
        var promises: [EventLoopPromise<RESPValue>]
    }

    private let peer: String
    private let onPush: (@Sendable (RESPValue) -> Void)?
    private let parser = RESPParser()
    private var received: ByteBuffer?
    private var waiting = CircularBuffer<EventLoopPromise<RESPValue>>()
    private var failure: RedisError?

    init(peer: String, onPush: (@Sendable (RESPValue) -> Void)?) {
        self.peer = peer
        self.onPush = onPush
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let batch = unwrapOutboundIn(data)
        if let failure {
            for promise in batch.promises { promise.fail(failure) }
            promise?.fail(failure)
            return
        }
        var buffer = context.channel.allocator.buffer(capacity: 256)
        for command in batch.commands { command.write(to: &buffer) }
        waiting.append(contentsOf: batch.promises)
        context.write(wrapOutboundOut(buffer), promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        if received == nil {
            received = bytes
        } else {
            received!.writeBuffer(&bytes)
        }
        do {
            while var buffer = received, let value = try parser.parse(&buffer) {
                received = buffer.readableBytes > 0 ? buffer : nil
                deliver(value, context: context)
            }
            if let buffer = received, buffer.readerIndex > 64 * 1024 {
                // Keep a long partial reply from holding the bytes already parsed.
                var compact = context.channel.allocator.buffer(capacity: buffer.readableBytes)
                compact.writeImmutableBuffer(buffer)
                received = compact
            }
        } catch {
            fail(context: context, RedisError(.protocolViolation, "redis at \(peer) sent \(error.description)"))
        }
    }

    private func deliver(_ value: RESPValue, context: ChannelHandlerContext) {
        if let onPush, case .array(let parts?) = value, parts.first?.bytes.map({ String(buffer: $0) }) == "message" {
            onPush(value)
            return
        }
        guard let promise = waiting.popFirst() else {
            fail(context: context, RedisError(.protocolViolation, "redis at \(peer) sent \(value.summary) that no command asked for"))
            return
        }
        promise.succeed(value)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        let error = failure ?? RedisError(.unreachable, "the connection to redis at \(peer) is closed")
        while let promise = waiting.popFirst() { promise.fail(error) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(context: context, failure ?? RedisError(.unreachable, "redis at \(peer) closed the connection"))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(context: context, error as? RedisError ?? RedisError(.unreachable, "redis at \(peer) failed: \(RedisError.describe(error))"))
    }

    /// Fails every waiting command and closes the connection: after a timeout or a parse error,
    /// the replies that follow can no longer be matched to commands.
    private func fail(context: ChannelHandlerContext, _ error: RedisError) {
        if failure == nil { failure = error }
        while let promise = waiting.popFirst() { promise.fail(error) }
        received = nil
        if context.channel.isActive { context.close(promise: nil) }
    }
}
