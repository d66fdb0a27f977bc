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
        let state = ImageTargetState.shared
        guard let source else {
            target.setImage(placeholder, options: parsed)
            state.clear(for: target)
            completionHandler?(.failure(.imageSettingError(reason: .emptySource)))
            return nil
        }
        if !parsed.keepCurrentImageWhileLoading || target.getImage() == nil {
            target.setImage(placeholder, options: parsed)
        }
        let identifier = state.begin(for: target)
        var working = parsed
        working.callbackQueue = .untouch
        // Progressive previews show until the request's outcome does; both arrive on the main
        // actor, so a preview decoded late never covers the final image.
        let ended = Locked(false)
        if let progressive = parsed.progressiveJPEG {
            working.progressiveImageSetter = { preview in
                Self.onMainActor {
                    guard !ended.withLock({ $0 }), state.identifier(for: target) == identifier else { return }
                    switch progressive.onImageUpdated(preview) ?? .default {
                    case .default: target.setImage(preview, options: parsed)
                    case .keepCurrent: break
                    case .replace(let replacement): target.setImage(replacement, options: parsed)
                    }
                }
            }
        }
        var progress: DownloadProgressBlock?
        if let progressOnMain {
            progress = { received, total in
                Self.onMainActor {
                    guard state.identifier(for: target) == identifier else { return }
                    progressOnMain(received, total)
                }
            }
        }
        let retrieval = KingfisherManager.shared.retrieve(
            source, options: working, progressBlock: progress,
            downloadTaskUpdated: nil
        ) { result in
            // A memory hit (or a synchronous disk read) arrives on the main thread: set it now,
            // so the placeholder never shows for a cached image.
            Self.onMainActor {
                ended.withLock { $0 = true }
                guard state.identifier(for: target) == identifier else {
                    let stale = KingfisherError.imageSettingError(
                        reason: .notCurrentSourceTask(
                            result: try? result.get(), error: result.failureError, source: source))
                    completionHandler?(.failure(stale))
                    return
                }
                state.finish(for: target, identifier: identifier)
                switch result {
                case .success(let value):
                    target.setImage(value.image, options: parsed)
                case .failure:
                    if case .some(let failureImage) = parsed.onFailureImage { target.setImage(failureImage, options: parsed) }
                }
                completionHandler?(result)
            }
        }
        state.attach(retrieval, to: target, identifier: identifier)
        return retrieval.downloadTask
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

    /// Runs `body` on the main actor: inline when already there (on the main queue, which is
    /// the main actor's executor on Linux, whichever thread drains it), else queued on the main
    /// queue. Queued, not a task: tasks of different priorities may run out of order, and a
    /// progressive preview must not be overtaken by the final image it precedes.
    nonisolated private static func onMainActor(_ body: @escaping @MainActor @Sendable () -> Void) {
        if MainQueue.isCurrent {
            MainActor.assumeIsolated(body)
        } else {
            DispatchQueue.main.async { MainActor.assumeIsolated(body) }
        }
    }

    /// Cancels the current request's work (its handler gets a cancellation error).
    public func cancelDownloadTask() {
        ImageTargetState.shared.retrieval(for: base)?.cancel()
    }

    /// The identifier of the current request; `nil` when none was made or a `nil` source was set.
    public var taskIdentifier: Source.Identifier.Value? {
        ImageTargetState.shared.identifier(for: base)
    }
}

extension Result {
    /// The error of a failure.
    var failureError: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
