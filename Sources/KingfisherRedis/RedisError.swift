// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Kingfisher
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

/// Why a Redis command failed, in one line that names the server.
public struct RedisError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure it was.
    public enum Kind: Sendable {
        /// No connection: refused, reset, closed, or connecting timed out.
        case unreachable
        /// The server did not answer within the command timeout.
        case timedOut
        /// The server answered with an error reply (`-ERR …`).
        case refused
        /// The server sent bytes that are not RESP, or a reply nobody asked for.
        case protocolViolation
    }

    /// What kind of failure it was.
    public let kind: Kind
    /// What happened, naming the server.
    public let description: String

    init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }

    /// A transport error in words: NIO's `IOError` names the system call, which says less than
    /// its errno's text.
    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as IOError:
            return String(cString: strerror(error.errnoCode)).lowercased()
        case let error as NIOConnectionError:
            // One attempt per address: the last one's reason, or the lookup that found none.
            if let last = error.connectionErrors.last?.error { return describe(last) }
            return "the DNS lookup of \(error.host) found no address"
        default:
            return "\(error)"
        }
    }
}
