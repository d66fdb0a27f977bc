// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher

// A separate process for the cache tests: several of these share one cache directory.
//   KingfisherCacheStress write DIR KEYS SECONDS SEED   store images for random keys until time is up
//   KingfisherCacheStress read DIR KEYS SECONDS         read random keys; exit 1 on a partial or wrong image
//   KingfisherCacheStress verify DIR 0 0                check every cached file once; exit 1 on a bad one
//   KingfisherCacheStress fill DIR COUNT FIRST          store COUNT images (keys FIRST...) through the
//                                                       image cache, printing each outcome; for full or
//                                                       read-only file systems
// Every image for key k and version v is 256x256: the first pixel is (k, v % 256, v / 256, 255),
// the others noise seeded by (k, v), so a reader can tell a whole, right image from a torn or
// mixed one, and files are large (about 200 KB) so that a write takes many system calls.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("KingfisherCacheStress: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count >= 5, let keys = Int(arguments[3]), let seconds = Double(arguments[4]) else {
    fail("usage: write|read DIR KEYS SECONDS [SEED]")
}
let directory = URL(fileURLWithPath: arguments[2], isDirectory: true)
let cache: ImageCache
do {
    cache = try ImageCache(name: "stress", cacheDirectoryURL: directory)
} catch {
    fail("\(error)")
}
let deadline = Date().addingTimeInterval(seconds)
let side = 256

func key(_ k: Int) -> String { "https://example.com/images/\(k).png" }

func expectedPixels(key k: Int, version: Int) -> [UInt8] {
    var state = UInt64(k) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(version) &+ 1
    var pixels = [UInt8](repeating: 255, count: side * side * 4)
    pixels[0] = UInt8(k % 256)
    pixels[1] = UInt8(version % 256)
    pixels[2] = UInt8(version / 256)
    for i in 1..<(side * side) {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        pixels[i * 4] = UInt8(truncatingIfNeeded: state >> 24)
        pixels[i * 4 + 1] = UInt8(truncatingIfNeeded: state >> 32)
        pixels[i * 4 + 2] = UInt8(truncatingIfNeeded: state >> 40)
    }
    return pixels
}

var options = KingfisherParsedOptionsInfo([.cacheSerializer(FormatIndicatedCacheSerializer.png)])
options.loadDiskFileSynchronously = true
options.callbackQueue = .untouch

/// Exits with a message unless `data` is a whole image written for key `k`.
func check(_ data: Data, key k: Int) {
    let image: KingfisherImage
    do {
        image = try KingfisherImage.decode(data: data)
    } catch {
        fail("key \(k): a partial or corrupt file (\(data.count) bytes): \(error)")
    }
    guard image.pixelWidth == side, image.pixelHeight == side else { fail("key \(k): wrong size") }
    let pixels = image.pixels
    guard pixels[0] == UInt8(k % 256) else { fail("key \(k): holds the image of key \(pixels[0])") }
    guard pixels == expectedPixels(key: k, version: Int(pixels[1]) + Int(pixels[2]) * 256) else {
        fail("key \(k): a torn or mixed image")
    }
}

switch arguments[1] {
case "write":
    var generator = SystemRandomNumberGenerator()
    var writes = 0
    while Date() < deadline {
        let k = Int.random(in: 0..<keys, using: &generator)
        let version = Int.random(in: 0..<65536, using: &generator)
        let pixels = expectedPixels(key: k, version: version)
        let image = KingfisherImage(width: side, height: side, pixels: pixels, hasAlpha: false)
        guard let data = FormatIndicatedCacheSerializer.png.data(with: image, original: nil) else { fail("encode") }
        do {
            try cache.diskStorage.store(value: data, forKey: key(k))
        } catch {
            fail("store: \(error)")
        }
        writes += 1
    }
    print("writes=\(writes)")
case "read":
    var reads = 0
    var hits = 0
    while Date() < deadline {
        let k = Int.random(in: 0..<keys)
        reads += 1
        let data: Data?
        do {
            data = try cache.diskStorage.value(forKey: key(k))
        } catch {
            fail("read: \(error)")
        }
        guard let data else { continue }
        check(data, key: k)
        hits += 1
    }
    print("reads=\(reads) hits=\(hits)")
case "fill":
    // Every store is tried, whatever the ones before did: a full disk must not stop the cache.
    // Under a file size limit (prlimit --fsize) a write past it fails with EFBIG instead of
    // killing the process.
    signal(SIGXFSZ, SIG_IGN)
    let first = Int(seconds)
    for k in first..<(first + keys) {
        let image = KingfisherImage(width: side, height: side, pixels: expectedPixels(key: k, version: 0), hasAlpha: false)
        let done = DispatchSemaphore(value: 0)
        cache.store(image, forKey: key(k), options: options) { result in
            switch result.diskCacheResult {
            case .success: print("stored \(k)")
            case .failure(let error): print("failed \(k): \(error.description.split(separator: "\n")[0])")
            }
            done.signal()
        }
        done.wait()
    }
    let inMemory = (first..<(first + keys)).filter { cache.imageCachedType(forKey: key($0)) == .memory }.count
    print("memory=\(inMemory)")
case "verify":
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: cache.diskStorage.directoryURL.path)) ?? []
    var verified = 0
    for name in entries where !name.hasPrefix(".") {
        let url = cache.diskStorage.directoryURL.appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: url.path) else { fail("cannot read \(name)") }
        guard let k = (0..<256).first(where: { key($0).kf.sha256 == name }) else { fail("unknown file \(name)") }
        check(data, key: k)
        verified += 1
    }
    print("verified=\(verified) temporary=\(entries.filter { $0.hasPrefix(".") }.count)")
default:
    fail("unknown mode \(arguments[1])")
}
