// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher
import KingfisherServer
import KingfisherTestKit
import Testing

/// The playground page at `/`, in a real browser: headless Chromium opens it filled in from the
/// address (`#source=…&processing=…&format=…`), and the tests read the DOM its scripts left.
@Suite(.timeLimit(.minutes(10))) struct ImageServerPlaygroundTests {
    private static let processing = "resize(40x30,none)"

    private static func address(_ service: ImageServiceUnderTest, source: URL, extra: String = "") -> String {
        service.url("/#source=\(source.absoluteString)&processing=\(processing)&format=png\(extra)")
    }

    @Test func unsignedPageBuildsTheURLAndShowsTheImage() async throws {
        guard let chromium = HeadlessChromium.require() else { return }
        try await withTestHTTPServerAndDirectory { origin, directory in
            try await withImageService(testServiceConfiguration(directory: directory), reach: .socket) { service in
                let source = origin.url("/image/photo_baseline_420.jpg")
                let page = try await chromium.dom(of: Self.address(service, source: source))
                let expected = ImageURLPath.make(source: source, processing: Self.processing, format: .png, signer: nil)
                #expect(page.text(of: "url") == service.url(expected))
                #expect(page.attribute("data-state") == "loaded", "status: \(page.text(of: "status") ?? "-")")
                // The size the browser decoded, and what the service said the bytes are.
                #expect(page.attribute("data-width", of: "result-size") == "40")
                #expect(page.attribute("data-height", of: "result-size") == "30")
                #expect(page.text(of: "result-type") == "PNG")
                #expect(origin.requests("/image/photo_baseline_420.jpg") == 1)
            }
        }
    }

    @Test func anExpiryGoesIntoThePathAndAnExpiredURLShowsWhy() async throws {
        guard let chromium = HeadlessChromium.require() else { return }
        try await withTestHTTPServerAndDirectory { origin, directory in
            try await withImageService(testServiceConfiguration(directory: directory), reach: .socket) { service in
                let source = origin.url("/image/photo_baseline_420.jpg")
                let page = try await chromium.dom(of: Self.address(service, source: source, extra: "&expires=1000"))
                let expected = ImageURLPath.make(
                    source: source, processing: Self.processing, format: .png, signer: nil, expires: Date(timeIntervalSince1970: 1000))
                #expect(page.text(of: "url") == service.url(expected))
                #expect(page.attribute("data-unix", of: "expires-at") == "1000")
                #expect(page.attribute("data-state") == "error")
                let status = try #require(page.text(of: "status"))
                #expect(status.hasPrefix("403") && status.contains("the URL expired at 1970-01-01T00:16:40Z"), "status: \(status)")
                #expect(origin.requests("/image/photo_baseline_420.jpg") == 0)
            }
        }
    }

    @Test func aFailingSourceShowsTheServicesOneLineError() async throws {
        guard let chromium = HeadlessChromium.require() else { return }
        try await withTestHTTPServerAndDirectory { origin, directory in
            try await withImageService(testServiceConfiguration(directory: directory), reach: .socket) { service in
                let source = origin.url("/image/missing.png")
                let page = try await chromium.dom(of: Self.address(service, source: source))
                let answer = try await service.get(
                    ImageURLPath.make(source: source, processing: Self.processing, format: .png, signer: nil))
                #expect(answer.status == 404)
                let line = answer.text.trimmingCharacters(in: .whitespacesAndNewlines)
                #expect(line.contains("answered 404"))
                #expect(page.attribute("data-state") == "error")
                let status = try #require(page.text(of: "status"))
                #expect(status.hasPrefix("404") && status.hasSuffix(": \(line)"), "status: \(status)")
                #expect(page.attribute("data-width", of: "result-size") == "")
            }
        }
    }

    @Test func signedPageShowsThePathToSignAndNeverTheKey() async throws {
        guard let chromium = HeadlessChromium.require() else { return }
        try await withTestHTTPServerAndDirectory { origin, directory in
            let key = "playground-key-\(UUID().uuidString)"
            var configuration = testServiceConfiguration(directory: directory)
            configuration.allowUnsigned = false
            configuration.key = key
            try await withImageService(configuration, reach: .socket) { service in
                let served = try await service.get("/")
                #expect(served.status == 200)
                #expect(served.header("Content-Type") == "text/html; charset=utf-8")
                #expect(!served.text.contains(key))

                let source = origin.url("/image/photo_baseline_420.jpg")
                let signedPath = ImageURLPath.make(source: source, processing: Self.processing, format: .png, signer: URLSigner(key: key))
                let signature = String(signedPath.dropFirst().prefix { $0 != "/" })
                let pathToSign = String(signedPath.dropFirst(signature.count + 1))

                let page = try await chromium.dom(of: Self.address(service, source: source))
                #expect(!page.html.contains(key))
                #expect(page.text(of: "sign-path") == pathToSign)
                #expect(page.attribute("data-state") == "idle", "nothing to load before a signature is pasted")
                // The command the page shows, run with the key, signs the path as the service does.
                let command = try #require(page.text(of: "sign-command"))
                let signing = try await ProcessRun.run("/bin/sh", ["-c", "KF_SERVE_KEY='\(key)'; \(command)"])
                #expect(signing.status == 0, "\(signing.stderr)")
                #expect(signing.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == signature)

                // With the signature pasted (here, from the address), it loads the signed URL.
                let signed = try await chromium.dom(of: Self.address(service, source: source, extra: "&signed=\(signature)"))
                #expect(signed.text(of: "url") == service.url(signedPath))
                #expect(signed.attribute("data-state") == "loaded", "status: \(signed.text(of: "status") ?? "-")")
                #expect(signed.attribute("data-width", of: "result-size") == "40")
                #expect(signed.attribute("data-height", of: "result-size") == "30")

                // With an expiry, both commands the page shows sign the same path, expiry and all.
                let expiring = try await chromium.dom(of: Self.address(service, source: source, extra: "&expires=4102444800"))
                let expiringPath = try #require(expiring.text(of: "sign-path"))
                #expect(expiringPath.hasPrefix("/expires(4102444800)%7C%3E"))
                let bySSL = try await ProcessRun.run(
                    "/bin/sh", ["-c", "KF_SERVE_KEY='\(key)'; \(try #require(expiring.text(of: "sign-command")))"])
                let kfCommand = try #require(expiring.text(of: "kf-command"))
                #expect(kfCommand.hasPrefix("kf url ") && kfCommand.hasSuffix(" --expires-at 4102444800"))
                let byKF = try await ProcessRun.run(
                    "/bin/sh", ["-c", "export KF_SERVE_KEY='\(key)'; '\(BuiltExecutable.kf.path)'\(kfCommand.dropFirst(2))"])
                #expect(
                    byKF.stdout.trimmingCharacters(in: .newlines)
                        == "/\(bySSL.stdout.trimmingCharacters(in: .whitespacesAndNewlines))\(expiringPath)")
            }
        }
    }

    @Test func theCatalogueIsTheProcessingGrammar() async throws {
        try await withTemporaryDirectory { directory in
            try await withImageService(testServiceConfiguration(directory: directory), reach: .socket) { service in
                let served = try await service.get("/playground/catalogue.json")
                #expect(served.status == 200 && served.header("Content-Type") == "application/json")
                let catalogue = try #require(try JSONSerialization.jsonObject(with: Data(served.text.utf8)) as? [String: Any])
                let steps = try #require(catalogue["steps"] as? [[String: Any]])
                #expect(steps.compactMap { $0["name"] as? String } == ProcessorGrammar.standard.steps.map(\.name))
                let blur = try #require(steps.first { $0["name"] as? String == "blur" }?["arguments"] as? [[String: Any]])
                #expect(blur.first?["max"] as? Double == Double(ImageProcessorSpec.maxBlurRadius), "limits come from the table")
                let presets = try #require(catalogue["presets"] as? [[String: String]])
                #expect(presets.map { $0["name"] } == ProcessorGrammar.standard.presets.map(\.name))
                for preset in presets { #expect(throws: Never.self) { _ = try ImageProcessorSpec.processor(from: preset["spec"] ?? "") } }
                #expect((catalogue["formats"] as? [String])?.contains("png") == true)
                #expect(catalogue["grammar"] as? String == ImageProcessorSpec.grammar)
            }
        }
    }

    @Test func thePageIsStaticFilesUnderAPolicyOfItsOwn() async throws {
        try await withTemporaryDirectory { directory in
            try await withImageService(testServiceConfiguration(directory: directory), reach: .socket) { service in
                let page = try await service.get("/")
                #expect(page.status == 200 && page.text.contains("src=\"/playground/playground.js\""))
                #expect(page.header("Content-Security-Policy")?.contains("script-src 'self'") == true)
                let script = try await service.get("/playground/playground.js")
                #expect(script.status == 200 && script.text.contains("catalogue.json"))
                let outside = try await service.get("/playground/../../../Package.swift")
                #expect(outside.status >= 400 && !outside.text.contains("swift-tools-version"), "nothing outside the page's folder")
                #expect(try await service.get("/playground/missing.js").status == 404)
            }
        }
    }

    @Test func theStepMenuAndTheFormComeFromTheCatalogue() async throws {
        guard let chromium = HeadlessChromium.require() else { return }
        try await withTemporaryDirectory { directory in
            try await withImageService(testServiceConfiguration(directory: directory), reach: .socket) { service in
                // Optional arguments in any order (round, blend) still open as form rows.
                let spec = "round(50%,64x64,tl+br)|>blend(multiply,#FFCC00)|>crop(10x10,0,1)"
                let encoded = try #require(spec.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
                let page = try await chromium.dom(of: service.url("/#processing=\(encoded)"))
                for step in ProcessorGrammar.standard.steps {
                    #expect(page.html.contains("<option value=\"\(step.name)\">"), "\(step.name) is offered")
                }
                #expect(page.html.contains("<b>round</b>") && page.html.contains("<b>blend</b>") && page.html.contains("<b>crop</b>"))
                #expect(!page.html.contains("<b>text</b>"), "every step is shown as a form")
                #expect(page.html.contains("<button type=\"button\" class=\"chip\""), "presets")
            }
        }
    }
}
