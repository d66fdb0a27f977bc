// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CGtk
import Foundation
import Kingfisher

/// The widget an indicator shows.
public typealias IndicatorView = UnsafeMutablePointer<GtkWidget>

/// What an image view shows while it loads, as Kingfisher's `IndicatorType`.
public enum IndicatorType {
    /// No indicator (the default).
    case none
    /// A spinner (`GtkSpinner`).
    case activity
    /// An image, animated when it has several frames (a GIF).
    case image(imageData: Data)
    /// An indicator of your own.
    case custom(indicator: any Indicator)
}

/// An activity indicator of your own, as Kingfisher's `Indicator`.
@MainActor
public protocol Indicator: Sendable {
    /// Starts animating and shows ``view``.
    func startAnimatingView()
    /// Stops animating and hides ``view``.
    func stopAnimatingView()
    /// How far the indicator's centre is from the image view's. Default `.zero`.
    var centerOffset: CGPoint { get }
    /// The widget shown over the image view (it holds a reference to it).
    var view: IndicatorView { get }
    /// How large ``view`` is in `imageView`. Default ``IndicatorSizeStrategy/full``.
    func sizeStrategy(in imageView: KFCrossPlatformImageView) -> IndicatorSizeStrategy
}

/// How an indicator is sized in its image view.
public enum IndicatorSizeStrategy {
    /// Its widget's natural size, centred.
    case intrinsicSize
    /// The image view's size.
    case full
    /// A given size, centred.
    case size(CGSize)
}

extension Indicator {
    /// `.zero`.
    public var centerOffset: CGPoint { .zero }

    /// ``IndicatorSizeStrategy/full``.
    public func sizeStrategy(in imageView: KFCrossPlatformImageView) -> IndicatorSizeStrategy { .full }
}
