import Foundation
import Kingfisher

/// `kf-bench download LIST [--decode]`: downloads every URL in LIST (one per line) with one
/// ImageDownloader, 8 at a time, and prints `downloaded=<n> bytes=<total> seconds=<s>`.
/// Without --decode the processor does not decode (it returns a shared 1x1 image), so the figure
/// is the downloader's network path alone; with --decode every image is decoded.
enum DownloadBenchmark {
    /// Skips decoding: the download-only figure.
    struct NoDecoding: ImageProcessor {
        static let placeholder = KingfisherImage(width: 1, height: 1, pixels: [0, 0, 0, 255])
        let identifier = "bench.no-decoding"
        func process(item: ImageProcessItem, options: KingfisherParsedOptionsInfo) -> KFCrossPlatformImage? {
            Self.placeholder
        }
    }

    static func run(list: String, decode: Bool) async {
        guard let text = try? String(contentsOfFile: list, encoding: .utf8) else { fail("cannot read \(list)") }
        let urls = text.split(separator: "\n").compactMap { URL(string: String($0)) }
        let downloader = ImageDownloader(name: "bench")
        downloader.maximumConcurrentDownloads = 8
        let options = KingfisherParsedOptionsInfo(decode ? nil : [.processor(NoDecoding())])
        let start = ContinuousClock.now
        let (count, bytes) = await withTaskGroup(of: Int.self) { group -> (Int, Int) in
            for url in urls {
                group.addTask {
                    do {
                        return try await downloader.downloadImage(with: url, options: options).originalData.count
                    } catch {
                        fail("\(url): \(error)")
                    }
                }
            }
            var count = 0, bytes = 0
            for await size in group {
                count += 1
                bytes += size
            }
            return (count, bytes)
        }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("downloaded=\(count) bytes=\(bytes) seconds=\(String(format: "%.3f", seconds))")
    }
}
