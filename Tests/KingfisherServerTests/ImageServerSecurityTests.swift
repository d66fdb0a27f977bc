// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import KingfisherServer

/// Signed URLs and the refusal of sources on private networks (SSRF).
@Suite struct ImageServerSecurityTests {
    @Test func signatureIsHMACSHA256OfThePathAfterIt() async throws {
        let path = "/resize(300x200,fill)/aHR0cDovL2E.webp"
        let signature = URLSigner(key: "secret key").signature(forPath: path)
        // The same HMAC from openssl: the scheme is what any client can compute.
        let openssl = try await ProcessRun.run(
            "/bin/sh",
            [
                "-c",
                "printf '%s' '\(path)' | openssl dgst -sha256 -hmac 'secret key' -binary | base64 | tr '+/' '-_' | tr -d '='",
            ])
        #expect(openssl.status == 0, "\(openssl.stderr)")
        #expect(signature == openssl.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(URLSigner(key: "secret key").isValid(signature: signature, forPath: path))
        #expect(!URLSigner(key: "other key").isValid(signature: signature, forPath: path))
        #expect(!URLSigner(key: "secret key").isValid(signature: signature, forPath: path + "x"))
        #expect(!URLSigner(key: "secret key").isValid(signature: "short", forPath: path))
    }

