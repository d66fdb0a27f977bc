// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher

// kf-bench: in-process timings for the benchmark script.
//   kf-bench decode FILE --iterations N       full decode, prints decode_ms_per_iter=<ms>
//   kf-bench thumbnail FILE SIZE --iterations N  downsampled decode, prints thumbnail_ms_per_iter=<ms>
//   kf-bench colour FILE --iterations N          decodes keeping the profile and converting it to sRGB, in
//                                                 turn; prints the medians decode_kept_ms_per_iter and
//                                                 decode_converted_ms_per_iter
//   kf-bench resize FILE WxH --iterations N      Lanczos resize of the decoded image, prints resize_ms_per_iter=<ms>
//   kf-bench blur FILE RADIUS --iterations N     blur of the decoded image, prints blur_ms_per_iter=<ms>
//   kf-bench rotate FILE DEGREES --iterations N  quarter turn of the decoded image, prints rotate_ms_per_iter=<ms>
//   kf-bench sharpen FILE SIGMA --iterations N   unsharp mask of the decoded image, prints sharpen_ms_per_iter=<ms>
//   kf-bench maxbytes FILE                       maxbytes searches on FILE at 1200x900 (JPEG and WebP, four
//                                                 bounds each), prints encodes and milliseconds per search
//   kf-bench progressive FILE --iterations N     each progressive preview of a progressive JPEG against its
//                                                 full decode (medians), prints key=value lines
//   kf-bench download LIST [--decode]            downloads every URL in LIST, 8 at a time
//   kf-bench ahc LIST                            the same with AsyncHTTPClient alone (no Kingfisher code)
//   kf-bench cache FILE                          memory/disk cache latencies (FILE: a JPEG to thumbnail
//                                                 to 400 px for the disk hit), prints key=value lines
//   kf-bench revalidate URL                      a revalidated (304) hit against a disk hit and one
//                                                 loopback round trip (URL: no-cache, with an ETag)
//   kf-bench tier FILE REDIS_PORT                a hit in the shared Redis level against a disk hit,
//                                                 FILE's bytes as the value, prints key=value lines

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(64)
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else { fail("usage: kf-bench decode|thumbnail FILE [SIZE] [--iterations N]") }
let mode = arguments[1]
if mode == "ahc" {
    await RawClientBenchmark.run(list: arguments[2])
    exit(0)
}
if mode == "revalidate" {
    guard let url = URL(string: arguments[2]) else { fail("revalidate needs a URL") }
    await RevalidationBenchmark.run(url: url)
    exit(0)
}
if mode == "download" {
    await DownloadBenchmark.run(list: arguments[2], decode: arguments.contains("--decode"))
    exit(0)
}
guard let data = FileManager.default.contents(atPath: arguments[2]) else { fail("cannot read \(arguments[2])") }
let iterations: Int = {
    if let flag = arguments.firstIndex(of: "--iterations"), flag + 1 < arguments.count, let n = Int(arguments[flag + 1]) {
        return n
    }
    return 20
}()

/// The middle of `values` (the upper one of an even count).
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

func measure(_ label: String, _ body: () throws -> KingfisherImage) {
    do {
        _ = try body()  // warm-up
        let clock = ContinuousClock()
        let start = clock.now
        var checksum = 0
        for _ in 0..<iterations { checksum &+= try body().pixelWidth }
        let ms = (clock.now - start).seconds * 1000
        print("\(label)_ms_per_iter=\(String(format: "%.3f", ms / Double(iterations)))")
        if checksum == 0 { print("empty") }
    } catch {
        fail("\(error)")
    }
}

/// `kf-bench MODE FILE ARGUMENT`: `body` timed on the decoded image with the argument, whose
/// meaning `name` says when it is missing.
func measureOnDecoded<Argument: LosslessStringConvertible>(
    _ label: String, taking name: String, _ body: (KingfisherImage, Argument) -> KingfisherImage
) throws {
    guard arguments.count >= 4, let argument = Argument(arguments[3]) else { fail("\(label) needs \(name)") }
    let image = try KingfisherImage.decode(data: data)
    measure(label) { body(image, argument) }
}

