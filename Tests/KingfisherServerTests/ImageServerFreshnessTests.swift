// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import KingfisherServer

/// Sources are used while fresh, revalidated once stale: a `304` keeps what was made from them,
/// a changed source replaces it. The service's clock is moved by hand.
@Suite struct ImageServerFreshnessTests {
    private static let origin = "/cacheable/photo_baseline_420.jpg"

    /// Runs `body` with an origin and a service using sources for `minSourceTTL` seconds at least.
    private func withService(
        minSourceTTL: TimeInterval, _ body: @Sendable (TestHTTPServer, ImageServiceUnderTest) async throws -> Void
    ) async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            var configuration = testServiceConfiguration(directory: directory)
            configuration.minSourceTTL = minSourceTTL
            try await withImageService(configuration) { service in try await body(origin, service) }
        }
    }

    @Test func aChangedOriginIsSeenAfterItsMaxAgeAndAnUnchangedOneCostsA304() async throws {
        try await withService(minSourceTTL: 0) { origin, service in
            let path = service.path(origin.url("\(Self.origin)?cc=max-age%3D60"), "resize(40x30)", format: .jpg)
            func runs() async throws -> String? {
                try await service.get("/metrics").text.split(separator: "\n").first { $0.hasPrefix("kf_processing_runs_total ") }
                    .map(String.init)
            }
            let first = try await service.get(path)
            #expect(first.status == 200, "\(first.text)")
            let firstTag = try #require(first.header("ETag"))

            // Within its max-age the origin is not asked.
            service.slots.sourceClock.advance(59)
            #expect(try await service.get(path).header("ETag") == firstTag)
            #expect(origin.statuses(Self.origin) == [200])

            // Stale and unchanged: one conditional request, a 304, no processing.
            service.slots.sourceClock.advance(2)
            let revalidated = try await service.get(path)
            #expect(revalidated.status == 200 && revalidated.header("ETag") == firstTag)
            #expect(origin.statuses(Self.origin) == [200, 304])
            #expect(origin.headers(Self.origin)["if-none-match"] == "\"photo_baseline_420.jpg\"")
            #expect(try await runs() == "kf_processing_runs_total 1")
            // The 304 renewed the source for another max-age.
            service.slots.sourceClock.advance(59)
            _ = try await service.get(path)
            #expect(origin.statuses(Self.origin) == [200, 304])

            // Stale and changed: the new image is fetched and processed; its ETag is new.
            origin.replaceFixture(of: Self.origin, with: "photo_baseline_444.jpg")
            service.slots.sourceClock.advance(2)
            let changed = try await service.get(path)
            #expect(changed.status == 200 && changed.header("ETag") != firstTag)
            #expect(origin.statuses(Self.origin) == [200, 304, 200])
            #expect(try await runs() == "kf_processing_runs_total 2")
            // Every processing of the source sees the new one; the old answers are gone.
            let again = try await service.get(path)
            #expect(again.header("ETag") == changed.header("ETag") && again.body == changed.body)
            let other = try await service.get(service.path(origin.url("\(Self.origin)?cc=max-age%3D60"), "resize(20x15)", format: .png))
            #expect(other.status == 200)
            #expect(origin.statuses(Self.origin) == [200, 304, 200], "the changed original was kept for the others")
            let metrics = try await service.get("/metrics").text
            #expect(metrics.contains(#"kf_source_revalidations_total{outcome="not_modified"} 1"#), "\(metrics)")
            #expect(metrics.contains(#"kf_source_revalidations_total{outcome="changed"} 1"#))
        }
    }

    /// `--min-source-ttl` holds even a `no-cache` source; an origin that cannot be reached leaves
    /// a stale source in use, and is asked again once the minimum TTL has passed.
    @Test func theMinimumTTLSparesTheOriginAndAnUnreachableOneLeavesTheStaleSource() async throws {
        try await withService(minSourceTTL: 300) { origin, service in
            let uncached = service.path(origin.url("\(Self.origin)?cc=no-cache"), "resize(40x30)", format: .jpg)
            #expect(try await service.get(uncached).status == 200)
            service.slots.sourceClock.advance(299)
            #expect(try await service.get(uncached).status == 200)
            #expect(origin.statuses(Self.origin) == [200])
            service.slots.sourceClock.advance(2)
            #expect(try await service.get(uncached).status == 200)
            #expect(origin.statuses(Self.origin) == [200, 304])

            let other = "/cacheable/photo_baseline_444.jpg"
            let kept = service.path(origin.url("\(other)?cc=max-age%3D10"), "resize(40x30)", format: .jpg)
            let first = try await service.get(kept)
            await origin.goAway()
            service.slots.sourceClock.advance(301)
            let stale = try await service.get(kept)
            #expect(stale.status == 200 && stale.body == first.body, "\(stale.text)")
            #expect(origin.statuses(other) == [200])
            func staleServed() async throws -> Bool {
                try await service.get("/metrics").text.contains(#"kf_source_revalidations_total{outcome="stale_served"} 1"#)
            }
            #expect(try await staleServed())
            // The origin is not asked again by every request, but once the minimum TTL has passed.
            service.slots.sourceClock.advance(299)
            #expect(try await service.get(kept).body == first.body)
            #expect(try await staleServed(), "asked again within the minimum TTL")
            service.slots.sourceClock.advance(2)
            #expect(try await service.get(kept).body == first.body)
            #expect(try await service.get("/metrics").text.contains(#"kf_source_revalidations_total{outcome="stale_served"} 2"#))
        }
    }

    /// A source the origin no longer has is not served from what was kept: its `404` is passed on.
    @Test func aSourceGoneAtTheOriginIsNotServedStale() async throws {
        try await withService(minSourceTTL: 0) { origin, service in
            let path = service.path(origin.url("\(Self.origin)?cc=max-age%3D10"), "resize(40x30)", format: .jpg)
            #expect(try await service.get(path).status == 200)
            origin.replaceFixture(of: Self.origin, with: "no_such_fixture.jpg")
            service.slots.sourceClock.advance(11)
            let gone = try await service.get(path)
            #expect(gone.status == 404, "\(gone.text)")
            #expect(origin.statuses(Self.origin) == [200, 404])
            #expect(try await service.get("/metrics").text.contains(#"kf_source_revalidations_total{outcome="failed"} 1"#))
        }
    }

    @Test func sourceTTLsAreChecked() {
        var configuration = ImageServerConfiguration()
        configuration.minSourceTTL = 100
        configuration.maxSourceTTL = 10
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
        configuration.maxSourceTTL = .infinity
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
    }
}
