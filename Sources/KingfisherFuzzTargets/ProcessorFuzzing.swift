import Foundation
import Kingfisher

/// The processor grammar on arbitrary text; a chain that parses runs on a 16x16 image.
enum ProcessorFuzzing {
    private static let image = KingfisherImage(
        width: 16, height: 16, pixels: (0..<(16 * 16 * 4)).map { UInt8(truncatingIfNeeded: $0 &* 37) })

    static func run(_ data: Data) {
        let spec = String(decoding: data, as: UTF8.self)
        FuzzTarget.expectingKingfisherErrors {
            let processor = try ImageProcessorSpec.processor(from: spec)
            _ = processor.process(item: .image(image), options: KingfisherParsedOptionsInfo(nil))
        }
    }
}
