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
    /// A value: each call returns a changed copy.
    public struct Builder: KFOptionSetter, Sendable {
        /// The source to load; `nil` fails with `emptySource`.
        public let source: Source?
        public var options: KingfisherParsedOptionsInfo
        /// The image shown while loading. Default `nil`.
        public private(set) var placeholder: KFCrossPlatformImage?
        private var progressBlocks: [@MainActor @Sendable (Int64, Int64) -> Void] = []
        private var successBlocks: [@MainActor @Sendable (RetrieveImageResult) -> Void] = []
        private var failureBlocks: [@MainActor @Sendable (KingfisherError) -> Void] = []

        init(source: Source?) {
            self.source = source
            options = KingfisherParsedOptionsInfo(KingfisherManager.shared.defaultOptions)
        }

        /// The image shown while loading.
        public func placeholder(_ image: KFCrossPlatformImage?) -> Self {
            var copy = self
            copy.placeholder = image
            return copy
        }

        /// Kingfisher's transitions animate on Apple platforms; there is nothing to animate
        /// here, so they are accepted and have no effect.
        @available(*, deprecated, message: "no effect on Linux: there are no transitions")
        public func fade(duration: TimeInterval) -> Self { self }

        /// Runs `block` with (received, total) bytes as a download progresses (main actor).
        public func onProgress(_ block: (@MainActor @Sendable (Int64, Int64) -> Void)?) -> Self {
            var copy = self
            if let block { copy.progressBlocks.append(block) }
            return copy
        }

        /// Runs `block` when the image is set (main actor).
        public func onSuccess(_ block: (@MainActor @Sendable (RetrieveImageResult) -> Void)?) -> Self {
            var copy = self
            if let block { copy.successBlocks.append(block) }
            return copy
        }

        /// Runs `block` when loading fails (main actor).
        public func onFailure(_ block: (@MainActor @Sendable (KingfisherError) -> Void)?) -> Self {
            var copy = self
            if let block { copy.failureBlocks.append(block) }
            return copy
        }

        /// Loads the image into `target`, as `target.kf.setImage`; the callbacks run on the
        /// main actor.
        @MainActor
        @discardableResult
        public func set<Target: KingfisherHasImageComponent>(to target: Target) -> DownloadTask? {
            let (progress, success, failure) = (progressBlocks, successBlocks, failureBlocks)
            var onProgress: (@MainActor @Sendable (Int64, Int64) -> Void)?
            if !progress.isEmpty { onProgress = { received, total in progress.forEach { $0(received, total) } } }
            return target.kf.setImage(with: source, placeholder: placeholder, parsedOptions: options,
                                      progress: onProgress) { result in
                switch result {
                case .success(let value): success.forEach { $0(value) }
                case .failure(let error): failure.forEach { $0(error) }
                }
            }
        }

        /// Retrieves the image with these options, with no target (beyond Kingfisher: for
        /// servers and tools). The callbacks are not run; the result or error is returned.
        public func image() async throws -> RetrieveImageResult {
            guard let source else { throw KingfisherError.imageSettingError(reason: .emptySource) }
            return try await KingfisherManager.shared.retrieveImage(with: source, parsedOptions: options, progressBlock: nil)
        }
    }
}
