// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Adjusts brightness, contrast, saturation and exposure with Core Image's meaning of each
/// (see ``KingfisherWrapper/adjusted(brightness:contrast:saturation:inputEV:)``).
public struct ColorControlsProcessor: ImageProcessing {
    /// `com.onevcat.Kingfisher.ColorControlsProcessor(<b>_<c>_<s>_<ev>)`.
    public let identifier: String
    /// The four adjustments, as `Filter.colorControl` takes them.
    public let element: Filter.ColorElement
    /// Added to each component; 0 leaves the image unchanged.
    public var brightness: CGFloat { element.brightness }
    /// Scale around mid-gray; 1 leaves the image unchanged.
    public var contrast: CGFloat { element.contrast }
    /// 0 gray, 1 unchanged, above 1 more saturated.
    public var saturation: CGFloat { element.saturation }
    /// Exposure in stops; 0 leaves the image unchanged.
    public var inputEV: CGFloat { element.inputEV }

    /// Creates a colour-controls processor.
    public init(brightness: CGFloat, contrast: CGFloat, saturation: CGFloat, inputEV: CGFloat) {
        element = Filter.ColorElement(brightness: brightness, contrast: contrast, saturation: saturation, inputEV: inputEV)
        identifier = "com.onevcat.Kingfisher.ColorControlsProcessor(\(brightness)_\(contrast)_\(saturation)_\(inputEV))"
    }

    /// Processes `item` as the type describes; a `.data` item is decoded first.
    public func process(_ item: ImageProcessItem, in context: ImageProcessingContext) throws -> KingfisherImage {
        try processDecodingData(item, in: context) {
            $0.kf.adjusted(brightness: brightness, contrast: contrast, saturation: saturation, inputEV: inputEV)
        }
    }
}

/// Makes images black and white: ``ColorControlsProcessor`` with brightness 0, contrast 1,
/// saturation 0 and +0.7 EV, as Kingfisher does.
public struct BlackWhiteProcessor: ImageProcessing {
    /// `com.onevcat.Kingfisher.BlackWhiteProcessor`.
    public let identifier = "com.onevcat.Kingfisher.BlackWhiteProcessor"

    /// Creates the processor.
    public init() {}

    /// Processes `item` as the type describes; a `.data` item is decoded first.
    public func process(_ item: ImageProcessItem, in context: ImageProcessingContext) throws -> KingfisherImage {
        try ColorControlsProcessor(brightness: 0, contrast: 1, saturation: 0, inputEV: 0.7).process(item, in: context)
    }
}
