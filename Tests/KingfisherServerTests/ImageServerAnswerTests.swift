// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherImaging
import KingfisherServer
import KingfisherTestKit
import Testing

/// Every answer of `kf serve`'s image URLs, against a loopback origin.
@Suite struct ImageServerAnswerTests {
    @Test func resizedJPEGHasEveryHeader() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            try await withImageService(testServiceConfiguration(directory: directory)) { service in
                let answer = try await service.get(
                    service.path(origin.url("/image/photo_baseline_420.jpg"), "resize(40x30,none)", format: .jpg))
                #expect(answer.status == 200)
                #expect(answer.header("Content-Type") == "image/jpeg")
                #expect(answer.header("Content-Length") == String(answer.body.count))
                #expect(answer.header("Cache-Control") == "public, max-age=31536000")
                #expect(answer.header("Vary") == nil, "a named format does not vary with Accept")
                let etag = try #require(answer.header("ETag"))
                #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && !etag.hasPrefix("W/"))
                let image = try KingfisherImage.decode(data: answer.body)
                #expect(image.format == .JPEG)
                #expect(image.pixelWidth == 40 && image.pixelHeight == 30)
            }
        }
    }

    @Test func acceptPicksAVIFThenWebPElseTheSourceFormat() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            try await withImageService(testServiceConfiguration(directory: directory)) { service in
                let path = service.path(origin.url("/image/photo_baseline_420.jpg"), "resize(40x30,none)")
                let avif = try await service.get(path, headers: [("Accept", "image/avif,image/webp,image/apng,*/*;q=0.8")])
                let webp = try await service.get(path, headers: [("Accept", "image/webp,*/*")])
                let any = try await service.get(path, headers: [("Accept", "*/*")])
                let none = try await service.get(path)
                let refused = try await service.get(path, headers: [("Accept", "image/avif;q=0, image/webp")])
                #expect(avif.header("Content-Type") == "image/avif")
                #expect(webp.header("Content-Type") == "image/webp")
                #expect(any.header("Content-Type") == "image/jpeg", "*/* alone accepts neither AVIF nor WebP")
                #expect(none.header("Content-Type") == "image/jpeg")
                #expect(refused.header("Content-Type") == "image/webp", "q=0 refuses AVIF")
                for answer in [avif, webp, any, none] {
                    #expect(answer.status == 200)
                    #expect(answer.header("Vary") == "Accept")
                }
                #expect(try KingfisherImage.decode(data: avif.body).format == .AVIF)
                #expect(try KingfisherImage.decode(data: webp.body).format == .WebP)
                let tags = Set([avif, webp, any].compactMap { $0.header("ETag") })
                #expect(tags.count == 3, "each negotiated format has its own ETag")
                #expect(any.header("ETag") == none.header("ETag"))
            }
        }
    }

    /// A format's largest side (WebP 16 383, JPEG 65 500, GIF 65 535): a negotiated or source
    /// format that cannot hold the result gives way to one that can; a named one is a 400.
    @Test func aResultTooLargeForItsFormatFallsBackOrIs400() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            try await withImageService(testServiceConfiguration(directory: directory)) { service in
                let source = origin.url("/image/photo_baseline_420.jpg")
                let panorama = try await service.get(service.path(source, "resize(16400x4,none)"), headers: [("Accept", "image/webp")])
                #expect(panorama.status == 200, "\(panorama.text)")
                #expect(panorama.header("Content-Type") == "image/jpeg", "WebP cannot hold 16 400 pixels: the source's format")
                #expect(try KingfisherImage.decode(data: panorama.body).pixelWidth == 16400)
                let tooWideForJPEG = try await service.get(service.path(source, "resize(65501x2,none)"))
                #expect(tooWideForJPEG.header("Content-Type") == "image/png", "\(tooWideForJPEG.text)")
                for (processing, format, limit) in [
                    ("resize(16400x4,none)", OutputFormat.webp, "16383"), ("resize(65501x2,none)", .jpg, "65500"),
                    ("resize(65536x2,none)", .gif, "65535"),
                ] {
                    let named = try await service.get(service.path(source, processing, format: format))
                    #expect(named.status == 400, "\(format.rawValue): \(named.status) \(named.text)")
                    #expect(named.text.contains("over the \(limit) pixels a side"), "\(named.text)")
                }
            }
        }
    }

    /// An error names what it is about in one printable line: a decoded source's control
    /// characters are written as escapes, never echoed.
    @Test func errorsEscapeControlCharactersOfTheSource() async throws {
        try await withTemporaryDirectory { directory in
            try await withImageService(testServiceConfiguration(directory: directory)) { service in
                let source = Data("ht\u{0}tp://127.0.0.1:9/\u{7}\u{1B}[31mc\u{85}d.png".utf8).base64EncodedString()
                    .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                    .replacingOccurrences(of: "=", with: "")
                let answer = try await service.get("/unsafe/-/\(source)")
                #expect(answer.status >= 400)
                let line = answer.text.dropLast()
                #expect(
                    !line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(answer.text.debugDescription)"
                )
                #expect(line.contains("'ht\\u{0}tp://127.0.0.1:9/\\u{7}\\u{1b}[31mc\\u{85}d.png'"), "\(answer.text.debugDescription)")
            }
        }
    }

    /// A source cut short says how much of it arrived, every time (the bytes that came while
    /// the download was still deciding on the head used to be dropped).
    @Test func aSourceCutShortSaysHowMuchArrived() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            try await withImageService(testServiceConfiguration(directory: directory)) { service in
                let size = try Fixtures.data("photo_baseline_420.jpg").count
                for side in 10..<20 {
                    let answer = try await service.get(
                        service.path(origin.url("/overlong/photo_baseline_420.jpg"), "resize(\(side)x\(side))"))
                    #expect(answer.status == 502)
                    #expect(answer.text.hasSuffix("after \(size) of \(size + 1000) bytes of the body\n"), "\(answer.text)")
                }
            }
        }
    }

    @Test func sourceFormatsTheServiceCannotWriteBecomeJPEGOrPNG() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            try await withImageService(testServiceConfiguration(directory: directory)) { service in
                let tiff = try await service.get(service.path(origin.url("/image/sample.tiff"), "resize(20x20,fit)"))
                #expect(tiff.status == 200)
                let type = try #require(tiff.header("Content-Type"))
                #expect(type == "image/jpeg" || type == "image/png")
                let alpha = try await service.get(service.path(origin.url("/image/photo_alpha.webp"), nil, format: .png))
                #expect(alpha.header("Content-Type") == "image/png")
                #expect(try KingfisherImage.decode(data: alpha.body).hasAlpha)
            }
        }
    }

    @Test func matchingIfNoneMatchGets304() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            try await withImageService(testServiceConfiguration(directory: directory)) { service in
                let path = service.path(origin.url("/image/photo_baseline_420.jpg"), "round(4)", format: .png)
                let first = try await service.get(path)
                let etag = try #require(first.header("ETag"))
                let same = try await service.get(path, headers: [("If-None-Match", etag)])
                #expect(same.status == 304)
                #expect(same.body.isEmpty)
                #expect(same.header("ETag") == etag)
                #expect(same.header("Cache-Control") == "public, max-age=31536000")
                let listed = try await service.get(path, headers: [("If-None-Match", "\"other\", W/\(etag)")])
                #expect(listed.status == 304, "weak comparison, any tag of the list")
                let other = try await service.get(path, headers: [("If-None-Match", "\"other\"")])
                #expect(other.status == 200)
                #expect(other.body == first.body)
            }
        }
    }

    @Test func headAnswersTheHeadersWithoutTheBody() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            try await withImageService(testServiceConfiguration(directory: directory)) { service in
                let path = service.path(origin.url("/image/photo_baseline_420.jpg"), nil, format: .webp)
                let get = try await service.get(path)
                let head = try await service.get(path, method: .HEAD)
                #expect(head.status == 200)
                #expect(head.body.isEmpty)
                #expect(head.header("Content-Length") == String(get.body.count))
                #expect(head.header("ETag") == get.header("ETag"))
                let post = try await service.get(path, method: .POST)
                #expect(post.status == 405)
                #expect(post.header("Allow") == "GET, HEAD")
            }
        }
    }

    @Test func badProcessingIs400WithTheGrammarError() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            try await withImageService(testServiceConfiguration(directory: directory)) { service in
                let source = origin.url("/image/photo_baseline_420.jpg")
                let unknown = try await service.get(service.path(source, "resize(40x30)|>sparkle(3)"))
                #expect(unknown.status == 400)
                #expect(unknown.text.contains("unknown processor 'sparkle'"))
                #expect(unknown.text.split(separator: "\n").count == 1, "one line: \(unknown.text)")
                let badSize = try await service.get(service.path(source, "resize(ax30)"))
                #expect(badSize.status == 400)
                let tooMany = try await service.get(service.path(source, Array(repeating: "blackwhite", count: 17).joined(separator: "|>")))
                #expect(tooMany.status == 400)
                #expect(tooMany.text.contains("17 steps"))
                let badSource = try await service.get("/unsafe/-/!!notbase64")
                #expect(badSource.status == 400)
                let ftp = try await service.get(service.path(URL(string: "ftp://127.0.0.1/x.jpg")!))
                #expect(ftp.status == 400)
                #expect(ftp.text.contains("not an absolute http or https URL"))
                let ext = try await service.get(service.path(source) + ".bmp")
                #expect(ext.status == 400)
                let shape = try await service.get("/unsafe/only-two")
                #expect(shape.status == 404)
                #expect(origin.totalRequests == 0, "nothing was fetched for a bad request")
                // Known only once the source is decoded: an output over the pixel limit.
                let huge = try await service.get(service.path(source, "resize(100000x100000,none)"))
                #expect(huge.status == 400, "\(huge.text)")
                #expect(huge.text.contains("ResizingImageProcessor"))
            }
        }
    }

    @Test func sourceFailuresMapToTheirStatuses() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            var configuration = testServiceConfiguration(directory: directory)
            configuration.maxSourcePixels = 10_000_000
            try await withImageService(configuration) { service in
                let cases: [(String, Int, String)] = [
                    ("/status/404", 404, "answered 404"),
                    ("/image/no-such-fixture.jpg", 404, "answered 404"),
                    ("/status/500", 502, "answered 500"),
                    ("/html", 422, "not an image"),
                    ("/image/random.bin", 422, "not"),
                    ("/image/jpeg_65000x65000.jpg", 413, "limit"),
                    ("/image/png_100000x100000.png", 413, "limit"),
                    ("/reset/photo_baseline_420.jpg", 502, "fetching"),
                ]
                for (path, status, phrase) in cases {
                    let answer = try await service.get(service.path(origin.url(path), "resize(10x10)"))
                    #expect(answer.status == status, "\(path): \(answer.text)")
                    #expect(answer.text.contains(phrase), "\(path): \(answer.text)")
                    #expect(answer.text.contains(origin.url(path).absoluteString), "names the source: \(answer.text)")
                    #expect(answer.text.split(separator: "\n").count == 1)
                    #expect(answer.header("Cache-Control") == "no-store")
                }
            }
        }
    }

    @Test func oversizedSourceBodyIs413() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            var configuration = testServiceConfiguration(directory: directory)
            configuration.maxSourceBytes = 4096
            try await withImageService(configuration) { service in
                let answer = try await service.get(service.path(origin.url("/image/photo_baseline_420.jpg")))
                #expect(answer.status == 413)
                #expect(answer.text.contains("4096"))
            }
        }
    }

    @Test func silentSourceIs504() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            var configuration = testServiceConfiguration(directory: directory)
            configuration.fetchTimeout = 1
            try await withImageService(configuration) { service in
                let answer = try await service.get(service.path(origin.url("/hang")))
                #expect(answer.status == 504)
                #expect(answer.text.contains("timed out"))
            }
        }
    }

    @Test func healthAndMetrics() async throws {
        try await withTestHTTPServerAndDirectory { origin, directory in
            try await withImageService(testServiceConfiguration(directory: directory)) { service in
                let health = try await service.get("/healthz")
                #expect(health.status == 200)
                #expect(health.text == "ok\n")
                let path = service.path(origin.url("/image/photo_baseline_420.jpg"), "blur(2)", format: .jpg)
                let first = try await service.get(path)
                _ = try await service.get(path)
                _ = try await service.get(service.path(origin.url("/status/404")))
                let metrics = try await service.get("/metrics").text
                #expect(metrics.contains(#"kf_requests_total{status="200"} 3"#), "\(metrics)")
                #expect(metrics.contains(#"kf_requests_total{status="404"} 1"#))
                #expect(metrics.contains(#"kf_results_total{level="source"} 1"#))
                #expect(metrics.contains(#"kf_results_total{level="memory"} 1"#))
                #expect(metrics.contains("kf_source_fetches_total 2"))
                #expect(metrics.contains("kf_request_duration_seconds_bucket"))
                #expect(metrics.contains("kf_queue_depth_requests 0"))
                let bytes = metrics.split(separator: "\n").first { $0.hasPrefix("kf_response_body_bytes_total ") }
                let counted = try #require(bytes.flatMap { Int($0.split(separator: " ")[1]) })
                #expect(counted >= 2 * first.body.count)
            }
        }
    }
}