switch mode {
case "decode":
    measure("decode") { try KingfisherImage.decode(data: data) }
case "colour":
    // Interleaved, so that both decodes see the same machine; medians, so that one slow
    // iteration does not move the difference.
    let kept = ImageCreatingOptions(preserveColorProfile: true)
    let converted = ImageCreatingOptions()
    func milliseconds(_ options: ImageCreatingOptions) throws -> Double {
        let start = ContinuousClock.now
        _ = try KingfisherImage.decode(data: data, options: options)
        return (ContinuousClock.now - start).seconds * 1000
    }
    do {
        _ = try milliseconds(kept)
        _ = try milliseconds(converted)
        var keptTimes: [Double] = []
        var convertedTimes: [Double] = []
        for _ in 0..<iterations {
            keptTimes.append(try milliseconds(kept))
            convertedTimes.append(try milliseconds(converted))
        }
        print("decode_kept_ms_per_iter=\(String(format: "%.3f", median(keptTimes)))")
        print("decode_converted_ms_per_iter=\(String(format: "%.3f", median(convertedTimes)))")
    } catch {
        fail("\(error)")
    }
case "thumbnail":
    guard arguments.count >= 4, let size = Int(arguments[3]) else { fail("thumbnail needs a SIZE") }
    measure("thumbnail") { try KingfisherImage.downsampled(data: data, maxPixelSize: size) }
case "resize":
    let parts = arguments.count >= 4 ? arguments[3].split(separator: "x").compactMap { Double($0) } : []
    guard parts.count == 2 else { fail("resize needs WxH") }
    let image = try KingfisherImage.decode(data: data)
    let size = CGSize(width: parts[0], height: parts[1])
    measure("resize") { image.kf.resize(to: size) }
case "blur":
    try measureOnDecoded("blur", taking: "a RADIUS") { (image, radius: Double) in image.kf.blurred(withRadius: radius) }
case "rotate":
    try measureOnDecoded("rotate", taking: "DEGREES") { (image, degrees: Int) in image.kf.rotated(byDegrees: degrees) }
case "sharpen":
    try measureOnDecoded("sharpen", taking: "a SIGMA") { (image, sigma: Double) in image.kf.sharpened(sigma: sigma) }
case "maxbytes":
    // Bounds of 80, 50, 30 and 15% of the file's size at quality 90, as JPEG and WebP.
    let image = try KingfisherImage.decode(data: data).kf.resize(to: CGSize(width: 1200, height: 900))
    var (encodes, searches, elapsed) = (0, 0, Duration.zero)
    for format in [ImageFileFormat.JPEG, .WebP] {
        let options = ImageEncodingOptions(compressionQuality: 0.9)
        let full = try image.encoded(as: format, options: options).count
        for fraction in [0.8, 0.5, 0.3, 0.15] {
            let start = ContinuousClock.now
            let bounded = try image.encoded(as: format, options: options, maxBytes: Int(Double(full) * fraction))
            elapsed += ContinuousClock.now - start
            encodes += bounded.encodeCount
            searches += 1
        }
    }
    print("maxbytes_encodes_per_search=\(String(format: "%.2f", Double(encodes) / Double(searches)))")
    print("maxbytes_ms_per_search=\(String(format: "%.3f", elapsed / .milliseconds(1) / Double(searches)))")
case "progressive":
    do {
        try ProgressiveBenchmark.run(jpeg: data, iterations: iterations)
    } catch {
        fail("progressive: \(error)")
    }
case "cache":
    await CacheBenchmark.run(jpeg: data)
case "tier":
    guard arguments.count >= 4, let port = Int(arguments[3]) else { fail("tier needs a REDIS_PORT") }
    do {
        try await TierBenchmark.run(value: data, redisPort: port)
    } catch {
        fail("tier: \(error)")
    }
default:
    fail("unknown mode \(mode)")
}
