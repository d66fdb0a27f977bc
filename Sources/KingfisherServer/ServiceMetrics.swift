// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Prometheus

/// The service's Prometheus metrics, in a registry of its own (several services in one process,
/// as in tests, do not mix their counts), served as text at `/metrics`.
final class ServiceMetrics: Sendable {
    /// Where a result came from.
    enum ResultLevel: String, CaseIterable, Sendable {
        /// Encoded result in memory.
        case memory
        /// Encoded result on disk.
        case disk
        /// The processed image in memory, encoded again in another format.
        case processed
        /// The original from the disk or Redis (stored there by any node, or by another node
        /// while this one waited), processed again.
        case original
        /// The source fetched.
        case source
        /// Joined an identical request's work under way.
        case shared
        /// Encoded result from the Redis tier: made earlier by any node, or by another node
        /// while this one waited.
        case redis
    }

    /// How asking an origin about a stale source ended.
    enum Revalidation: String, CaseIterable, Sendable {
        /// `304`: the source is unchanged, every result kept.
        case notModified = "not_modified"
        /// A new body: a new version of the source.
        case changed
        /// The origin could not answer; the stale source stays in use.
        case staleServed = "stale_served"
        /// The origin could not answer, or answered an error, and the request failed.
        case failed
    }

    /// Where a purge of a source came from.
    enum PurgeOrigin: String, CaseIterable, Sendable {
        /// A `DELETE /purge/…` request to this node.
        case request
        /// Another node's purge, heard through Redis.
        case broadcast
    }

    let registry = PrometheusCollectorRegistry()
    private let purges: [PurgeOrigin: Counter]
    private let latency: DurationHistogram
    private let revalidations: [Revalidation: Counter]
    private let bytesOut: Counter
    private let levels: [ResultLevel: Counter]
    private let fetches: Counter
    private let fetchFailures: Counter
    private let rejected: Counter
    private let processingRuns: Counter
    private let connectionsClosedForRoom: Counter
    private let connectionsRefused: Counter
    private let memoryReleases: Counter
    private let pixelMemoryRefusals: Counter
    let queueDepth: Gauge
    let busySlots: Gauge
    let openConnections: Gauge

    init() {
        latency = registry.makeDurationHistogram(
            descriptor: MetricNameDescriptor(
                namespace: "kf", metricName: "request_duration", unitName: "seconds",
                helpText: "Time from request to response head, by request."),
            buckets: [
                .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
                .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
                .seconds(2.5), .seconds(5), .seconds(10),
            ])
        bytesOut = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "kf", metricName: "response_body_bytes", unitName: "total", helpText: "Bytes of response bodies sent."))
        levels = Self.counters(in: registry, "results", "Image results, by where they came from.", by: "level")
        revalidations = Self.counters(
            in: registry, "source_revalidations", "Stale sources asked about at their origin, by outcome.", by: "outcome")
        purges = Self.counters(in: registry, "purges", "Sources purged, by where the purge came from.", by: "origin")
        fetches = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "kf", metricName: "source_fetches", unitName: "total", helpText: "Source downloads that ended."))
        fetchFailures = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "kf", metricName: "source_fetch_failures", unitName: "total", helpText: "Source downloads that failed."))
        rejected = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "kf", metricName: "queue_rejections", unitName: "total", helpText: "Requests answered 503: the queue was full."))
        processingRuns = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "kf", metricName: "processing_runs", unitName: "total",
                helpText: "Results made: retrieved (from the source or a cache), processed and encoded."))
        queueDepth = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "kf", metricName: "queue_depth", unitName: "requests", helpText: "Requests waiting for a processing slot."))
        openConnections = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "kf", metricName: "connections_open", unitName: "connections", helpText: "Client connections open."))
        connectionsClosedForRoom = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "kf", metricName: "connections_closed_idle", unitName: "total",
                helpText: "Idle client connections closed to make room for new ones (at the connection limit)."))
        connectionsRefused = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "kf", metricName: "connections_refused", unitName: "total",
                helpText: "Client connections answered 503 and closed: every connection had a request in flight."))
        memoryReleases = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "kf", metricName: "memory_releases", unitName: "total",
                helpText: "Times the memory a burst of connections took was given back to the system."))
        pixelMemoryRefusals = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "kf", metricName: "pixel_memory_refusals", unitName: "total",
                helpText: "Requests refused because their pixels did not fit the pixel memory budget."))
        busySlots = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "kf", metricName: "processing_slots_busy", unitName: "slots", helpText: "Processing slots in use."))
    }

    /// Counts an answer with `status`, its latency and its body size.
    func recordResponse(status: Int, duration: Duration, bodyBytes: Int) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "kf", metricName: "requests", unitName: "total",
                helpText: "Requests answered, by status."),
            labels: [("status", String(status))]
        ).increment()
        latency.record(duration)
        if bodyBytes > 0 { bytesOut.increment(by: Int64(bodyBytes)) }
    }

    func recordResult(from level: ResultLevel) {
        levels[level]?.increment()
    }

    func recordRevalidation(_ outcome: Revalidation) {
        revalidations[outcome]?.increment()
    }

    func recordPurge(_ origin: PurgeOrigin) {
        purges[origin]?.increment()
    }

    func recordFetch(failed: Bool) {
        fetches.increment()
        if failed { fetchFailures.increment() }
    }

    func recordProcessingRun() {
        processingRuns.increment()
    }

    func recordRejection() {
        rejected.increment()
    }

    func recordConnectionClosedForRoom() {
        connectionsClosedForRoom.increment()
    }

    func recordConnectionRefused() {
        connectionsRefused.increment()
    }

    func recordMemoryRelease() {
        memoryReleases.increment()
    }

    func recordPixelMemoryRefusal() {
        pixelMemoryRefusals.increment()
    }

    /// A counter `kf_{name}_total` per case of `Label`, told apart by the label `label`.
    private static func counters<Label: CaseIterable & Hashable & RawRepresentable>(
        in registry: PrometheusCollectorRegistry, _ name: String, _ help: String, by label: String
    ) -> [Label: Counter] where Label.RawValue == String {
        var counters: [Label: Counter] = [:]
        for value in Label.allCases {
            counters[value] = registry.makeCounter(
                descriptor: MetricNameDescriptor(namespace: "kf", metricName: name, unitName: "total", helpText: help),
                labels: [(label, value.rawValue)])
        }
        return counters
    }

    /// The exposition text.
    func text() -> String {
        registry.emitToString()
    }
}
