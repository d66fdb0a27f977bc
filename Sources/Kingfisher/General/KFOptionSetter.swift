// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Chainable option setters, as Kingfisher's `KFOptionSetter`: each changes the options of
/// ``copyForMutation()`` (by default the setter itself, a reference) and returns it, so
/// `KF.url(u).forceRefresh().cacheMemoryOnly()` reads as in Kingfisher, and a setter called
/// without using its result still changes the builder, as there.
///
/// Not bound to the main actor (Kingfisher's is): servers build and load images off it.
public protocol KFOptionSetter {
    /// The options built so far.
    var options: KingfisherParsedOptionsInfo { get nonmutating set }
    /// Called when loading fails.
    var onFailureDelegate: Delegate<KingfisherError, Void> { get }
    /// Called when the image is loaded.
    var onSuccessDelegate: Delegate<RetrieveImageResult, Void> { get }
    /// Called with (received, total) bytes as a download progresses.
    var onProgressDelegate: Delegate<(Int64, Int64), Void> { get }
    /// What each setter changes and returns. Default: `self`.
    func copyForMutation() -> Self
}

/// The target the setters' delegates hold: alive for the whole process, so the blocks are
/// never dropped (the blocks capture what they need themselves).
private final class KFDelegateObserver: Sendable {
    static let `default` = KFDelegateObserver()
}

extension KFOptionSetter {
    public func copyForMutation() -> Self { self }

    /// ``copyForMutation()`` with `change` applied to its options.
    func changing(_ change: (inout KingfisherParsedOptionsInfo) -> Void) -> Self {
        let result = copyForMutation()
        var options = result.options
        change(&options)
        result.options = options
        return result
    }

    // MARK: Life cycle

    /// Runs `block` with (received, total) bytes as a download progresses; replaces any earlier
    /// block.
    public func onProgress(_ block: DownloadProgressBlock?) -> Self {
        let result = copyForMutation()
        result.onProgressDelegate.delegate(on: KFDelegateObserver.default) { _, progress in block?(progress.0, progress.1) }
        return result
    }

    /// Runs `block` when the image is loaded; replaces any earlier block.
    public func onSuccess(_ block: ((RetrieveImageResult) -> Void)?) -> Self {
        let result = copyForMutation()
        result.onSuccessDelegate.delegate(on: KFDelegateObserver.default) { _, value in block?(value) }
        return result
    }

    /// Runs `block` when loading fails; replaces any earlier block.
    public func onFailure(_ block: ((KingfisherError) -> Void)?) -> Self {
        let result = copyForMutation()
        result.onFailureDelegate.delegate(on: KFDelegateObserver.default) { _, error in block?(error) }
        return result
    }

    // MARK: Cache and downloader

