// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// How a target shows each step of setting an image; the view layers (KingfisherGTK, and the
/// plain ``KingfisherImageSettable`` targets) each say it their way, and ``ImageSetting`` runs
/// the steps in Kingfisher's order.
package struct ImageSettingPresentation {
    /// Whether an image (or a placeholder) is shown: `keepCurrentImageWhileLoading` keeps it.
    package var isShowingImage: @MainActor () -> Bool
    /// Shows the placeholder (or nothing) in place of the image while it loads, and for a
    /// `nil` source.
    package var showPlaceholder: @MainActor () -> Void
    /// Starts the activity indicator. Default: nothing.
    package var loadingStarted: @MainActor () -> Void
    /// Stops it, as the request ends (current or not). Default: nothing.
    package var loadingEnded: @MainActor () -> Void
    /// Shows a progressive preview.
    package var showPreview: @MainActor (KFCrossPlatformImage?) -> Void
    /// Shows the loaded image (in place of the placeholder, with a transition if one is due),
    /// then calls `done`, after which the completion handler runs.
    package var showResult: @MainActor (RetrieveImageResult, _ done: @escaping @MainActor () -> Void) -> Void
    /// Shows `onFailureImage` after a failure.
    package var showFailureImage: @MainActor (KFCrossPlatformImage?) -> Void
    /// Whether a new request cancels the work of the one before (a reused view stops paying
    /// for an image it will never show); Kingfisher leaves it running, and its handler gets
    /// `notCurrentSourceTask` with its result. Default `false`.
    package var cancelsPreviousRequest = false

    package init(
        isShowingImage: @escaping @MainActor () -> Bool, showPlaceholder: @escaping @MainActor () -> Void,
        loadingStarted: @escaping @MainActor () -> Void = {}, loadingEnded: @escaping @MainActor () -> Void = {},
        showPreview: @escaping @MainActor (KFCrossPlatformImage?) -> Void,
        showResult: @escaping @MainActor (RetrieveImageResult, _ done: @escaping @MainActor () -> Void) -> Void,
        showFailureImage: @escaping @MainActor (KFCrossPlatformImage?) -> Void
    ) {
        self.isShowingImage = isShowingImage
        self.showPlaceholder = showPlaceholder
        self.loadingStarted = loadingStarted
        self.loadingEnded = loadingEnded
        self.showPreview = showPreview
        self.showResult = showResult
        self.showFailureImage = showFailureImage
    }
}

/// Setting an image on a target, as Kingfisher's `setImage` does for its views: one current
/// request per target (a class instance, or any object standing for one slot of it), whose
/// outcome alone is shown.
@MainActor
package enum ImageSetting {
    /// Loads `source` for `target`, showing the steps through `presentation`.
    ///
    /// The placeholder shows while loading (unless `keepCurrentImageWhileLoading` and an image
    /// is shown); a `nil` source shows the placeholder and fails with `emptySource`. A later
    /// call always wins: an earlier request's outcome is not shown and its handler gets
    /// `notCurrentSourceTask`. On failure `onFailureImage`, when set, replaces the image.
    /// `progress` and `completionHandler` run on the main actor.
    ///
    /// - Returns: The download task when a download started, else `nil`.
    @discardableResult
    package static func start(
        source: Source?, on target: some AnyObject & Sendable, presentation: ImageSettingPresentation,
        parsedOptions parsed: KingfisherParsedOptionsInfo,
        progress progressOnMain: (@MainActor @Sendable (Int64, Int64) -> Void)?,
        completionHandler: ImageSettingCompletion?
    ) -> DownloadTask? {
        let state = ImageTargetState.shared
        // Cancelled once it is no longer current, so that its handler gets `notCurrentSourceTask`.
        let previous = presentation.cancelsPreviousRequest ? state.retrieval(for: target) : nil
        defer { previous?.cancel() }
        guard let source else {
            presentation.showPlaceholder()
            state.clear(for: target)
            completionHandler?(.failure(.imageSettingError(reason: .emptySource)))
            return nil
        }
        if !parsed.keepCurrentImageWhileLoading || !presentation.isShowingImage() {
            presentation.showPlaceholder()
        }
        presentation.loadingStarted()
        let identifier = state.begin(for: target)
        let isCurrent: @MainActor () -> Bool = { state.identifier(for: target) == identifier }
        var working = parsed
        working.callbackQueue = .untouch
        // Progressive previews show until the request's outcome does; both arrive on the main
        // actor, so a preview decoded late never covers the final image.
        let ended = Locked(false)
        if let progressive = parsed.progressiveJPEG {
            working.progressiveImageSetter = { preview in
                onMainActor {
                    guard !ended.withLock({ $0 }), isCurrent() else { return }
                    switch progressive.onImageUpdated(preview) ?? .default {
                    case .default: presentation.showPreview(preview)
                    case .keepCurrent: break
                    case .replace(let replacement): presentation.showPreview(replacement)
                    }
                }
            }
        }
        var progress: DownloadProgressBlock?
        if let progressOnMain {
            progress = { received, total in
                onMainActor {
                    guard isCurrent() else { return }
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
            onMainActor {
                ended.withLock { $0 = true }
                guard isCurrent() else {
                    let stale = KingfisherError.imageSettingError(
                        reason: .notCurrentSourceTask(
                            result: try? result.get(), error: result.failureError, source: source))
                    completionHandler?(.failure(stale))
                    return
                }
                presentation.loadingEnded()
                state.finish(for: target, identifier: identifier)
                switch result {
                case .success(let value):
                    presentation.showResult(value) { completionHandler?(result) }
                case .failure:
                    if case .some(let failureImage) = parsed.onFailureImage { presentation.showFailureImage(failureImage) }
                    completionHandler?(result)
                }
            }
        }
        state.attach(retrieval, to: target, identifier: identifier)
        return retrieval.downloadTask
    }

    /// Cancels `target`'s current request (its handler gets a cancellation error).
    package static func cancel(on target: AnyObject) {
        ImageTargetState.shared.retrieval(for: target)?.cancel()
    }

    /// The identifier of `target`'s current request; `nil` when none was made or a `nil`
    /// source was set.
    package static func taskIdentifier(of target: AnyObject) -> Source.Identifier.Value? {
        ImageTargetState.shared.identifier(for: target)
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
}

extension Result {
    /// The error of a failure.
    var failureError: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
