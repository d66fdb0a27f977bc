// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Anything an image can be set on, as Kingfisher's `KingfisherImageSettable`: it gets
/// `.kf.setImage(with:…)`, `.kf.cancelDownloadTask()` and `.kf.taskIdentifier`. Implement the two
/// methods to decide how an image is shown (the options say what was asked for); a class with
/// an `image` property conforms more simply through ``KingfisherHasImageComponent``.
///
/// Targets are classes (what each is loading is kept beside it, by identity) and `Sendable`
/// (a main-actor class is).
public protocol KingfisherImageSettable: KingfisherCompatible, AnyObject, Sendable {
    /// Shows `image` (`nil`: nothing), loaded with `options`.
    @MainActor func setImage(_ image: KFCrossPlatformImage?, options: KingfisherParsedOptionsInfo)
    /// The image shown.
    @MainActor func getImage() -> KFCrossPlatformImage?
}

/// Anything that shows an image in a property, as Kingfisher's `KingfisherHasImageComponent`: a
/// view of any Linux UI toolkit (or a plain model object) conforms by exposing its image on the
/// main actor. A class that declares the conformance is main-actor isolated (and so `Sendable`)
/// by inference.
@MainActor
public protocol KingfisherHasImageComponent: KingfisherImageSettable {
    /// The image shown.
    var image: KFCrossPlatformImage? { get set }
}

extension KingfisherHasImageComponent {
    /// Sets ``image``.
    public func setImage(_ image: KFCrossPlatformImage?, options: KingfisherParsedOptionsInfo) {
        self.image = image
    }

    /// ``image``.
    public func getImage() -> KFCrossPlatformImage? {
        image
    }
}

/// What a target's completion handler receives.
public typealias ImageSettingCompletion = @MainActor @Sendable (Result<RetrieveImageResult, KingfisherError>) -> Void

@MainActor
extension KingfisherWrapper where Base: KingfisherImageSettable {
    /// Loads the image of `source` into the target, as Kingfisher's `setImage`.
    ///
    /// The placeholder shows while loading (unless `keepCurrentImageWhileLoading` and an image
    /// is shown); a `nil` source shows the placeholder and fails with `emptySource`. A later
    /// call always wins: an earlier request's outcome is not set and its handler gets
    /// `notCurrentSourceTask`. On failure `onFailureImage`, when set, replaces the image.
    /// `progressBlock` and `completionHandler` run on the main actor.
    ///
    /// - Returns: The download task when a download started, else `nil`.
    @discardableResult
    public func setImage(
        with source: Source?, placeholder: KFCrossPlatformImage? = nil, options: KingfisherOptionsInfo? = nil,
        progressBlock: DownloadProgressBlock? = nil,
        completionHandler: ImageSettingCompletion? = nil
    ) -> DownloadTask? {
        var onMain: (@MainActor @Sendable (Int64, Int64) -> Void)?
        if let progressBlock { onMain = { received, total in progressBlock(received, total) } }
        return setImage(
            with: source, placeholder: placeholder, parsedOptions: KingfisherManager.shared.parsedOptions(options),
            progress: onMain, completionHandler: completionHandler)
    }

    /// The source form with options already parsed and progress for the main actor (the
    /// builder's).
    @discardableResult
    func setImage(
        with source: Source?, placeholder: KFCrossPlatformImage?, parsedOptions parsed: KingfisherParsedOptionsInfo,
        progress progressOnMain: (@MainActor @Sendable (Int64, Int64) -> Void)?,
        completionHandler: ImageSettingCompletion?
    ) -> DownloadTask? {
        let target = base
        let presentation = ImageSettingPresentation(
            isShowingImage: { target.getImage() != nil },
            showPlaceholder: { target.setImage(placeholder, options: parsed) },
            showPreview: { target.setImage($0, options: parsed) },
            showResult: { result, done in
                target.setImage(result.image, options: parsed)
                done()
            },
            showFailureImage: { target.setImage($0, options: parsed) })
        return ImageSetting.start(
            source: source, on: target, presentation: presentation, parsedOptions: parsed, progress: progressOnMain,
            completionHandler: completionHandler)
    }

    /// Loads the image of `resource` (a file URL is read from disk). See the source form.
    @discardableResult
    public func setImage(
        with resource: (any Resource)?, placeholder: KFCrossPlatformImage? = nil,
        options: KingfisherOptionsInfo? = nil, progressBlock: DownloadProgressBlock? = nil,
        completionHandler: ImageSettingCompletion? = nil
    ) -> DownloadTask? {
        setImage(
            with: resource?.convertToSource(), placeholder: placeholder, options: options, progressBlock: progressBlock,
            completionHandler: completionHandler)
    }

    /// Loads the image `provider` produces. See the source form.
    @discardableResult
    public func setImage(
        with provider: (any ImageDataProvider)?, placeholder: KFCrossPlatformImage? = nil,
        options: KingfisherOptionsInfo? = nil, progressBlock: DownloadProgressBlock? = nil,
        completionHandler: ImageSettingCompletion? = nil
    ) -> DownloadTask? {
        setImage(
            with: provider.map { Source.provider($0) }, placeholder: placeholder, options: options,
            progressBlock: progressBlock, completionHandler: completionHandler)
    }

    /// The source form without a progress block, so a trailing closure is the completion
    /// handler (as in Kingfisher).
    @discardableResult
    public func setImage(
        with source: Source?, placeholder: KFCrossPlatformImage? = nil, options: KingfisherOptionsInfo? = nil,
        completionHandler: ImageSettingCompletion? = nil
    ) -> DownloadTask? {
        setImage(with: source, placeholder: placeholder, options: options, progressBlock: nil, completionHandler: completionHandler)
    }

    /// The resource form without a progress block.
    @discardableResult
    public func setImage(
        with resource: (any Resource)?, placeholder: KFCrossPlatformImage? = nil,
        options: KingfisherOptionsInfo? = nil, completionHandler: ImageSettingCompletion? = nil
    ) -> DownloadTask? {
        setImage(with: resource, placeholder: placeholder, options: options, progressBlock: nil, completionHandler: completionHandler)
    }

    /// The provider form without a progress block.
    @discardableResult
    public func setImage(
        with provider: (any ImageDataProvider)?, placeholder: KFCrossPlatformImage? = nil,
        options: KingfisherOptionsInfo? = nil, completionHandler: ImageSettingCompletion? = nil
    ) -> DownloadTask? {
        setImage(with: provider, placeholder: placeholder, options: options, progressBlock: nil, completionHandler: completionHandler)
    }

    /// Cancels the current request's work (its handler gets a cancellation error).
    public func cancelDownloadTask() {
        ImageSetting.cancel(on: base)
    }

    /// The identifier of the current request; `nil` when none was made or a `nil` source was set.
    public var taskIdentifier: Source.Identifier.Value? {
        ImageSetting.taskIdentifier(of: base)
    }
}
