// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

// The imaging module's processors are Kingfisher's: `process(item:options:)` comes from
// `ImageProcessor where Self: ImageProcessing`, with the options' scale and limits.
extension DefaultImageProcessor: ImageProcessor {}
extension ImageProcessorChain: ImageProcessor {}
extension ResizingImageProcessor: ImageProcessor {}
extension DownsamplingImageProcessor: ImageProcessor {}
extension CroppingImageProcessor: ImageProcessor {}
extension RoundCornerImageProcessor: ImageProcessor {}
extension BorderImageProcessor: ImageProcessor {}
extension BlurImageProcessor: ImageProcessor {}
extension OverlayImageProcessor: ImageProcessor {}
extension TintImageProcessor: ImageProcessor {}
extension ColorControlsProcessor: ImageProcessor {}
extension BlackWhiteProcessor: ImageProcessor {}
extension BlendImageProcessor: ImageProcessor {}
extension RotatingImageProcessor: ImageProcessor {}
extension FlippingImageProcessor: ImageProcessor {}
extension ExtendingImageProcessor: ImageProcessor {}
extension PaddingImageProcessor: ImageProcessor {}
extension TrimmingImageProcessor: ImageProcessor {}
extension SharpeningImageProcessor: ImageProcessor {}
extension PixelatingImageProcessor: ImageProcessor {}
extension BackgroundImageProcessor: ImageProcessor {}
extension WatermarkImageProcessor: ImageProcessor {}
extension DevicePixelRatioProcessor: ImageProcessor {}
extension ColorProfileKeepingProcessor: ImageProcessor {}

extension KingfisherParsedOptionsInfo {
    /// The scale and limits processors run with.
    public var processingContext: ImageProcessingContext {
        ImageProcessingContext(imageCreatingOptions: imageCreatingOptions)
    }
}