    /// See ``KingfisherOptionsInfoItem/targetCache(_:)``.
    public func targetCache(_ cache: ImageCache) -> Self { changing { $0.targetCache = cache } }
    /// See ``KingfisherOptionsInfoItem/originalCache(_:)``.
    public func originalCache(_ cache: ImageCache) -> Self { changing { $0.originalCache = cache } }
    /// See ``KingfisherOptionsInfoItem/downloader(_:)``.
    public func downloader(_ downloader: ImageDownloader) -> Self { changing { $0.downloader = downloader } }
    /// See ``KingfisherOptionsInfoItem/downloadPriority(_:)``.
    public func downloadPriority(_ priority: Float) -> Self { changing { $0.downloadPriority = priority } }
    /// See ``KingfisherOptionsInfoItem/forceRefresh``.
    public func forceRefresh(_ enabled: Bool = true) -> Self { changing { $0.forceRefresh = enabled } }
    /// See ``KingfisherOptionsInfoItem/fromMemoryCacheOrRefresh``.
    public func fromMemoryCacheOrRefresh(_ enabled: Bool = true) -> Self { changing { $0.fromMemoryCacheOrRefresh = enabled } }
    /// See ``KingfisherOptionsInfoItem/cacheMemoryOnly``.
    public func cacheMemoryOnly(_ enabled: Bool = true) -> Self { changing { $0.cacheMemoryOnly = enabled } }
    /// See ``KingfisherOptionsInfoItem/waitForCache``.
    public func waitForCache(_ enabled: Bool = true) -> Self { changing { $0.waitForCache = enabled } }
    /// See ``KingfisherOptionsInfoItem/onlyFromCache``.
    public func onlyFromCache(_ enabled: Bool = true) -> Self { changing { $0.onlyFromCache = enabled } }
    /// See ``KingfisherOptionsInfoItem/backgroundDecode``.
    @available(*, deprecated, message: "no effect on Linux: images are always fully decoded")
    public func backgroundDecode(_ enabled: Bool = true) -> Self { changing { $0.backgroundDecode = enabled } }
    /// See ``KingfisherOptionsInfoItem/callbackQueue(_:)``.
    public func callbackQueue(_ queue: CallbackQueue) -> Self { changing { $0.callbackQueue = queue } }
    /// See ``KingfisherOptionsInfoItem/scaleFactor(_:)``.
    public func scaleFactor(_ factor: CGFloat) -> Self { changing { $0.scaleFactor = factor } }
    /// See ``KingfisherOptionsInfoItem/cacheOriginalImage``.
    public func cacheOriginalImage(_ enabled: Bool = true) -> Self { changing { $0.cacheOriginalImage = enabled } }
    /// See ``KingfisherOptionsInfoItem/diskStoreWriteOptions(_:)``.
    @available(*, deprecated, message: "no effect on Linux: cache files are always written atomically")
    public func diskStoreWriteOptions(_ options: Data.WritingOptions) -> Self { changing { $0.diskStoreWriteOptions = options } }
    /// See ``KingfisherOptionsInfoItem/loadDiskFileSynchronously``.
    public func loadDiskFileSynchronously(_ enabled: Bool = true) -> Self { changing { $0.loadDiskFileSynchronously = enabled } }
    /// See ``KingfisherOptionsInfoItem/processingQueue(_:)``.
    public func processingQueue(_ queue: CallbackQueue?) -> Self { changing { $0.processingQueue = queue } }
    /// See ``KingfisherOptionsInfoItem/alternativeSources(_:)``.
    public func alternativeSources(_ sources: [Source]?) -> Self { changing { $0.alternativeSources = sources } }
    /// See ``KingfisherOptionsInfoItem/retryStrategy(_:)``.
    public func retry(_ strategy: (any RetryStrategy)?) -> Self { changing { $0.retryStrategy = strategy } }
    /// A ``DelayRetryStrategy``; `interval` default `.seconds(3)`.
    public func retry(maxCount: Int, interval: DelayRetryStrategy.Interval = .seconds(3)) -> Self {
        retry(DelayRetryStrategy(maxRetryCount: maxCount, retryInterval: interval))
    }
    /// See ``KingfisherOptionsInfoItem/progressiveJPEG(_:)``; `nil` turns previews off.
    /// Default argument: ``ImageProgressive/init()``.
    public func progressiveJPEG(_ progressive: ImageProgressive? = ImageProgressive()) -> Self {
        changing { $0.progressiveJPEG = progressive }
    }
    /// See ``KingfisherOptionsInfoItem/lowDataMode(_:)``: kept, never used on Linux.
    public func lowDataModeSource(_ source: Source?) -> Self { changing { $0.lowDataModeSource = source } }
    /// See ``KingfisherOptionsInfoItem/forceTransition``.
    public func forceTransition(_ enabled: Bool = true) -> Self { changing { $0.forceTransition = enabled } }
    /// See ``KingfisherOptionsInfoItem/onFailureImage(_:)``.
    public func onFailureImage(_ image: KFCrossPlatformImage?) -> Self { changing { $0.onFailureImage = .some(image) } }
    /// See ``KingfisherOptionsInfoItem/keepCurrentImageWhileLoading``.
    public func keepCurrentImageWhileLoading(_ enabled: Bool = true) -> Self { changing { $0.keepCurrentImageWhileLoading = enabled } }
    /// See ``KingfisherOptionsInfoItem/onlyLoadFirstFrame``.
    public func onlyLoadFirstFrame(_ enabled: Bool = true) -> Self { changing { $0.onlyLoadFirstFrame = enabled } }

    // MARK: Request

    /// See ``KingfisherOptionsInfoItem/requestModifier(_:)``.
    public func requestModifier(_ modifier: any AsyncImageDownloadRequestModifier) -> Self {
        changing { $0.requestModifier = modifier }
    }
    /// A request modifier from a block that edits the request.
    public func requestModifier(_ modify: @escaping @Sendable (inout URLRequest) -> Void) -> Self {
        requestModifier(
            AnyModifier { request in
                var request = request
                modify(&request)
                return request
            })
    }
    /// See ``KingfisherOptionsInfoItem/redirectHandler(_:)``.
    public func redirectHandler(_ handler: any ImageDownloadRedirectHandler) -> Self { changing { $0.redirectHandler = handler } }
    /// Decides each redirect in `block`, which answers through the payload's
    /// ``KF/RedirectPayload/completionHandler``, as Kingfisher's block form.
    public func redirectHandler(_ block: @escaping @Sendable (KF.RedirectPayload) -> Void) -> Self {
        redirectHandler(
            AnyRedirectHandler { task, response, newRequest, completionHandler in
                block(KF.RedirectPayload(task: task, response: response, newRequest: newRequest, completionHandler: completionHandler))
            })
    }

