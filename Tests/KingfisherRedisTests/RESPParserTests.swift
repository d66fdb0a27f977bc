// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import KingfisherTestKit
import NIOCore
import Testing

@testable import Kingfisher
@testable import KingfisherRedis

/// The RESP2 reader and the command encoding, on bytes alone.
@Suite struct RESPParserTests {
    let parser = RESPParser()

    func parseAll(_ text: String) throws -> [RESPValue] {
        var buffer = ByteBuffer(string: text)
        var values: [RESPValue] = []
        while let value = try parser.parse(&buffer) { values.append(value) }
        #expect(buffer.readableBytes == 0, "everything consumed")
        return values
    }

    @Test func everyKindOfReplyIsRead() throws {
        let values = try parseAll(
            "+OK\r\n-ERR wrong type\r\n:42\r\n:-1\r\n$5\r\nhello\r\n$-1\r\n$0\r\n\r\n*2\r\n$1\r\na\r\n:7\r\n*-1\r\n*0\r\n")
        #expect(
            values == [
                .simpleString("OK"), .error("ERR wrong type"), .integer(42), .integer(-1),
                .bulkString(ByteBuffer(string: "hello")), .bulkString(nil), .bulkString(ByteBuffer()),
                .array([.bulkString(ByteBuffer(string: "a")), .integer(7)]), .array(nil), .array([]),
            ])
    }

    @Test func aBulkStringMayHoldAnyBytes() throws {
        let payload = ByteBuffer(bytes: (0...255).map { UInt8($0) } + Array("\r\n$3\r\n".utf8))
        var encoded = ByteBuffer(string: "$\(payload.readableBytes)\r\n")
        encoded.writeImmutableBuffer(payload)
        encoded.writeString("\r\n")
        #expect(try parser.parse(&encoded) == .bulkString(payload))
    }

    @Test func aPartialReplyConsumesNothingUntilItIsWhole() throws {
        let whole = Array("*3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$11\r\nhello world\r\n".utf8)
        for split in 1..<whole.count {
            var buffer = ByteBuffer(bytes: whole[..<split])
            #expect(try parser.parse(&buffer) == nil, "\(split) bytes are not a reply yet")
            #expect(buffer.readableBytes == split)
            buffer.writeBytes(whole[split...])
            let value = try parser.parse(&buffer)
            #expect(value?.summary == "an array of 3")
            #expect(buffer.readableBytes == 0)
        }
    }

    @Test func malformedRepliesAreRefusedSayingWhy() {
        var limited = RESPParser()
        limited.maxBulkLength = 10
        let cases: [(RESPParser, String, String)] = [
            (parser, "?what\r\n", "a reply starting with byte 63"),
            (parser, ":12x\r\n", "\"12x\" is not an integer"),
            (parser, "+OK\rX", "a CR not followed by LF"),
            (parser, "$3\r\nabcXY", "a bulk string not ended by CRLF"),
            (limited, "$11\r\n", "a bulk string of 11 bytes (the limit is 10)"),
            (parser, String(repeating: "*1\r\n", count: 9) + ":1\r\n", "arrays nested deeper than 8"),
        ]
        for (parser, text, reason) in cases {
            var buffer = ByteBuffer(string: text)
            #expect(throws: RESPParser.Malformed.self, "\(text)") { _ = try parser.parse(&buffer) }
            do { _ = try parser.parse(&buffer) } catch { #expect(error.description == reason) }
        }
    }

    @Test func aCommandIsAnArrayOfBulkStrings() {
        var buffer = ByteBuffer()
        RESPCommand("SET", "key", "two words", "PX", "100").write(to: &buffer)
        #expect(String(buffer: buffer) == "*5\r\n$3\r\nSET\r\n$3\r\nkey\r\n$9\r\ntwo words\r\n$2\r\nPX\r\n$3\r\n100\r\n")
    }
}
