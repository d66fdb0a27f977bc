// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CGtk
import CKingfisherGTK
import Kingfisher

/// A `GtkButton` showing an image over a background image, as Kingfisher's `UIButton`
/// extensions: `button.kf.setImage(with:)` and `button.kf.setBackgroundImage(with:)`. GTK
/// buttons have no control states, so the methods take none.
///
/// The button's child is an overlay: ``backgroundImageView`` fills the button, ``imageView``
/// is centred over it, aspect-fit.
@MainActor
public final class GTKButton: KingfisherCompatible, Sendable {
    /// The `GtkButton`, to add to a container and connect to (`clicked`).
    public let widget: UnsafeMutablePointer<GtkWidget>
    /// Shows the image.
    public let imageView: GTKImageView
    /// Shows the background image, filling the button.
    public let backgroundImageView: GTKImageView

    /// A button with no image.
    public init() {
        widget = gtk_button_new()
        g_object_ref_sink(widget)
        imageView = GTKImageView()
        backgroundImageView = GTKImageView()
        gtk_picture_set_content_fit(kf_gtk_picture(backgroundImageView.picture), GTK_CONTENT_FIT_FILL)
        backgroundImageView.addOverlay(imageView.widget)
        gtk_button_set_child(kf_gtk_button(widget), backgroundImageView.widget)
    }

    isolated deinit {
        g_object_unref(widget)
    }

    /// The image shown.
    public var image: KingfisherImage? {
        get { imageView.image }
        set { imageView.image = newValue }
    }

    /// The background image shown.
    public var backgroundImage: KingfisherImage? {
        get { backgroundImageView.image }
        set { backgroundImageView.image = newValue }
    }
}

/// The button type of Kingfisher's API.
public typealias KFCrossPlatformButton = GTKButton

@MainActor
extension KingfisherWrapper where Base: GTKButton {
    /// Loads the image of `source` as the button's image, as ``GTKImageView``'s `kf.setImage`
    /// does (a later call wins, the scale factor is the button's screen's).
    @discardableResult
    public func setImage(
        with source: Source?, placeholder: KFCrossPlatformImage? = nil, options: KingfisherOptionsInfo? = nil,
        progressBlock: DownloadProgressBlock? = nil, completionHandler: ImageSettingCompletion? = nil
    ) -> DownloadTask? {
        base.imageView.kf.setImage(
            with: source, placeholder: placeholder, options: options, progressBlock: progressBlock, completionHandler: completionHandler)
    }

    /// Loads the image of `resource` as the button's image.
    @discardableResult
    public func setImage(
        with resource: (any Resource)?, placeholder: KFCrossPlatformImage? = nil, options: KingfisherOptionsInfo? = nil,
        progressBlock: DownloadProgressBlock? = nil, completionHandler: ImageSettingCompletion? = nil
    ) -> DownloadTask? {
        setImage(
            with: resource?.convertToSource(), placeholder: placeholder, options: options, progressBlock: progressBlock,
            completionHandler: completionHandler)
    }

    /// Cancels the image's request.
    public func cancelImageDownloadTask() {
        base.imageView.kf.cancelDownloadTask()
    }

    /// The identifier of the image's current request.
    public var taskIdentifier: Source.Identifier.Value? { base.imageView.kf.taskIdentifier }

    /// Loads the image of `source` as the button's background image.
    @discardableResult
    public func setBackgroundImage(
        with source: Source?, placeholder: KFCrossPlatformImage? = nil, options: KingfisherOptionsInfo? = nil,
        progressBlock: DownloadProgressBlock? = nil, completionHandler: ImageSettingCompletion? = nil
    ) -> DownloadTask? {
        base.backgroundImageView.kf.setImage(
            with: source, placeholder: placeholder, options: options, progressBlock: progressBlock, completionHandler: completionHandler)
    }

    /// Loads the image of `resource` as the button's background image.
    @discardableResult
    public func setBackgroundImage(
        with resource: (any Resource)?, placeholder: KFCrossPlatformImage? = nil, options: KingfisherOptionsInfo? = nil,
        progressBlock: DownloadProgressBlock? = nil, completionHandler: ImageSettingCompletion? = nil
    ) -> DownloadTask? {
        setBackgroundImage(
            with: resource?.convertToSource(), placeholder: placeholder, options: options, progressBlock: progressBlock,
            completionHandler: completionHandler)
    }

    /// Cancels the background image's request.
    public func cancelBackgroundImageDownloadTask() {
        base.backgroundImageView.kf.cancelDownloadTask()
    }

    /// The identifier of the background image's current request.
    public var backgroundTaskIdentifier: Source.Identifier.Value? { base.backgroundImageView.kf.taskIdentifier }
}
