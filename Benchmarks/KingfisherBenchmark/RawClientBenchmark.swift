// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// `kf-bench ahc LIST`: downloads every URL in LIST with AsyncHTTPClient alone, 8 at a time,
/// through its callback API and into one `Data` per body (what the downloader's transport
/// does), and prints `downloaded=<n> bytes=<total> seconds=<s>`: the floor under
/// `kf-bench download`, so the report can show what Kingfisher's own code costs.
enum RawClientBenchmark {
    /// Collects one body.
    final class BodyCollector: HTTPClientResponseDelegate, @unchecked Sendable {
        // Touched only on the request's event loop, one callback at a time.
        private var body = Data()

        func didReceiveHead(task: HTTPClient.Task<Int>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
            if let length = head.headers.first(name: "content-length").flatMap(Int.init) { body.reserveCapacity(length) }
            return task.eventLoop.makeSucceededVoidFuture()
        }

        func didReceiveBodyPart(task: HTTPClient.Task<Int>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
            buffer.withUnsafeReadableBytes { body.append(contentsOf: $0) }
            return task.eventLoop.makeSucceededVoidFuture()
        }

        func didFinishRequest(task: HTTPClient.Task<Int>) throws -> Int { body.count }
    }

    /// Hands out the next URL and totals the results.
    final class Progress: @unchecked Sendable {
        private let lock = NSLock()
        private var next = 0
        private var finished = 0
        private var bytes = 0

        func take(from urls: [URL]) -> URL? {
            lock.lock()
            defer { lock.unlock() }
            guard next < urls.count else { return nil }
            next += 1
            return urls[next - 1]
        }

        /// Adds one result; true for the last of `count`.
        func finish(bytes size: Int, of count: Int) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            finished += 1
            bytes += size
            return finished == count
        }

        var totals: (count: Int, bytes: Int) {
            lock.lock()
            defer { lock.unlock() }
            return (finished, bytes)
        }
    }

    static func run(list: String) async {
        guard let text = try? String(contentsOfFile: list, encoding: .utf8) else { fail("cannot read \(list)") }
        let urls = text.split(separator: "\n").compactMap { URL(string: String($0)) }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let progress = Progress()
        let start = ContinuousClock.now
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            @Sendable func launch() {
                guard let url = progress.take(from: urls) else { return }
                guard let request = try? HTTPClient.Request(url: url) else { fail("bad URL \(url)") }
                client.execute(request: request, delegate: BodyCollector()).futureResult.whenComplete { result in
                    guard case .success(let size) = result else { fail("\(url): \(result)") }
                    if progress.finish(bytes: size, of: urls.count) { done.resume() } else { launch() }
                }
            }
            for _ in 0..<8 { launch() }
        }
        let elapsed = ContinuousClock.now - start
        let (count, bytes) = progress.totals
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("downloaded=\(count) bytes=\(bytes) seconds=\(String(format: "%.3f", seconds))")
        try? await client.shutdown()
    }
}
