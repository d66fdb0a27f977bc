// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Kingfisher
import NIOCore

/// Reads RESP2 values from the bytes a Redis server sent, as they arrive.
///
/// ``parse(_:)`` consumes a value only when all of it is there; with a partial value it leaves
/// the buffer as it was and returns `nil`, to be called again when more bytes came.
struct RESPParser: Sendable {
    /// The largest bulk string accepted: a reply larger than this is a protocol error, not an
    /// allocation. Default 512 MiB, Redis's own limit for a string.
    var maxBulkLength = 512 << 20
    /// How deep arrays may nest. Default 8: the tier's replies nest at most twice.
    var maxDepth = 8

    /// Bytes that are not RESP, or a length over the limits.
    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    /// The next whole value in `buffer`, consumed; `nil` (nothing consumed) when it has not all
    /// arrived yet.
    func parse(_ buffer: inout ByteBuffer) throws(Malformed) -> RESPValue? {
        var copy = buffer
        guard let value = try value(from: &copy, depth: 0) else { return nil }
        buffer = copy
        return value
    }

    private func value(from buffer: inout ByteBuffer, depth: Int) throws(Malformed) -> RESPValue? {
        guard let marker = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) else { return nil }
        guard let line = try self.line(from: &buffer) else { return nil }
        switch marker {
        case UInt8(ascii: "+"):
            return .simpleString(line)
        case UInt8(ascii: "-"):
            return .error(line)
        case UInt8(ascii: ":"):
            return .integer(try integer(line))
        case UInt8(ascii: "$"):
            let length = try integer(line)
            if length == -1 { return .bulkString(nil) }
            guard length >= 0, length <= maxBulkLength else {
                throw Malformed(description: "a bulk string of \(length) bytes (the limit is \(maxBulkLength))")
            }
            guard buffer.readableBytes >= Int(length) + 2, let bytes = buffer.readSlice(length: Int(length)) else { return nil }
            guard buffer.readInteger(as: UInt16.self) == 0x0D0A else { throw Malformed(description: "a bulk string not ended by CRLF") }
            return .bulkString(bytes)
        case UInt8(ascii: "*"):
            let count = try integer(line)
            if count == -1 { return .array(nil) }
            guard count >= 0, count <= 1 << 20 else { throw Malformed(description: "an array of \(count) values") }
            guard depth < maxDepth else { throw Malformed(description: "arrays nested deeper than \(maxDepth)") }
            var values: [RESPValue] = []
            values.reserveCapacity(Int(count))
            for _ in 0..<count {
                guard let element = try value(from: &buffer, depth: depth + 1) else { return nil }
                values.append(element)
            }
            return .array(values)
        default:
            throw Malformed(description: "a reply starting with byte \(marker)")
        }
    }

    /// The line after the type marker, without CRLF; `nil` when its end has not arrived.
    private func line(from buffer: inout ByteBuffer) throws(Malformed) -> String? {
        let view = buffer.readableBytesView
        guard let cr = view.firstIndex(of: UInt8(ascii: "\r")) else {
            if view.count > 64 * 1024 { throw Malformed(description: "a line over 64 KiB without CRLF") }
            return nil
        }
        guard cr + 1 < view.endIndex else { return nil }
        guard view[cr + 1] == UInt8(ascii: "\n") else { throw Malformed(description: "a CR not followed by LF") }
        let text = String(decoding: view[(view.startIndex + 1)..<cr], as: UTF8.self)
        buffer.moveReaderIndex(forwardBy: cr + 2 - view.startIndex)
        return text
    }

    private func integer(_ text: String) throws(Malformed) -> Int64 {
        guard let value = Int64(text) else { throw Malformed(description: "\"\(text.prefix(40))\" is not an integer") }
        return value
    }
}