    // MARK: Processors

    /// Replaces the processor.
    public func setProcessor(_ processor: any ImageProcessor) -> Self { changing { $0.processor = processor } }
    /// Replaces the processor with `processors` chained in order; an empty list means
    /// `DefaultImageProcessor`.
    public func setProcessors(_ processors: [any ImageProcessor]) -> Self {
        guard let first = processors.first else { return setProcessor(DefaultImageProcessor.default) }
        return setProcessor(processors.dropFirst().reduce(first) { $0.append(another: $1) })
    }
    /// Appends `processor` after the current one (after the default processor too, as
    /// Kingfisher does: identifiers, and so cache keys, match Kingfisher's).
    public func appendProcessor(_ processor: any ImageProcessor) -> Self {
        changing { $0.processor = $0.processor.append(another: processor) }
    }
    /// Appends a `RoundCornerImageProcessor`.
    public func roundCorner(
        radius: Radius, targetSize: CGSize? = nil, roundingCorners corners: RectCorner = .all,
        backgroundColor: KFCrossPlatformColor? = nil
    ) -> Self {
        appendProcessor(
            RoundCornerImageProcessor(
                radius: radius, targetSize: targetSize, roundingCorners: corners,
                backgroundColor: backgroundColor))
    }
    /// Appends a `BlurImageProcessor`.
    public func blur(radius: CGFloat) -> Self { appendProcessor(BlurImageProcessor(blurRadius: radius)) }
    /// Appends an `OverlayImageProcessor`; `fraction` default 0.5.
    public func overlay(color: KFCrossPlatformColor, fraction: CGFloat = 0.5) -> Self {
        appendProcessor(OverlayImageProcessor(overlay: color, fraction: fraction))
    }
    /// Appends a `TintImageProcessor`.
    public func tint(color: KFCrossPlatformColor) -> Self { appendProcessor(TintImageProcessor(tint: color)) }
    /// Appends a `BlackWhiteProcessor`.
    public func blackWhite() -> Self { appendProcessor(BlackWhiteProcessor()) }
    /// Appends a `CroppingImageProcessor`; `anchor` default the centre.
    public func cropping(size: CGSize, anchor: CGPoint = CGPoint(x: 0.5, y: 0.5)) -> Self {
        appendProcessor(CroppingImageProcessor(size: size, anchor: anchor))
    }
    /// Appends a `CroppingImageProcessor` keeping the part `gravity` says.
    public func cropping(size: CGSize, gravity: CropGravity) -> Self {
        appendProcessor(CroppingImageProcessor(size: size, gravity: gravity))
    }
    /// Appends a `ResizingImageProcessor` filling `size` and a `CroppingImageProcessor` cutting
    /// it to `size` where `gravity` says (default the centre): the grammar's `fill`.
    public func filling(size: CGSize, gravity: CropGravity = .center) -> Self {
        resizing(referenceSize: size, mode: .aspectFill).cropping(size: size, gravity: gravity)
    }
    /// A `DownsamplingImageProcessor`: replaces the default processor (so the image is
    /// decoded straight to the small size), else is appended.
    public func downsampling(size: CGSize) -> Self {
        let downsampler = DownsamplingImageProcessor(size: size)
        return options.processor.identifier.isEmpty ? setProcessor(downsampler) : appendProcessor(downsampler)
    }
    /// Appends a `ResizingImageProcessor`; `mode` default `.none`, `upscale` default `true`.
    public func resizing(referenceSize: CGSize, mode: ContentMode = .none, upscale: Bool = true) -> Self {
        appendProcessor(ResizingImageProcessor(referenceSize: referenceSize, mode: mode, upscale: upscale))
    }
    /// Appends a `RotatingImageProcessor` (clockwise `degrees`, a multiple of 90).
    public func rotating(degrees: Int) -> Self { appendProcessor(RotatingImageProcessor(degrees: degrees)) }
    /// Appends a `FlippingImageProcessor`.
    public func flipping(_ direction: FlipDirection) -> Self { appendProcessor(FlippingImageProcessor(direction: direction)) }
    /// Appends an `ExtendingImageProcessor`; `backgroundColor` default `nil` (transparent).
    public func extending(to size: CGSize, backgroundColor: KFCrossPlatformColor? = nil) -> Self {
        appendProcessor(ExtendingImageProcessor(size: size, backgroundColor: backgroundColor))
    }
    /// Appends a `PaddingImageProcessor`; `backgroundColor` default `nil` (transparent).
    public func padding(
        top: CGFloat, right: CGFloat, bottom: CGFloat, left: CGFloat, backgroundColor: KFCrossPlatformColor? = nil
    ) -> Self {
        appendProcessor(PaddingImageProcessor(top: top, right: right, bottom: bottom, left: left, backgroundColor: backgroundColor))
    }
    /// Appends a `TrimmingImageProcessor`; `threshold` default 10, `color` default the top-left pixel's.
    public func trimming(threshold: Int = TrimmingImageProcessor.defaultThreshold, color: KFCrossPlatformColor? = nil) -> Self {
        appendProcessor(TrimmingImageProcessor(threshold: threshold, color: color))
    }
    /// Appends a `SharpeningImageProcessor`; `amount` default 1.
    public func sharpening(sigma: CGFloat, amount: CGFloat = 1) -> Self {
        appendProcessor(SharpeningImageProcessor(sigma: sigma, amount: amount))
    }
    /// Appends a `PixelatingImageProcessor`.
    public func pixelating(blockSize: CGFloat) -> Self { appendProcessor(PixelatingImageProcessor(blockSize: blockSize)) }
    /// Appends a `WatermarkImageProcessor`; `position` default the centre, `opacity` default 1,
    /// `scale` default `nil` (the watermark's own size).
    public func watermark(
        _ watermark: Watermark, position: WatermarkPosition = .anchor(CGPoint(x: 0.5, y: 0.5)), opacity: CGFloat = 1,
        scale: CGFloat? = nil
    ) -> Self {
        appendProcessor(WatermarkImageProcessor(watermark: watermark, position: position, opacity: opacity, scale: scale))
    }
    /// Appends a `BackgroundImageProcessor`.
    public func background(color: KFCrossPlatformColor) -> Self { appendProcessor(BackgroundImageProcessor(color: color)) }

