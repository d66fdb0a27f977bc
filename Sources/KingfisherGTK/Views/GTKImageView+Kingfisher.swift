// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CGtk
import Foundation
import Kingfisher

@MainActor
extension KingfisherWrapper where Base: GTKImageView {
    /// Loads the image of `source` into the view, as Kingfisher's `setImage`.
    ///
    /// `placeholder` shows while loading (unless `keepCurrentImageWhileLoading` and an image or
    /// placeholder is shown), with ``indicator`` running. The loaded image replaces it with
    /// the options' `transition` when it did not come from the memory cache (or with
    /// `forceTransition`). A later call always wins: the earlier request is cancelled, its image
    /// never shown, and its handler gets `notCurrentSourceTask`. On failure `onFailureImage`,
    /// when set, replaces the placeholder. Without a `scaleFactor` option, the view's screen's
    /// scale factor is used. `progressBlock` and `completionHandler` run on the main actor.
    ///
    /// - Returns: The download task when a download started, else `nil`.
    @discardableResult
    public func setImage(
        with source: Source?, placeholder: (any Placeholder)? = nil, options: KingfisherOptionsInfo? = nil,
        progressBlock: DownloadProgressBlock? = nil,
        completionHandler: ImageSettingCompletion? = nil
    ) -> DownloadTask? {
        var onMain: (@MainActor @Sendable (Int64, Int64) -> Void)?
        if let progressBlock { onMain = { received, total in progressBlock(received, total) } }
        return setImage(
            with: source, placeholder: placeholder, parsedOptions: KingfisherManager.shared.parsedOptions(options),
            progress: onMain, completionHandler: completionHandler)
    }

    /// The source form without a progress block, so a trailing closure is the completion
    /// handler.
    @discardableResult
    public func setImage(
        with source: Source?, placeholder: (any Placeholder)? = nil, options: KingfisherOptionsInfo? = nil,
        completionHandler: ImageSettingCompletion? = nil
    ) -> DownloadTask? {
        setImage(with: source, placeholder: placeholder, options: options, progressBlock: nil, completionHandler: completionHandler)
    }

    /// Loads the image of `resource` (a file URL is read from disk). See the source form.
    @discardableResult
    public func setImage(
        with resource: (any Resource)?, placeholder: (any Placeholder)? = nil, options: KingfisherOptionsInfo? = nil,
        progressBlock: DownloadProgressBlock? = nil, completionHandler: ImageSettingCompletion? = nil
    ) -> DownloadTask? {
        setImage(
            with: resource?.convertToSource(), placeholder: placeholder, options: options, progressBlock: progressBlock,
            completionHandler: completionHandler)
    }

    /// The resource form without a progress block.
    @discardableResult
    public func setImage(
        with resource: (any Resource)?, placeholder: (any Placeholder)? = nil, options: KingfisherOptionsInfo? = nil,
        completionHandler: ImageSettingCompletion? = nil
    ) -> DownloadTask? {
        setImage(with: resource, placeholder: placeholder, options: options, progressBlock: nil, completionHandler: completionHandler)
    }

    /// Loads the image `provider` produces. See the source form.
    @discardableResult
    public func setImage(
        with provider: (any ImageDataProvider)?, placeholder: (any Placeholder)? = nil, options: KingfisherOptionsInfo? = nil,
        progressBlock: DownloadProgressBlock? = nil, completionHandler: ImageSettingCompletion? = nil
    ) -> DownloadTask? {
        setImage(
            with: provider.map { Source.provider($0) }, placeholder: placeholder, options: options,
            progressBlock: progressBlock, completionHandler: completionHandler)
    }

    /// The provider form without a progress block.
    @discardableResult
    public func setImage(
        with provider: (any ImageDataProvider)?, placeholder: (any Placeholder)? = nil, options: KingfisherOptionsInfo? = nil,
        completionHandler: ImageSettingCompletion? = nil
    ) -> DownloadTask? {
        setImage(with: provider, placeholder: placeholder, options: options, progressBlock: nil, completionHandler: completionHandler)
    }

    /// The source form with options already parsed (the builder's).
    @discardableResult
    func setImage(
        with source: Source?, placeholder: (any Placeholder)?, parsedOptions: KingfisherParsedOptionsInfo,
        progress: (@MainActor @Sendable (Int64, Int64) -> Void)?, completionHandler: ImageSettingCompletion?
    ) -> DownloadTask? {
        let view = base
        var parsed = parsedOptions
        if parsed.givenScaleFactor == nil { parsed.scaleFactor = CGFloat(view.scaleFactor) }
        if view is AnimatedImageView { parsed.preloadAllAnimationData = false }
        let options = parsed
        var presentation = ImageSettingPresentation(
            isShowingImage: { view.image != nil || view.placeholder != nil },
            showPlaceholder: { view.placeholder = placeholder },
            loadingStarted: { view.indicator?.startAnimatingView() },
            loadingEnded: { view.indicator?.stopAnimatingView() },
            showPreview: { view.image = $0 },
            showResult: { result, done in
                let transition = options.transition
                guard transition.duration > 0, options.forceTransition || result.cacheType != .memory else {
                    view.placeholder = nil
                    view.image = result.image
                    return done()
                }
                view.transition(to: result.image, with: transition, done: done)
            },
            showFailureImage: { image in
                view.placeholder = nil
                view.image = image
            })
        presentation.cancelsPreviousRequest = true
        return ImageSetting.start(
            source: source, on: view, presentation: presentation, parsedOptions: options, progress: progress,
            completionHandler: completionHandler)
    }

    /// Cancels the current request's work (its handler gets a cancellation error).
    public func cancelDownloadTask() {
        ImageSetting.cancel(on: base)
    }

    /// The identifier of the current request; `nil` when none was made or a `nil` source was set.
    public var taskIdentifier: Source.Identifier.Value? {
        ImageSetting.taskIdentifier(of: base)
    }

    /// What shows while an image loads. Default ``IndicatorType/none``.
    public var indicatorType: IndicatorType {
        get { base.indicatorType }
        nonmutating set {
            base.indicatorType = newValue
            switch newValue {
            case .none: base.indicator = nil
            case .activity: base.indicator = ActivityIndicator()
            case .image(let data): base.indicator = ImageIndicator(imageData: data)
            case .custom(let indicator): base.indicator = indicator
            }
        }
    }

    /// The indicator ``indicatorType`` made.
    public var indicator: (any Indicator)? { base.indicator }

    /// The placeholder shown, while an image loads.
    public var placeholder: (any Placeholder)? { base.placeholder }
}
