// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A download's decisions, event by event, with no network, no threads and a clock the test
/// moves: the transport's events and the caller's answers go in, actions come out.
@Suite struct DownloadFetchMachineTests {
    let url = URL(string: "http://images.invalid/a.jpg")!
    let t0 = ContinuousClock.now

    /// A transport exchange that only records that it was stopped.
    final class Handle: TransportExchange {
        let cancelled = Locked(false)
        func cancel() { cancelled.withLock { $0 = true } }
    }

    func at(_ seconds: Double) -> ContinuousClock.Instant { t0.advanced(by: .seconds(seconds)) }

    func head(_ status: Int, _ fields: [(name: String, value: String)] = []) -> TransportResponse {
        TransportResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: fields)
    }

    func machine() -> DownloadFetchMachine {
        DownloadFetchMachine(request: URLRequest(url: url), now: t0)
    }

    /// Feeds `bytes` as one body chunk.
    func body(
        _ machine: inout DownloadFetchMachine, _ bytes: [UInt8], generation: Int = 1, limit: Int = 1 << 20, at time: Double = 0.2
    )
        -> DownloadFetchMachine.BodyAction
    {
        bytes.withUnsafeBytes { machine.receivedBody($0, generation: generation, limit: limit, followsScans: false, now: at(time)) }
    }

    @Test func aPlainExchangeSucceedsWithItsBodyAndMetrics() throws {
        var fetch = machine()
        #expect(fetch.willSend(URLRequest(url: url), resumed: nil, now: at(0)) == .send(generation: 1))
        let stopAtOnce = fetch.exchangeStarted(Handle(), generation: 1)
        #expect(!stopAtOnce)
        let action = fetch.receivedHead(
            head(200, [("Content-Length", "10")]), generation: 1, redirectTarget: nil, refusal: nil, hasDelegate: false, now: at(0.1))
        #expect(action == .accept)
        guard case .progressed(4, 10, nil) = body(&fetch, [1, 2, 3, 4]) else {
            Issue.record("no progress")
            return
        }
        guard case .progressed(10, 10, nil) = body(&fetch, [5, 6, 7, 8, 9, 10], at: 0.3) else {
            Issue.record("no progress")
            return
        }
        guard
            case .succeed(let data, let response, let metrics) = fetch.completed(
                generation: 1, error: nil, canAuthenticate: false, now: at(0.5))
        else {
            Issue.record("not a success")
            return
        }
        #expect(data == Data([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]) && response.statusCode == 200)
        #expect(metrics.totalRequestDuration == 0.5 && metrics.timeToFirstByte == 0.1 && metrics.redirectCount == 0)
        let (first, second) = (fetch.end(), fetch.end())
        #expect(first && !second, "ended once")
        #expect(fetch.willSend(URLRequest(url: url), resumed: nil, now: at(1)) == .endInterrupted)
    }

    @Test func aRedirectIsFollowedAndItsOldExchangeIsIgnored() throws {
        var fetch = machine()
        _ = fetch.willSend(URLRequest(url: url), resumed: nil, now: at(0))
        let target = URL(string: "http://images.invalid/b.jpg")!
        let action = fetch.receivedHead(
            head(302, [("Location", "/b.jpg")]), generation: 1, redirectTarget: target, refusal: nil, hasDelegate: true, now: at(0.1))
        #expect(action == .readRedirectBody, "a redirect's head is not the delegate's")
        guard case .keepGoing = body(&fetch, [UInt8](repeating: 0, count: 1000)) else {
            Issue.record("redirect body refused")
            return
        }
        guard case .redirect(target, _, _, 0) = fetch.completed(generation: 1, error: nil, canAuthenticate: false, now: at(0.2)) else {
            Issue.record("not followed")
            return
        }
        fetch.redirecting()
        #expect(fetch.willSend(URLRequest(url: target), resumed: nil, now: at(0.3)) == .send(generation: 2))
        // Late calls from the first exchange change nothing.
        #expect(
            fetch.receivedHead(head(200), generation: 1, redirectTarget: nil, refusal: nil, hasDelegate: false, now: at(0.4)) == .ignore)
        guard case .ignore = body(&fetch, [1], generation: 1) else {
            Issue.record("old body taken")
            return
        }
        guard case .ignore = fetch.completed(generation: 1, error: nil, canAuthenticate: false, now: at(0.4)) else {
            Issue.record("old completion taken")
            return
        }
        _ = fetch.receivedHead(head(200), generation: 2, redirectTarget: nil, refusal: nil, hasDelegate: false, now: at(0.5))
        guard case .succeed(_, _, let metrics) = fetch.completed(generation: 2, error: nil, canAuthenticate: false, now: at(0.6)) else {
            Issue.record("not a success")
            return
        }
        #expect(metrics.redirectCount == 1)
    }

    @Test func aRedirectBodyOverItsAllowanceStopsTheExchange() {
        var fetch = machine()
        _ = fetch.willSend(URLRequest(url: url), resumed: nil, now: at(0))
        _ = fetch.receivedHead(head(301), generation: 1, redirectTarget: url, refusal: nil, hasDelegate: false, now: at(0.1))
        // In small chunks, counted across them.
        let chunk = [UInt8](repeating: 0, count: 1024)
        for _ in 0..<(DownloadFetchMachine.redirectBodyAllowance / chunk.count) {
            guard case .keepGoing = body(&fetch, chunk) else {
                Issue.record("stopped within the allowance")
                return
            }
        }
        guard case .stop = body(&fetch, chunk) else {
            Issue.record("a large redirect body was read")
            return
        }
    }

    @Test func aBodyOverTheLimitFailsWithTheLimitAndTheBytesSeen() throws {
        var fetch = machine()
        _ = fetch.willSend(URLRequest(url: url), resumed: nil, now: at(0))
        _ = fetch.receivedHead(head(200), generation: 1, redirectTarget: nil, refusal: nil, hasDelegate: false, now: at(0.1))
        guard case .progressed = body(&fetch, [UInt8](repeating: 1, count: 6), limit: 10) else {
            Issue.record("refused early")
            return
        }
        guard case .stop = body(&fetch, [UInt8](repeating: 1, count: 6), limit: 10) else {
            Issue.record("over the limit")
            return
        }
        guard case .fail(let error) = fetch.completed(generation: 1, error: CancellationError(), canAuthenticate: false, now: at(0.3))
        else {
            Issue.record("not a failure")
            return
        }
        #expect(error.downloadFailure?.reason == .responseTooLarge(limit: 10, received: 12))
        #expect(fetch.keptPartialBody == nil, "a body stopped on purpose is not kept for a retry")
    }

    @Test func aRefusedHeadFailsWithItsReason() {
        var fetch = machine()
        _ = fetch.willSend(URLRequest(url: url), resumed: nil, now: at(0))
        let refusal = KingfisherError.responseError(reason: .invalidHTTPStatusCode(response: head(404).httpURLResponse))
        #expect(
            fetch.receivedHead(head(404), generation: 1, redirectTarget: nil, refusal: refusal, hasDelegate: true, now: at(0.1)) == .refuse)
        guard
            case .fail(.responseError(reason: .invalidHTTPStatusCode(let response))) =
                fetch.completed(generation: 1, error: nil, canAuthenticate: false, now: at(0.2))
        else {
            Issue.record("not the refusal")
            return
        }
        #expect(response.statusCode == 404)
    }

    @Test func theIdleTimeoutWaitsForTheDelegateButTheDurationLimitDoesNot() {
        var fetch = machine()
        _ = fetch.willSend(URLRequest(url: url), resumed: nil, now: at(0))
        #expect(fetch.isOverTime(now: at(3), idleTimeout: 2, durationLimit: 0), "idle network")
        #expect(
            fetch.receivedHead(head(200), generation: 1, redirectTarget: nil, refusal: nil, hasDelegate: true, now: at(1)) == .askDelegate)
        #expect(!fetch.isOverTime(now: at(100), idleTimeout: 2, durationLimit: 0), "waiting for the delegate is not idleness")
        #expect(fetch.isOverTime(now: at(100), idleTimeout: 2, durationLimit: 60))
        fetch.delegateAnswered(allowed: false, head: head(200).httpURLResponse, generation: 1, now: at(101))
        #expect(!fetch.isOverTime(now: at(102), idleTimeout: 2, durationLimit: 0))
        #expect(fetch.isOverTime(now: at(103.5), idleTimeout: 2, durationLimit: 0))
        guard
            case .fail(.responseError(reason: .cancelledByDelegate)) =
                fetch.completed(generation: 1, error: nil, canAuthenticate: false, now: at(102))
        else {
            Issue.record("the delegate's refusal is not the failure")
            return
        }
    }

    @Test func cancellingStopsTheExchangeAndEndsQuietly() {
        var fetch = machine()
        _ = fetch.willSend(URLRequest(url: url), resumed: nil, now: at(0))
        // While the exchange starts there is nothing to stop: its start sees the mark.
        guard case .nothing = fetch.interrupt(.cancelled) else {
            Issue.record("nothing to stop yet")
            return
        }
        let stopAtOnce = fetch.exchangeStarted(Handle(), generation: 1)
        #expect(stopAtOnce, "stopped as soon as it started")
        guard case .stopExchange = fetch.interrupt(.cancelled) else {
            Issue.record("the exchange is not stopped")
            return
        }
        guard case .endInterrupted = fetch.completed(generation: 1, error: CancellationError(), canAuthenticate: false, now: at(1)) else {
            Issue.record("not ended")
            return
        }
        #expect(fetch.timeout(now: at(1), idleTimeout: 2, durationLimit: 0) == nil, "a cancelled fetch fails nobody")
    }

    @Test func aTimeOutBetweenExchangesEndsAtOnceAndStaysATimeOut() throws {
        var fetch = machine()
        _ = fetch.willSend(URLRequest(url: url), resumed: nil, now: at(0))
        _ = fetch.exchangeStarted(Handle(), generation: 1)
        _ = fetch.receivedHead(head(302), generation: 1, redirectTarget: url, refusal: nil, hasDelegate: false, now: at(0.5))
        _ = fetch.completed(generation: 1, error: nil, canAuthenticate: false, now: at(0.6))
        fetch.redirecting()
        let awaiting = fetch.awaitCaller()
        #expect(awaiting)
        #expect(!fetch.isOverTime(now: at(50), idleTimeout: 2, durationLimit: 0), "the redirect handler is being waited for")
        #expect(fetch.isOverTime(now: at(61), idleTimeout: 2, durationLimit: 60))
        guard case .endNow = fetch.interrupt(.timedOut) else {
            Issue.record("no exchange will end it")
            return
        }
        guard case .nothing = fetch.interrupt(.timedOut) else {
            Issue.record("timed out twice")
            return
        }
        _ = fetch.interrupt(.cancelled)
        let timeout = try #require(fetch.timeout(now: at(61), idleTimeout: 2, durationLimit: 60))
        #expect(timeout.limit == .duration(limit: 60) && timeout.headReceived && timeout.bodyBytes == 0)
        #expect(fetch.willSend(URLRequest(url: url), resumed: nil, now: at(62)) == .endInterrupted, "the handler's late answer is dropped")
    }

    @Test func aResumedBodyStartsWithWhatWasKeptAndAMisplacedRangeFails() throws {
        let kept = ResumableDataStore.Entry(data: Data([1, 2, 3]), validator: "\"v1\"", storedAt: t0)
        var fetch = machine()
        _ = fetch.willSend(URLRequest(url: url), resumed: kept, now: at(0))
        let continuing = head(206, [("Content-Range", "bytes 3-5/6"), ("Content-Length", "3"), ("ETag", "\"v1\"")])
        #expect(
            fetch.receivedHead(continuing, generation: 1, redirectTarget: nil, refusal: nil, hasDelegate: false, now: at(0.1)) == .accept)
        guard case .progressed(6, 6, nil) = body(&fetch, [4, 5, 6]) else {
            Issue.record("the kept bytes do not count")
            return
        }
        guard case .succeed(let data, _, _) = fetch.completed(generation: 1, error: nil, canAuthenticate: false, now: at(0.3)) else {
            Issue.record("not a success")
            return
        }
        #expect(data == Data([1, 2, 3, 4, 5, 6]))

        var misplaced = machine()
        _ = misplaced.willSend(URLRequest(url: url), resumed: kept, now: at(0))
        let elsewhere = head(206, [("Content-Range", "bytes 0-5/6"), ("ETag", "\"v1\"")])
        #expect(
            misplaced.receivedHead(elsewhere, generation: 1, redirectTarget: nil, refusal: nil, hasDelegate: false, now: at(0.1)) == .refuse
        )
        guard case .fail(let error) = misplaced.completed(generation: 1, error: nil, canAuthenticate: false, now: at(0.2)) else {
            Issue.record("not a failure")
            return
        }
        #expect(error.downloadFailure?.reason == .misplacedRange(contentRange: "bytes 0-5/6", expectedStart: 3))
    }

    @Test func aBrokenBodyIsKeptForARetryAndSaysHowFarItGot() throws {
        var fetch = machine()
        _ = fetch.willSend(URLRequest(url: url), resumed: nil, now: at(0))
        _ = fetch.receivedHead(
            head(200, [("Content-Length", "8"), ("ETag", "\"e\"")]), generation: 1, redirectTarget: nil, refusal: nil, hasDelegate: false,
            now: at(0.1))
        _ = body(&fetch, [1, 2, 3])
        guard
            case .broke(_, let midBody?) = fetch.completed(generation: 1, error: CancellationError(), canAuthenticate: false, now: at(0.3))
        else {
            Issue.record("not a mid-body failure")
            return
        }
        #expect(midBody.received == 3 && midBody.expected == 8)
        let kept = try #require(fetch.keptPartialBody)
        #expect(kept.data == Data([1, 2, 3]) && kept.url == url)
    }

    @Test func a401IsAnsweredWithCredentialsOnce() {
        var fetch = machine()
        _ = fetch.willSend(URLRequest(url: url), resumed: nil, now: at(0))
        _ = fetch.receivedHead(head(401), generation: 1, redirectTarget: nil, refusal: nil, hasDelegate: false, now: at(0.1))
        guard case .authenticate(_, let challenge) = fetch.completed(generation: 1, error: nil, canAuthenticate: true, now: at(0.2)) else {
            Issue.record("no authentication")
            return
        }
        #expect(challenge.statusCode == 401)
        #expect(!fetch.isOverTime(now: at(30), idleTimeout: 2, durationLimit: 0), "the responder is being waited for")
        _ = fetch.willSend(URLRequest(url: url), resumed: nil, now: at(31))
        _ = fetch.receivedHead(head(401), generation: 2, redirectTarget: nil, refusal: nil, hasDelegate: false, now: at(31.1))
        guard case .succeed = fetch.completed(generation: 2, error: nil, canAuthenticate: true, now: at(31.2)) else {
            Issue.record("asked twice")
            return
        }
    }

    @Test func aLateDelegateAnswerDoesNotTouchTheNextExchange() {
        var fetch = machine()
        _ = fetch.willSend(URLRequest(url: url), resumed: nil, now: at(0))
        _ = fetch.receivedHead(head(401), generation: 1, redirectTarget: nil, refusal: nil, hasDelegate: true, now: at(0.1))
        _ = fetch.completed(generation: 1, error: nil, canAuthenticate: true, now: at(0.2))
        _ = fetch.willSend(URLRequest(url: url), resumed: nil, now: at(0.3))
        _ = fetch.receivedHead(head(200), generation: 2, redirectTarget: nil, refusal: nil, hasDelegate: false, now: at(0.4))
        // The first exchange's delegate answers only now, refusing.
        fetch.delegateAnswered(allowed: false, head: head(401).httpURLResponse, generation: 1, now: at(0.5))
        guard case .succeed = fetch.completed(generation: 2, error: nil, canAuthenticate: true, now: at(0.6)) else {
            Issue.record("the late answer stopped the next exchange")
            return
        }
    }

    @Test func anInterruptionBeforeTheRedirectHandlerIsAskedEndsTheFetch() {
        var fetch = machine()
        _ = fetch.willSend(URLRequest(url: url), resumed: nil, now: at(0))
        _ = fetch.exchangeStarted(Handle(), generation: 1)
        _ = fetch.receivedHead(head(302), generation: 1, redirectTarget: url, refusal: nil, hasDelegate: false, now: at(0.1))
        _ = fetch.completed(generation: 1, error: nil, canAuthenticate: false, now: at(0.2))
        // Timed out after the exchange ended and before the handler is asked: nothing to stop.
        guard case .nothing = fetch.interrupt(.timedOut) else {
            Issue.record("an exchange to stop")
            return
        }
        let awaiting = fetch.awaitCaller()
        #expect(!awaiting, "the handler is not asked: the fetch ends")
    }
}
