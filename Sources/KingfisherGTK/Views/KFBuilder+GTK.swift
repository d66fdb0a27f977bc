// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Kingfisher

extension KF.Builder {
    /// The placeholder shown while loading: an image or a widget (see ``Placeholder``).
    public func placeholder(_ placeholder: (any Placeholder)?) -> Self {
        viewPlaceholder = placeholder
        return self
    }

    /// Loads the image into `imageView`, as `imageView.kf.setImage`, with this builder's
    /// placeholder, options and delegates (run on the main actor).
    @MainActor
    @discardableResult
    public func set(to imageView: GTKImageView) -> DownloadTask? {
        imageView.kf.setImage(
            with: source, placeholder: viewPlaceholder as? any Placeholder, parsedOptions: options,
            progress: progressOnMainActor, completionHandler: completionCallingDelegates)
    }

    /// Loads the image into `button`'s image, as `button.kf.setImage`.
    @MainActor
    @discardableResult
    public func set(to button: GTKButton) -> DownloadTask? {
        set(to: button.imageView)
    }

    /// Loads the image into `button`'s background, as `button.kf.setBackgroundImage`.
    @MainActor
    @discardableResult
    public func setBackground(to button: GTKButton) -> DownloadTask? {
        set(to: button.backgroundImageView)
    }
}
