// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher

/// Processors on arbitrary input, run on a 16x16 image. Input starting with 0xFF builds the
/// library's processors directly from the following bytes read as `Double`s (NaN, infinities,
/// huge and negative values included): the parameter ranges API callers can reach. Any other
/// input is text for the `kf --processor` grammar.
enum ProcessorFuzzing {
    private static let image = KingfisherImage(
        width: 16, height: 16, pixels: (0..<(16 * 16 * 4)).map { UInt8(truncatingIfNeeded: $0 &* 37) })

    /// Outputs up to 512x512 pixels: larger ones (a 16x16 image resized to 1x2 000 000 is legal
    /// under the decode limit) take over the 10 s timeout once instrumented, yet exercise no
    /// other path; refusing outputs over the limit is tested in the suite.
    private static let context = ImageProcessingContext(imageCreatingOptions: ImageCreatingOptions(maxPixelCount: 512 * 512))

    static func run(_ data: Data) {
        if data.first == 0xFF {
            for processor in directProcessors(ParameterReader(data.dropFirst())) {
                FuzzTarget.expectingLibraryErrors { _ = try processor.process(.image(image), in: context) }
            }
            return
        }
        let spec = String(decoding: data, as: UTF8.self)
        FuzzTarget.expectingLibraryErrors {
            let processor = try ImageProcessorSpec.processor(from: spec)
            _ = try processor.process(.image(image), in: context)
        }
    }

    private static func directProcessors(_ reader: ParameterReader) -> [any ImageProcessing] {
        var next = reader
        func value() -> CGFloat { next.next() }
        func size() -> CGSize { CGSize(width: value(), height: value()) }
        let modes: [ContentMode] = [.none, .aspectFit, .aspectFill]
        return [
            ResizingImageProcessor(referenceSize: size(), mode: modes[Int(next.byte()) % 3]),
            CroppingImageProcessor(size: size(), anchor: CGPoint(x: value(), y: value())),
            RoundCornerImageProcessor(cornerRadius: value(), targetSize: size()),
            RoundCornerImageProcessor(radius: .widthFraction(value())),
            BorderImageProcessor(border: Border(color: .red, lineWidth: value(), radius: .point(value()))),
            BlurImageProcessor(blurRadius: value()),
            DownsamplingImageProcessor(size: size()),
            OverlayImageProcessor(
                overlay: KFCrossPlatformColor(red: value(), green: value(), blue: value(), alpha: value()),
                fraction: value()),
            ColorControlsProcessor(brightness: value(), contrast: value(), saturation: value(), inputEV: value()),
            BlendImageProcessor(
                blendMode: CGBlendMode.allCases[Int(next.byte()) % CGBlendMode.allCases.count],
                alpha: value()),
            ResizingImageProcessor(referenceSize: size(), mode: modes[Int(next.byte()) % 3], upscale: false),
            CroppingImageProcessor(
                size: size(), gravity: [.attention, .entropy, .focus(CGPoint(x: value(), y: value()))][Int(next.byte()) % 3]),
            RotatingImageProcessor(degrees: (Int(next.byte()) - 128) * 45),
            FlippingImageProcessor(direction: next.byte() % 2 == 0 ? .horizontal : .vertical),
            ExtendingImageProcessor(size: size(), backgroundColor: next.byte() % 2 == 0 ? nil : .red),
            PaddingImageProcessor(top: value(), right: value(), bottom: value(), left: value()),
            TrimmingImageProcessor(threshold: Int(next.byte()) * 2 - 100, color: next.byte() % 2 == 0 ? nil : .white),
            SharpeningImageProcessor(sigma: value(), amount: value()),
            PixelatingImageProcessor(blockSize: value()),
            WatermarkImageProcessor(
                watermark: Watermark(name: "w", image: KingfisherImage(width: 3, height: 2, pixels: [UInt8](repeating: 200, count: 24))),
                position: next.byte() % 2 == 0 ? .tile : .anchor(CGPoint(x: value(), y: value())), opacity: value(),
                scale: next.byte() % 2 == 0 ? nil : value()),
            ImageProcessorChain([DevicePixelRatioProcessor(ratio: value()), PaddingImageProcessor(padding: value())]),
            BackgroundImageProcessor(color: KFCrossPlatformColor(red: value(), green: value(), blue: value(), alpha: value())),
        ]
    }
}
