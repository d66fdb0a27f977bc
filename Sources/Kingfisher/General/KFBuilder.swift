// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

extension KF {
    /// A builder for `source`, starting from ``KingfisherManager/shared``'s default options.
    public static func source(_ source: Source?) -> Builder { Builder(source: source) }

    /// A builder for `resource` (a file URL is read from disk).
    public static func resource(_ resource: (any Resource)?) -> Builder { Builder(source: resource?.convertToSource()) }

    /// A builder for `url`, cached under `cacheKey` (default: the URL's cache key).
    public static func url(_ url: URL?, cacheKey: String? = nil) -> Builder {
        Builder(source: url.map { $0.convertToSource(overrideCacheKey: cacheKey) })
    }

    /// A builder for `provider`.
    public static func dataProvider(_ provider: (any ImageDataProvider)?) -> Builder {
        Builder(source: provider.map { .provider($0) })
    }

    /// A builder for bytes in memory, cached under `cacheKey`.
    public static func data(_ data: Data?, cacheKey: String) -> Builder {
        Builder(source: data.map { .provider(RawImageDataProvider(data: $0, cacheKey: cacheKey)) })
    }

    /// Options and callbacks for one image, as Kingfisher's `KF.Builder`, set on a target with
    /// ``set(to:)`` or, for code with no view, loaded with ``image()``.
    ///
    /// A reference, as Kingfisher's: each setter changes this builder and returns it, so
    /// `let b = KF.url(u); b.onSuccess { … }; b.set(to: view)` keeps the handler.
    public final class Builder: KFOptionSetter, Sendable {
        private struct State {
            var options: KingfisherParsedOptionsInfo
            /// An image, or a view layer's placeholder (KingfisherGTK's widgets).
            var placeholder: (any Sendable)?
        }

        /// The source to load; `nil` fails with `emptySource`.
        public let source: Source?
        private let state: Locked<State>
        public let onFailureDelegate = Delegate<KingfisherError, Void>()
        public let onSuccessDelegate = Delegate<RetrieveImageResult, Void>()
        public let onProgressDelegate = Delegate<(Int64, Int64), Void>()

        init(source: Source?) {
            self.source = source
            state = Locked(State(options: KingfisherParsedOptionsInfo(KingfisherManager.shared.defaultOptions)))
        }

        public var options: KingfisherParsedOptionsInfo {
            get { state.withLock { $0.options } }
            set { state.withLock { $0.options = newValue } }
        }

        /// The image shown while loading. Default `nil`.
        public var placeholder: KFCrossPlatformImage? { state.withLock { $0.placeholder as? KFCrossPlatformImage } }

        /// The image shown while loading.
        public func placeholder(_ image: KFCrossPlatformImage?) -> Self {
            state.withLock { $0.placeholder = image }
            return self
        }

        /// A view layer's placeholder (KingfisherGTK's `Placeholder`: an image or a widget),
        /// kept here for its `set(to:)`; it replaces ``placeholder``.
        package var viewPlaceholder: (any Sendable)? {
            get { state.withLock { $0.placeholder } }
            set { state.withLock { $0.placeholder = newValue } }
        }

        /// How a view shows the loaded image (see ``KingfisherOptionsInfoItem/transition(_:)``).
        public func transition(_ transition: ImageTransition) -> Self {
            options.transition = transition
            return self
        }

        /// A cross-fade of `duration` seconds: `transition(.fade(duration))`.
        public func fade(duration: TimeInterval) -> Self { transition(.fade(duration)) }

        /// Loads the image into `target`, as `target.kf.setImage`; the delegates
        /// (``KFOptionSetter/onSuccess(_:)`` and the others) run on the main actor.
        @MainActor
        @discardableResult
        public func set<Target: KingfisherImageSettable>(to target: Target) -> DownloadTask? {
            target.kf.setImage(
                with: source, placeholder: placeholder, parsedOptions: options,
                progress: progressOnMainActor, completionHandler: completionCallingDelegates)
        }

        /// The progress delegate, for the main actor; `nil` when unset.
        package var progressOnMainActor: (@MainActor @Sendable (Int64, Int64) -> Void)? {
            let progress = onProgressDelegate
            guard progress.isSet else { return nil }
            return { received, total in _ = progress((received, total)) }
        }

        /// A completion handler calling the success or failure delegate.
        package var completionCallingDelegates: ImageSettingCompletion {
            let (success, failure) = (onSuccessDelegate, onFailureDelegate)
            return { result in
                switch result {
                case .success(let value): _ = success(value)
                case .failure(let error): _ = failure(error)
                }
            }
        }

        /// Retrieves the image with these options, with no target (beyond Kingfisher: for
        /// servers and tools). The delegates are not called; the result or error is returned.
        public func image() async throws -> RetrieveImageResult {
            guard let source else { throw KingfisherError.imageSettingError(reason: .emptySource) }
            return try await KingfisherManager.shared.retrieveImage(with: source, parsedOptions: options, progressBlock: nil)
        }
    }
}
