// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Which sources the service fetches: the allowed prefixes, and no loopback, private or
/// link-local addresses unless allowed, checked for the source and for every redirect.
///
/// The check resolves the host itself before the download connects, for a clear refusal of
/// the URL; a name whose answer changes between the check and the connection (DNS rebinding)
/// is caught by the ``EgressProxy``, which checks again the address it connects to. A name that
/// does not resolve for the check is refused rather than left to the download's lookup.
struct SourcePolicy: Sendable {
    /// Prefixes a source must be under; empty: any http(s) URL.
    var allowedPrefixes: [SourcePrefix]
    /// Whether sources may be on loopback, private and link-local addresses.
    var allowsPrivateNetworks: Bool
    /// Prefixes whose sources may be on private networks even when others may not.
    var trustedPrivatePrefixes: [SourcePrefix]
    /// Where `local:///path` sources are read from; `nil`: they are refused.
    var localRoot: LocalRoot? = nil

    /// Why the service refuses to fetch a URL; the text is the one-line answer.
    struct Refusal: Error, Sendable, CustomStringConvertible {
        var description: String
        /// `true` when the host did not resolve (a source failure, `502`), `false` when the
        /// policy refuses the address or the prefix (`403`).
        var unresolvable = false
    }

    /// Checks the source URL of a request against the allowed prefixes: every request, cached
    /// or not, since the settings may have changed since a result was cached.
    func checkPrefix(of url: URL) throws(Refusal) {
        if url.scheme == LocalRoot.scheme {
            guard let localRoot else { throw Refusal(description: "local sources are not served here (no --local-root)") }
            _ = try localRoot.file(for: url)
            return
        }
        if !allowedPrefixes.isEmpty, !allowedPrefixes.contains(where: { $0.contains(url) }) {
            throw Refusal(description: "the source \(url.absoluteString.prefix(200)) is outside the allowed sources")
        }
    }

    /// Checks where a source is before it is fetched: only a fetch can reach a private network,
    /// so results already cached are served without resolving the host again.
    func checkAddress(of source: URL) async throws(Refusal) {
        if source.scheme == LocalRoot.scheme { return }
        try await checkAddress(of: source, trusted: trustedPrivatePrefixes.contains { $0.contains(source) })
    }

    /// Checks a URL a source redirected to. The prefixes and the address rule apply to every
    /// hop (as imgproxy's allowed sources do: a redirect is no way out of them), and a trusted
    /// private prefix exempts a hop only when the source itself is trusted: any source may not
    /// redirect into an internal origin.
    func checkRedirect(to url: URL, from source: URL) async throws(Refusal) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw Refusal(description: "the source redirected to \(url.absoluteString.prefix(200)), which is not http or https")
        }
        if !allowedPrefixes.isEmpty, !allowedPrefixes.contains(where: { $0.contains(url) }) {
            throw Refusal(description: "\(url.absoluteString.prefix(200)) is outside the allowed sources")
        }
        let trusted = trustedPrivatePrefixes.contains { $0.contains(source) } && trustedPrivatePrefixes.contains { $0.contains(url) }
        try await checkAddress(of: url, trusted: trusted)
    }

    private func checkAddress(of url: URL, trusted: Bool) async throws(Refusal) {
        guard !allowsPrivateNetworks, !trusted else { return }
        let text = url.absoluteString.prefix(200)
        guard let host = url.host, !host.isEmpty else {
            throw Refusal(description: "the source \(text) has no host")
        }
        let addresses: [NetworkAddress]
        do {
            addresses = try await HostResolver.addresses(of: host)
        } catch {
            throw Refusal(description: "cannot check where \(text) is: \(error.description)", unresolvable: true)
        }
        if let address = addresses.first(where: { $0.nonPublicKind != nil }), let kind = address.nonPublicKind {
            throw Refusal(description: "\(text) resolves to \(address), a \(kind) address")
        }
    }
}