    @Test func onlyCorrectlySignedURLsAreServedWithAKey() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            var configuration = testServiceConfiguration(directory: directory)
            configuration.allowUnsigned = false
            configuration.key = "k3y"
            try await withImageService(configuration) { service in
                let source = origin.url("/image/photo_baseline_420.jpg")
                let signed = ImageURLPath.make(source: source, processing: "resize(20x20)", format: .png, signer: URLSigner(key: "k3y"))
                #expect(try await service.get(signed).status == 200)
                let unsafe = try await service.get(
                    ImageURLPath.make(source: source, processing: "resize(20x20)", format: .png, signer: nil))
                #expect(unsafe.status == 403)
                #expect(unsafe.text.contains("unsigned URLs are not accepted"))
                let otherKey = ImageURLPath.make(source: source, processing: "resize(20x20)", format: .png, signer: URLSigner(key: "nope"))
                #expect(try await service.get(otherKey).status == 403)
                // The signature covers every byte after it: another format is another path.
                let signature = signed.split(separator: "/")[0]
                let tampered = "/\(signature)" + signed.dropFirst(signature.count + 1).replacingOccurrences(of: ".png", with: ".jpg")
                let answer = try await service.get(tampered)
                #expect(answer.status == 403)
                #expect(answer.text == "the signature does not match the path with any of the service's keys\n")
                // A bad signature is refused before anything else is looked at.
                #expect(try await service.get("/AAAA/resize(zz)/%%%").status == 403)
                #expect(origin.requests("/image/photo_baseline_420.jpg") == 1)
            }
        }
    }

    @Test func pathsSignedWithAnyOfTheKeysAreServedSoKeysRotate() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            var configuration = testServiceConfiguration(directory: directory)
            configuration.allowUnsigned = false
            configuration.keys = ["new key", "old key"]
            try await withImageService(configuration) { service in
                let source = origin.url("/image/photo_baseline_420.jpg")
                for key in ["new key", "old key"] {
                    let path = ImageURLPath.make(source: source, processing: "resize(20x20)", format: .png, signer: URLSigner(key: key))
                    #expect(try await service.get(path).status == 200, "signed with \(key)")
                }
                let retired = ImageURLPath.make(
                    source: source, processing: "resize(20x20)", format: .png, signer: URLSigner(key: "retired key"))
                let answer = try await service.get(retired)
                #expect(answer.status == 403)
                #expect(answer.text == "the signature does not match the path with any of the service's keys\n")
            }
        }
    }

    @Test func anExpiredURLIs403WithItsReasonAndItsExpiryIsSigned() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            var configuration = testServiceConfiguration(directory: directory)
            configuration.allowUnsigned = false
            configuration.key = "k3y"
            let signer = URLSigner(key: "k3y")
            try await withImageService(configuration) { service in
                let source = origin.url("/image/photo_baseline_420.jpg")
                let expiry = Date(timeIntervalSince1970: 1_700_000_000)
                let expired = ImageURLPath.make(source: source, processing: "resize(20x20)", format: .png, signer: signer, expires: expiry)
                #expect(expired.contains("/expires(1700000000)%7C%3Eresize(20x20)/"))
                let refused = try await service.get(expired)
                #expect(refused.status == 403)
                #expect(refused.text.hasPrefix("the URL expired at 2023-11-14T22:13:20Z ("), "\(refused.text)")
                #expect(refused.text.split(separator: "\n").count == 1)
                #expect(origin.requests("/image/photo_baseline_420.jpg") == 0, "an expired URL fetches nothing")

                // A URL that is still valid is served, and no cache is told to keep it longer.
                let valid = ImageURLPath.make(
                    source: source, processing: "resize(20x20)", format: .png, signer: signer, expires: Date(timeIntervalSinceNow: 120))
                let served = try await service.get(valid)
                #expect(served.status == 200)
                let maxAge = try #require(served.header("Cache-Control")?.split(separator: "=").last.flatMap { Int($0) })
                #expect((1...120).contains(maxAge), "max-age \(maxAge)")

                // The expiry is signed: moving it breaks the signature.
                let signature = expired.split(separator: "/")[0]
                let moved = expired.replacingOccurrences(of: "expires(1700000000)", with: "expires(4102444800)")
                #expect(moved.hasPrefix("/\(signature)/"))
                let movedAnswer = try await service.get(moved)
                #expect(movedAnswer.status == 403)
                #expect(movedAnswer.text.contains("signature does not match"))

                // An expiry that is not a time is a 400 that says so.
                let garbled = ImageURLPath.make(source: source, processing: "expires(soon)", format: .png, signer: signer)
                let garbledAnswer = try await service.get(garbled)
                #expect(garbledAnswer.status == 400)
                #expect(garbledAnswer.text.contains("expires(soon) is not a time"))
            }
        }
    }

    @Test func sourcesOnPrivateNetworksAreRefused() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            var configuration = testServiceConfiguration(directory: directory)
            configuration.allowPrivateNetworks = false
            try await withImageService(configuration) { service in
                let refused: [(String, String)] = [
                    (origin.url("/image/photo_baseline_420.jpg").absoluteString, "loopback"),
                    ("http://localhost:\(origin.port)/image/photo_baseline_420.jpg", "loopback"),
                    ("http://[::1]:\(origin.port)/image/photo_baseline_420.jpg", "loopback"),
                    ("http://10.20.30.40/a.jpg", "private"),
                    ("http://192.168.1.1/a.jpg", "private"),
                    ("http://172.16.0.1/a.jpg", "private"),
                    ("http://169.254.169.254/latest/meta-data", "link-local"),
                    ("http://[fe80::1]/a.jpg", "link-local"),
                    ("http://[fd00::1]/a.jpg", "private"),
                    ("http://[::ffff:127.0.0.1]/a.jpg", "loopback"),
                    ("http://0.0.0.0:\(origin.port)/a.jpg", "unspecified"),
                    ("http://2130706433:\(origin.port)/a.jpg", "loopback"),
                ]
                for (source, kind) in refused {
                    let answer = try await service.get(service.path(URL(string: source)!, "resize(10x10)"))
                    #expect(answer.status == 403, "\(source): \(answer.text)")
                    #expect(answer.text.contains(kind), "\(source): \(answer.text)")
                }
                #expect(origin.totalRequests == 0)
            }
        }
    }

    @Test func redirectFromAnAllowedSourceToLoopbackIsRefused() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            var configuration = testServiceConfiguration(directory: directory)
            configuration.allowPrivateNetworks = false
            // The origin itself is trusted (an internal image host); where it redirects is not.
            configuration.trustedPrivateSources = [origin.url("/redirect/").absoluteString]
            try await withImageService(configuration) { service in
                let answer = try await service.get(service.path(origin.url("/redirect/1/photo_baseline_420.jpg"), "resize(10x10)"))
                #expect(answer.status == 403, "\(answer.text)")
                #expect(answer.text.contains("redirect"))
                #expect(answer.text.contains("loopback"))
                #expect(origin.requests("/redirect/1/photo_baseline_420.jpg") == 1)
                #expect(origin.requests("/image/photo_baseline_420.jpg") == 0, "the redirect was not followed")
            }
        }
    }

    /// The allowed sources hold for every hop: a redirect is no way out of them.
    @Test func aRedirectOutOfTheAllowedSourcesIsRefused() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            var configuration = testServiceConfiguration(directory: directory)
            configuration.allowedSources = [origin.url("/redirect/").absoluteString]
            try await withImageService(configuration) { service in
                let answer = try await service.get(service.path(origin.url("/redirect/1/photo_baseline_420.jpg"), "resize(10x10)"))
                #expect(answer.status == 403, "\(answer.text)")
                #expect(answer.text.hasSuffix("/image/photo_baseline_420.jpg is outside the allowed sources\n"), "\(answer.text)")
                #expect(origin.requests("/image/photo_baseline_420.jpg") == 0, "the redirect was not followed")
            }
            configuration.allowedSources.append(origin.url("/image/").absoluteString)
            try await withImageService(configuration) { service in
                let answer = try await service.get(service.path(origin.url("/redirect/1/photo_baseline_420.jpg"), "resize(10x10)"))
                #expect(answer.status == 200, "a redirect within the allowed sources is followed: \(answer.text)")
            }
        }
    }

    /// A redirect to `file:`, `ftp:` or `gopher:` is refused as such, not taken for an empty image.
    @Test func aRedirectLeavingHTTPIsRefusedAsSuch() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            try await withImageService(testServiceConfiguration(directory: directory)) { service in
                for target in ["file:///etc/passwd", "ftp://127.0.0.1/a.png", "gopher://127.0.0.1:70/_x"] {
                    var source = URLComponents(url: origin.url("/redirect-to"), resolvingAgainstBaseURL: false)!
                    source.queryItems = [URLQueryItem(name: "location", value: target)]
                    let answer = try await service.get(service.path(source.url!, "-"))
                    #expect(answer.status == 403, "\(target): \(answer.status) \(answer.text)")
                    #expect(answer.text.hasSuffix("\(target) is not an http or https URL with a host\n"), "\(answer.text)")
                }
            }
        }
    }

    @Test func prefixesMatchByPartsNotByText() throws {
        let images = try SourcePrefix("http://127.0.0.1:8080/images/")
        let bare = try SourcePrefix("http://internal:8080")
        #expect(images.contains(URL(string: "http://127.0.0.1:8080/images/a.jpg")!))
        #expect(images.contains(URL(string: "HTTP://127.0.0.1:8080/images/sub/b.png?x=1")!))
        #expect(!images.contains(URL(string: "http://127.0.0.1:8080/images/../admin/x")!), "dot segments")
        #expect(!images.contains(URL(string: "http://127.0.0.1:8080/images/%2e%2e/admin/x")!), "encoded dot segments")
        #expect(!images.contains(URL(string: "http://127.0.0.1:8080/imagesX/a.jpg")!), "a segment boundary")
        #expect(!images.contains(URL(string: "http://127.0.0.1:8081/images/a.jpg")!))
        #expect(!images.contains(URL(string: "https://127.0.0.1:8080/images/a.jpg")!))
        #expect(bare.contains(URL(string: "http://internal:8080/anything")!))
        #expect(!bare.contains(URL(string: "http://internal:8080@169.254.169.254/latest/meta-data/")!), "user-info")
        #expect(!bare.contains(URL(string: "http://internal:80800/x")!))
        #expect(!bare.contains(URL(string: "http://internal.evil.example:8080/x")!))
        #expect(throws: SourcePrefix.Invalid.self) { try SourcePrefix("ftp://host/") }
    }

    @Test func aRedirectIntoATrustedPrefixIsTrustedOnlyFromATrustedSource() async throws {
        let policy = SourcePolicy(
            allowedPrefixes: [], allowsPrivateNetworks: false,
            trustedPrivatePrefixes: [try SourcePrefix("http://127.0.0.1:9/internal/")])
        let insideTrusted = URL(string: "http://127.0.0.1:9/internal/secret.png")!
        await #expect(throws: SourcePolicy.Refusal.self) {
            try await policy.checkRedirect(to: insideTrusted, from: URL(string: "http://93.184.216.34/a.jpg")!)
        }
        try await policy.checkRedirect(to: insideTrusted, from: URL(string: "http://127.0.0.1:9/internal/moved.png")!)
        await #expect(throws: SourcePolicy.Refusal.self) {
            try await policy.checkRedirect(to: URL(string: "http://127.0.0.1:9/other")!, from: insideTrusted)
        }
    }

    @Test func sourcesOutsideTheAllowedPrefixesAreRefused() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            var configuration = testServiceConfiguration(directory: directory)
            configuration.allowedSources = [origin.url("/image/").absoluteString]
            try await withImageService(configuration) { service in
                #expect(try await service.get(service.path(origin.url("/image/photo_baseline_420.jpg"))).status == 200)
                let outside = try await service.get(service.path(origin.url("/status/200")))
                #expect(outside.status == 403)
                #expect(outside.text.contains("outside the allowed sources"))
                let escaping = try await service.get(service.path(URL(string: origin.url("/image/").absoluteString + "../status/200")!))
                #expect(escaping.status == 403, "\(escaping.text)")
                #expect(origin.requests("/status/200") == 0)
            }
        }
    }
}
