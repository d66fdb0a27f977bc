// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Kingfisher
import NIOCore

/// One value of the Redis serialization protocol (RESP2), as a server sends it.
enum RESPValue: Sendable, Equatable {
    /// `+OK`.
    case simpleString(String)
    /// `-ERR …`: the server refused the command.
    case error(String)
    /// `:1`.
    case integer(Int64)
    /// `$n` and n bytes; `nil` for the null bulk string (`$-1`, a missing key).
    case bulkString(ByteBuffer?)
    /// `*n` and n values; `nil` for the null array (`*-1`).
    case array([RESPValue]?)

    /// The bulk string's bytes, or `nil` for anything else.
    var bytes: ByteBuffer? {
        if case .bulkString(let buffer?) = self { return buffer }
        return nil
    }

    /// A one-line description for errors: what the server answered, without a payload's bytes.
    var summary: String {
        switch self {
        case .simpleString(let text): "+\(text)"
        case .error(let text): "-\(text)"
        case .integer(let value): ":\(value)"
        case .bulkString(let buffer): buffer.map { "a \($0.readableBytes)-byte string" } ?? "nil"
        case .array(let values): values.map { "an array of \($0.count)" } ?? "a nil array"
        }
    }
}

/// A command as RESP sends it: an array of bulk strings.
struct RESPCommand: Sendable {
    /// The arguments, the command's name first.
    var arguments: [ByteBuffer]

    init(_ name: String, _ arguments: [ByteBuffer] = []) {
        self.arguments = [ByteBuffer(string: name)] + arguments
    }

    init(_ name: String, _ arguments: String...) {
        self.init(name, arguments.map { ByteBuffer(string: $0) })
    }

    /// The command's name, for errors.
    var name: String { String(buffer: arguments[0]) }

    /// Appends the command's encoding to `buffer`.
    func write(to buffer: inout ByteBuffer) {
        buffer.writeStaticString("*")
        buffer.writeString(String(arguments.count))
        buffer.writeStaticString("\r\n")
        for argument in arguments {
            buffer.writeStaticString("$")
            buffer.writeString(String(argument.readableBytes))
            buffer.writeStaticString("\r\n")
            buffer.writeImmutableBuffer(argument)
            buffer.writeStaticString("\r\n")
        }
    }
}
