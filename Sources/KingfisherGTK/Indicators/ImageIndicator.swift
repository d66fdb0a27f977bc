// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CGtk
import Foundation
import Kingfisher

/// ``IndicatorType/image(imageData:)``: the image, centred at its own size, animated while
/// the indicator shows when it has several frames.
@MainActor
final class ImageIndicator: Indicator {
    private let imageView: AnimatedImageView

    var view: IndicatorView { imageView.widget }

    /// `nil` when `data` is not an image.
    init?(imageData data: Data) {
        guard let image = try? KingfisherImage.decode(data: data, options: ImageCreatingOptions()) else { return nil }
        imageView = AnimatedImageView()
        imageView.autoPlayAnimatedImage = false
        imageView.image = image
        gtk_widget_set_size_request(imageView.widget, Int32(image.size.width), Int32(image.size.height))
        gtk_widget_set_visible(view, 0)
    }

    func startAnimatingView() {
        imageView.startAnimating()
        gtk_widget_set_visible(view, 1)
    }

    func stopAnimatingView() {
        imageView.stopAnimating()
        gtk_widget_set_visible(view, 0)
    }

    func sizeStrategy(in imageView: KFCrossPlatformImageView) -> IndicatorSizeStrategy { .intrinsicSize }
}
