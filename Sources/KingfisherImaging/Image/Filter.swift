// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Kingfisher's filter transform. Kingfisher's takes and returns a Core Image `CIImage`; there is
/// no Core Image here, so a transform takes and returns an image (`nil`: keep the input).
public typealias Transformer = @Sendable (KFCrossPlatformImage) -> KFCrossPlatformImage?

/// A custom image effect, applied with ``KingfisherWrapper/apply(_:)`` or through a
/// `CIImageProcessor`, as Kingfisher's `Filter`: the extension point for effects beyond the
/// built-in processors.
///
/// Write one over the image (``init(transform:)``, for example composing this library's
/// drawing methods) or over the RGBA pixels of each frame (``init(pixels:)``).
public struct Filter: Sendable {
    let transform: Transformer

    /// A filter running `transform` on the image.
    public init(transform: @escaping Transformer) {
        self.transform = transform
    }

    /// A filter changing the pixels of every frame in place (beyond Kingfisher): `body` receives
    /// a frame's RGBA bytes with straight alpha, top row first (`width * height * 4` bytes), and
    /// the frame's width and height. The size cannot change. An animation decoded on demand is
    /// filtered frame by frame as it is read.
    public init(pixels body: @escaping @Sendable (_ pixels: inout [UInt8], _ width: Int, _ height: Int) -> Void) {
        transform = { image in
            let (width, height) = (image.pixelWidth, image.pixelHeight)
            return image.mappingFrames(width: width, height: height) { frame in
                var pixels = frame
                body(&pixels, width, height)
                return pixels.count == frame.count ? pixels : frame
            }
        }
    }

    /// Tints the image with `color` (its alpha is the strength), as Kingfisher's.
    public static let tint: @Sendable (KFCrossPlatformColor) -> Filter = { color in
        Filter { $0.kf.tinted(with: color) }
    }

    /// The parameters of ``colorControl``, as Core Image's colour controls and exposure.
    public struct ColorElement: Sendable {
        /// Added to each channel: 0 keeps the image.
        public let brightness: CGFloat
        /// Contrast around mid-grey: 1 keeps the image.
        public let contrast: CGFloat
        /// Saturation: 1 keeps the image, 0 is grey.
        public let saturation: CGFloat
        /// Exposure in stops: 0 keeps the image.
        public let inputEV: CGFloat

        /// Creates the parameters.
        public init(brightness: CGFloat, contrast: CGFloat, saturation: CGFloat, inputEV: CGFloat) {
            self.brightness = brightness
            self.contrast = contrast
            self.saturation = saturation
            self.inputEV = inputEV
        }
    }

    /// Adjusts brightness, contrast, saturation and exposure, as Kingfisher's.
    public static let colorControl: @Sendable (ColorElement) -> Filter = { element in
        Filter {
            $0.kf.adjusted(
                brightness: element.brightness, contrast: element.contrast,
                saturation: element.saturation, inputEV: element.inputEV)
        }
    }
}

extension KingfisherWrapper where Base: KingfisherImage {
    /// The image with `filter` applied; the image itself when the filter gives `nil`.
    public func apply(_ filter: Filter) -> KFCrossPlatformImage {
        filter.transform(base) ?? base
    }
}
