// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher

extension ImageService {
    /// The version of `source`'s content a request is served from, asking the origin once its
    /// state is stale (``SourceFreshness``); `nil` for the content first seen, whose keys are the
    /// source's alone, and for a local source, which has no origin to ask.
    func sourceVersion(of source: URL) async throws(ServiceError) -> String? {
        guard source.scheme != LocalRoot.scheme else { return nil }
        if let fresh = freshness.freshState(of: source) { return fresh.version.isEmpty ? nil : fresh.version }
        do {
            let version = try await freshness.state(
                of: source, ask: { [self] validators in try await askOrigin(about: source, validators: validators) },
                keep: { [self] body, state in await keepOriginal(body, of: source, state: state) }
            ).version
            return version.isEmpty ? nil : version
        } catch {
            throw fetchError(error, source: source)
        }
    }

    /// Where `source`'s original of `version` is kept in the original tiers: its address, then
    /// the version, if any.
    static func originalKey(of source: URL, version: String?) -> String {
        version.map { "\(source.absoluteString)#\($0)" } ?? source.absoluteString
    }

    /// Whether a failure to ask the origin is an outage (it could not be reached, timed out or
    /// answered `5xx`), not an answer about the source (`404`, a refusal of the policy).
    @Sendable static func isOutage(_ error: any Error) -> Bool {
        guard let error = error as? KingfisherError else { return false }
        if case .responseError(reason: .invalidHTTPStatusCode(let response)) = error { return response.statusCode >= 500 }
        switch error.downloadFailure?.reason {
        case .connectionRefused, .connectionReset, .connectTimedOut, .unreachable, .connectFailed, .hostNotFound, .closedByServer,
            .closedBeforeEndOfResponse, .timedOut, .invalidHTTP:
            return true
        default:
            return false
        }
    }

    /// The origin's answer for `source`: `304` to `validators`, or the source as it is now.
    private func askOrigin(about source: URL, validators: HTTPValidators?) async throws -> SourceRevalidation {
        try await checkAddress(of: source)
        let request = RetrievalRequest(
            source: .network(KF.ImageResource(downloadURL: source)), processor: DefaultImageProcessor.default,
            redirectHandler: PolicyRedirects(policy: policy, source: source))
        return try await pipeline.revalidate(source, as: request, validators: validators)
    }

    /// A new body of `source`, kept in the original tiers under its version, for the retrieval
    /// that follows; a `no-store` response is not kept (that retrieval fetches it again).
    private func keepOriginal(_ body: Data, of source: URL, state: SourceState) async {
        guard state.record.isStorable else { return }
        let key = Self.originalKey(of: source, version: state.version.isEmpty ? nil : state.version)
        for tier in pipeline.originalTiers {
            try? await tier.put(body, forKey: key, expiration: .days(configuration.diskCacheDays))
        }
    }
}