    // MARK: Serialization and modification

    /// See ``KingfisherOptionsInfoItem/cacheSerializer(_:)``.
    public func serialize(by serializer: any CacheSerializer) -> Self { changing { $0.cacheSerializer = serializer } }
    /// A ``FormatIndicatedCacheSerializer`` for `format`, as Kingfisher: PNG, JPEG with
    /// `jpegCompressionQuality` (default 1.0), GIF; `unknown` stores PNG.
    public func serialize(as format: ImageFormat, jpegCompressionQuality: CGFloat? = nil) -> Self {
        let serializer: FormatIndicatedCacheSerializer
        switch format {
        case .JPEG: serializer = .jpeg(compressionQuality: jpegCompressionQuality ?? 1.0)
        case .GIF: serializer = .gif
        case .PNG, .unknown: serializer = .png
        }
        return serialize(by: serializer)
    }
    /// See ``KingfisherOptionsInfoItem/imageModifier(_:)``.
    public func imageModifier(_ modifier: (any ImageModifier)?) -> Self { changing { $0.imageModifier = modifier } }
    /// An image modifier from a block that edits the image; when it throws, the image is handed
    /// over unchanged.
    public func imageModifier(_ modify: @escaping @Sendable (inout KFCrossPlatformImage) throws -> Void) -> Self {
        imageModifier(
            AnyImageModifier { image in
                var image = image
                try modify(&image)
                return image
            })
    }

    // MARK: Expiration

    /// See ``KingfisherOptionsInfoItem/memoryCacheExpiration(_:)``.
    public func memoryCacheExpiration(_ expiration: StorageExpiration?) -> Self { changing { $0.memoryCacheExpiration = expiration } }
    /// See ``KingfisherOptionsInfoItem/memoryCacheAccessExtendingExpiration(_:)``.
    public func memoryCacheAccessExtending(_ extending: ExpirationExtending) -> Self {
        changing { $0.memoryCacheAccessExtendingExpiration = extending }
    }
    /// See ``KingfisherOptionsInfoItem/diskCacheExpiration(_:)``.
    public func diskCacheExpiration(_ expiration: StorageExpiration?) -> Self { changing { $0.diskCacheExpiration = expiration } }
    /// See ``KingfisherOptionsInfoItem/diskCacheAccessExtendingExpiration(_:)``.
    public func diskCacheAccessExtending(_ extending: ExpirationExtending) -> Self {
        changing { $0.diskCacheAccessExtendingExpiration = extending }
    }
}
