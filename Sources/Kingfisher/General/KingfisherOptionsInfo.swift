// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Options for Kingfisher operations, as a list of ``KingfisherOptionsInfoItem``.
public typealias KingfisherOptionsInfo = [KingfisherOptionsInfoItem]

/// One option. The list is parsed once into ``KingfisherParsedOptionsInfo``; when an item
/// appears more than once, the last occurrence wins.
public enum KingfisherOptionsInfoItem: Sendable {
    /// The scale of created images (points = pixels / scale). Default 1.0.
    case scaleFactor(CGFloat)
    /// Decode all frames of animated data up front, instead of keeping the data and decoding
    /// frames as they are asked for (`KingfisherImage/frame(at:)`). Default off.
    case preloadAllAnimationData
    /// Load only the first frame of animated data. Default off.
    case onlyLoadFirstFrame
    /// The largest canvas accepted, in pixels (width x height, per frame); larger images are
    /// refused from their header. Default `ImageCreatingOptions.defaultMaxPixelCount` (100 000 000).
    case maxPixelCount(Int)
    /// The most frames an animated image may have; more are refused.
    /// Default `ImageCreatingOptions.defaultMaxFrameCount` (5 000).
    case maxFrameCount(Int)
    /// The largest EXIF block read for the orientation; larger ones are ignored.
    /// Default `ImageCreatingOptions.defaultMaxEXIFByteCount` (1 MiB).
    case maxEXIFByteCount(Int)
    /// The most bytes of decoded frames an image holds at once: animations decoded up front over
    /// it are refused, those decoded on demand keep fewer frames.
    /// Default `ImageCreatingOptions.defaultMaxDecodedByteCount` (400 MiB).
    case maxDecodedByteCount(Int)
    /// Keep decoded pixels in the colour space of their embedded profile (carried in
    /// `KingfisherImage.colorProfile` and embedded again by the encoders) instead of converting
    /// them to sRGB. Not part of the cache key: use another ``targetCache(_:)`` for images loaded
    /// both ways. Default off (converted to sRGB).
    case preserveColorProfile
    /// How images are turned into bytes for the disk cache and back. Default
    /// ``DefaultCacheSerializer/default``.
    case cacheSerializer(any CacheSerializer)
    /// The cache to look up and store in. Default ``ImageCache/default``.
    case targetCache(ImageCache)
    /// The cache for original (unprocessed) images. Default: the target cache.
    case originalCache(ImageCache)
    /// The processor; its identifier is part of the cache key. Default `DefaultImageProcessor.default`.
    case processor(any ImageProcessor)
    /// Where completion handlers run. Default `.mainCurrentOrAsync`.
    case callbackQueue(CallbackQueue)
    /// Look only in memory, skipping the disk cache. Default off.
    case fromMemoryCacheOrRefresh
    /// Store only in memory. Default off.
    case cacheMemoryOnly
    /// Decode images after loading them from disk off the caller's thread. Images are always
    /// fully decoded on Linux; kept for compatibility. Default off.
    @available(*, deprecated, message: "no effect on Linux: images are always fully decoded")
    case backgroundDecode
    /// Read the disk cache on the calling thread instead of the cache's queue. Default off.
    case loadDiskFileSynchronously
    /// Options for writing disk cache files; accepted for compatibility, as files are always
    /// written atomically (a temporary file renamed into place). Default `[]`.
    @available(*, deprecated, message: "no effect on Linux: cache files are always written atomically")
    case diskStoreWriteOptions(Data.WritingOptions)
    /// The memory cache expiration of stored images. Default: the memory storage's config.
    case memoryCacheExpiration(StorageExpiration)
    /// How reading from memory extends the expiration. Default `.cacheTime`.
    case memoryCacheAccessExtendingExpiration(ExpirationExtending)
    /// The disk cache expiration of stored images. Default: the disk storage's config.
    case diskCacheExpiration(StorageExpiration)
    /// How reading from disk extends the expiration. Default `.cacheTime`.
    case diskCacheAccessExtendingExpiration(ExpirationExtending)
    /// A file extension forced on cache files. Default `nil`.
    case forcedCacheFileExtension(String?)
    /// The downloader to use. Default ``ImageDownloader/default``.
    case downloader(ImageDownloader)
    /// The download's priority, 0…1. Default ``ImageDownloader/defaultPriority`` (0.5).
    case downloadPriority(Float)
    /// Changes the request before it is sent. Default `nil`.
    case requestModifier(any AsyncImageDownloadRequestModifier)
    /// Decides what happens with redirects. Default `nil` (follow).
    case redirectHandler(any ImageDownloadRedirectHandler)
    /// The queue processors run on after a download. Default: the downloader's own concurrent
    /// queue (Kingfisher's is serial; concurrent uses every core when many images arrive).
    /// `.untouch` runs the processor where the download completed (the transport's event loop
    /// for ``AsyncHTTPClientTransport``), saving a thread hop: only for cheap processors.
    case processingQueue(CallbackQueue)
    /// Skip the cache lookup and load from the source. Default off.
    case forceRefresh
    /// Complete only after the image is written to the caches (memory and disk). Default off:
    /// complete as soon as caching starts.
    case waitForCache
    /// Never load: a cache miss fails with `cacheError(.imageNotExisting)`. Default off.
    case onlyFromCache
    /// Changes the image handed to the caller, never the cached one. Default `nil`.
    case imageModifier(any ImageModifier)
    /// Image targets keep their current image while loading instead of showing the
    /// placeholder. Default off.
    case keepCurrentImageWhileLoading
    /// How an image view shows a loaded image (KingfisherGTK's views animate it). Default
    /// ``ImageTransition/none``.
    case transition(ImageTransition)
    /// Runs the transition for images from the memory cache too. Default off.
    case forceTransition
    /// Also cache the original data (under the unprocessed key, in ``originalCache(_:)``) when
    /// a processor is set, so another processor can start from it without the network.
    /// Default off.
    case cacheOriginalImage
    /// The image a target shows when loading fails; `.some(nil)` clears it. Default unset
    /// (keep what is shown).
    case onFailureImage(KFCrossPlatformImage?)
    /// ``ImagePrefetcher`` loads disk-cached images into memory instead of skipping them.
    /// Default off.
    case alsoPrefetchToMemory
    /// Check the cache type off the calling thread. Accepted for compatibility: the check is
    /// a memory lookup and a `stat`, already cheap. Default off.
    @available(*, deprecated, message: "no effect on Linux: the cache type check is already cheap")
    case asyncCacheTypeCheck
    /// Sources tried in order when the source (and its retries) fail. Default `nil`.
    case alternativeSources([Source])
    /// Kingfisher's source for Low Data Mode, loaded instead when the system says the network
    /// is constrained. Linux has no such signal, so it is kept in the options and never used;
    /// ``alternativeSources(_:)`` covers fallbacks. Default `nil`.
    case lowDataMode(Source?)
    /// Decodes a progressive JPEG's scans as they arrive and shows them (see
    /// ``ImageProgressive``). Default `nil`: the image appears when complete.
    case progressiveJPEG(ImageProgressive)
    /// Decides whether a failed load is retried. Default `nil` (no retry).
    case retryStrategy(any RetryStrategy)
    /// Whether downloaded images are cached as their HTTP caching headers say (RFC 9111:
    /// freshness, revalidation with `304`, `no-store`). Default ``HTTPCachePolicy/clientDecides``
    /// (Kingfisher's: the headers are ignored).
    case httpCachePolicy(HTTPCachePolicy)
}

/// The parsed form of ``KingfisherOptionsInfo``: one property per option, with defaults.
public struct KingfisherParsedOptionsInfo: Sendable {
    /// See ``KingfisherOptionsInfoItem/scaleFactor(_:)``. Default 1.0.
    public var scaleFactor: CGFloat {
        get { givenScaleFactor ?? 1.0 }
        set { givenScaleFactor = newValue }
    }

    /// The scale factor the options set, if any: a view layer uses its screen's otherwise.
    package var givenScaleFactor: CGFloat?
    /// See ``KingfisherOptionsInfoItem/preloadAllAnimationData``. Default `false`.
    public var preloadAllAnimationData = false
    /// See ``KingfisherOptionsInfoItem/onlyLoadFirstFrame``. Default `false`.
    public var onlyLoadFirstFrame = false
    /// See ``KingfisherOptionsInfoItem/maxPixelCount(_:)``. Default 100 000 000.
    public var maxPixelCount = ImageCreatingOptions.defaultMaxPixelCount
    /// See ``KingfisherOptionsInfoItem/maxFrameCount(_:)``. Default 5 000.
    public var maxFrameCount = ImageCreatingOptions.defaultMaxFrameCount
    /// See ``KingfisherOptionsInfoItem/maxEXIFByteCount(_:)``. Default 1 MiB.
    public var maxEXIFByteCount = ImageCreatingOptions.defaultMaxEXIFByteCount
    /// See ``KingfisherOptionsInfoItem/maxDecodedByteCount(_:)``. Default 400 MiB.
    public var maxDecodedByteCount = ImageCreatingOptions.defaultMaxDecodedByteCount
    /// See ``KingfisherOptionsInfoItem/preserveColorProfile``. Default `false`.
    public var preserveColorProfile = false
    /// The largest processor output, from ``RetrievalLimits/maxResultPixelCount``; `nil`:
    /// ``maxPixelCount``. No option item sets it.
    package var maxOutputPixelCount: Int?
    /// The retrieval's share of a pixel memory budget, from ``RetrievalLimits/pixelMemory``. No
    /// option item sets it.
    package var pixelMemory: PixelMemoryBudget.Account?
    /// See ``KingfisherOptionsInfoItem/cacheSerializer(_:)``. Default ``DefaultCacheSerializer/default``.
    public var cacheSerializer: any CacheSerializer = DefaultCacheSerializer.default

    /// See ``KingfisherOptionsInfoItem/targetCache(_:)``. Default `nil` (``ImageCache/default``).
    public var targetCache: ImageCache?
    /// See ``KingfisherOptionsInfoItem/originalCache(_:)``. Default `nil` (the target cache).
    public var originalCache: ImageCache?
    /// See ``KingfisherOptionsInfoItem/processor(_:)``. Default `DefaultImageProcessor.default`.
    public var processor: any ImageProcessor = DefaultImageProcessor.default
    /// See ``KingfisherOptionsInfoItem/callbackQueue(_:)``. Default `.mainCurrentOrAsync`.
    public var callbackQueue: CallbackQueue = .mainCurrentOrAsync
    /// See ``KingfisherOptionsInfoItem/fromMemoryCacheOrRefresh``. Default `false`.
    public var fromMemoryCacheOrRefresh = false
    /// See ``KingfisherOptionsInfoItem/cacheMemoryOnly``. Default `false`.
    public var cacheMemoryOnly = false
    /// See ``KingfisherOptionsInfoItem/backgroundDecode``. Default `false`.
    @available(*, deprecated, message: "no effect on Linux: images are always fully decoded")
    public var backgroundDecode = false
    /// See ``KingfisherOptionsInfoItem/loadDiskFileSynchronously``. Default `false`.
    public var loadDiskFileSynchronously = false
    /// See ``KingfisherOptionsInfoItem/diskStoreWriteOptions(_:)``. Default `[]`.
    @available(*, deprecated, message: "no effect on Linux: cache files are always written atomically")
    public var diskStoreWriteOptions: Data.WritingOptions = []
    /// See ``KingfisherOptionsInfoItem/memoryCacheExpiration(_:)``. Default `nil`.
    public var memoryCacheExpiration: StorageExpiration?
    /// See ``KingfisherOptionsInfoItem/memoryCacheAccessExtendingExpiration(_:)``. Default `.cacheTime`.
    public var memoryCacheAccessExtendingExpiration: ExpirationExtending = .cacheTime
    /// See ``KingfisherOptionsInfoItem/diskCacheExpiration(_:)``. Default `nil`.
    public var diskCacheExpiration: StorageExpiration?
    /// See ``KingfisherOptionsInfoItem/diskCacheAccessExtendingExpiration(_:)``. Default `.cacheTime`.
    public var diskCacheAccessExtendingExpiration: ExpirationExtending = .cacheTime
    /// See ``KingfisherOptionsInfoItem/forcedCacheFileExtension(_:)``. Default `nil`.
    public var forcedExtension: String?

    /// See ``KingfisherOptionsInfoItem/downloader(_:)``. Default `nil` (``ImageDownloader/default``).
    public var downloader: ImageDownloader?
    /// See ``KingfisherOptionsInfoItem/downloadPriority(_:)``. Default 0.5.
    public var downloadPriority: Float = ImageDownloader.defaultPriority
    /// See ``KingfisherOptionsInfoItem/requestModifier(_:)``. Default `nil`.
    public var requestModifier: (any AsyncImageDownloadRequestModifier)?
    /// See ``KingfisherOptionsInfoItem/redirectHandler(_:)``. Default `nil`.
    public var redirectHandler: (any ImageDownloadRedirectHandler)?
    /// See ``KingfisherOptionsInfoItem/processingQueue(_:)``. Default `nil` (the downloader's queue).
    public var processingQueue: CallbackQueue?
    /// See ``KingfisherOptionsInfoItem/forceRefresh``. Default `false`.
    public var forceRefresh = false
    /// See ``KingfisherOptionsInfoItem/waitForCache``. Default `false`.
    public var waitForCache = false
    /// See ``KingfisherOptionsInfoItem/onlyFromCache``. Default `false`.
    public var onlyFromCache = false
    /// See ``KingfisherOptionsInfoItem/imageModifier(_:)``. Default `nil`.
    public var imageModifier: (any ImageModifier)?
    /// See ``KingfisherOptionsInfoItem/keepCurrentImageWhileLoading``. Default `false`.
    public var keepCurrentImageWhileLoading = false
    /// See ``KingfisherOptionsInfoItem/transition(_:)``. Default ``ImageTransition/none``.
    public var transition: ImageTransition = .none
    /// See ``KingfisherOptionsInfoItem/forceTransition``. Default `false`.
    public var forceTransition = false
    /// See ``KingfisherOptionsInfoItem/cacheOriginalImage``. Default `false`.
    public var cacheOriginalImage = false
    /// See ``KingfisherOptionsInfoItem/onFailureImage(_:)``. Default `nil` (unset).
    public var onFailureImage: KFCrossPlatformImage?? = .none
    /// See ``KingfisherOptionsInfoItem/alsoPrefetchToMemory``. Default `false`.
    public var alsoPrefetchToMemory = false
    /// See ``KingfisherOptionsInfoItem/asyncCacheTypeCheck``. Default `false`.
    @available(*, deprecated, message: "no effect on Linux: the cache type check is already cheap")
    public var asyncCacheTypeCheck = false
    /// See ``KingfisherOptionsInfoItem/alternativeSources(_:)``. Default `nil`.
    public var alternativeSources: [Source]?
    /// See ``KingfisherOptionsInfoItem/lowDataMode(_:)``. Default `nil`.
    public var lowDataModeSource: Source?
    /// See ``KingfisherOptionsInfoItem/progressiveJPEG(_:)``. Default `nil`.
    public var progressiveJPEG: ImageProgressive?
    /// Where an image target's progressive previews go: set by `kf.setImage` for its target.
    var progressiveImageSetter: (@Sendable (KFCrossPlatformImage) -> Void)?
    /// See ``KingfisherOptionsInfoItem/retryStrategy(_:)``. Default `nil`.
    public var retryStrategy: (any RetryStrategy)?
    /// See ``KingfisherOptionsInfoItem/httpCachePolicy(_:)``. Default ``HTTPCachePolicy/clientDecides``.
    public var httpCachePolicy: HTTPCachePolicy = .clientDecides

    /// Parses `info`; the last occurrence of an item wins. `nil` gives all defaults.
    public init(_ info: KingfisherOptionsInfo?) {
        for item in info ?? [] {
            switch item {
            case .scaleFactor(let value): scaleFactor = value
            case .preloadAllAnimationData: preloadAllAnimationData = true
            case .onlyLoadFirstFrame: onlyLoadFirstFrame = true
            case .maxPixelCount(let value): maxPixelCount = value
            case .maxFrameCount(let value): maxFrameCount = value
            case .maxEXIFByteCount(let value): maxEXIFByteCount = value
            case .maxDecodedByteCount(let value): maxDecodedByteCount = value
            case .preserveColorProfile: preserveColorProfile = true
            case .cacheSerializer(let value): cacheSerializer = value
            case .targetCache(let value): targetCache = value
            case .originalCache(let value): originalCache = value
            case .processor(let value): processor = value
            case .callbackQueue(let value): callbackQueue = value
            case .fromMemoryCacheOrRefresh: fromMemoryCacheOrRefresh = true
            case .cacheMemoryOnly: cacheMemoryOnly = true
            case .loadDiskFileSynchronously: loadDiskFileSynchronously = true
            case .memoryCacheExpiration(let value): memoryCacheExpiration = value
            case .memoryCacheAccessExtendingExpiration(let value): memoryCacheAccessExtendingExpiration = value
            case .diskCacheExpiration(let value): diskCacheExpiration = value
            case .diskCacheAccessExtendingExpiration(let value): diskCacheAccessExtendingExpiration = value
            case .forcedCacheFileExtension(let value): forcedExtension = value
            case .downloader(let value): downloader = value
            case .downloadPriority(let value): downloadPriority = value
            case .requestModifier(let value): requestModifier = value
            case .redirectHandler(let value): redirectHandler = value
            case .processingQueue(let value): processingQueue = value
            case .forceRefresh: forceRefresh = true
            case .waitForCache: waitForCache = true
            case .onlyFromCache: onlyFromCache = true
            case .imageModifier(let value): imageModifier = value
            case .keepCurrentImageWhileLoading: keepCurrentImageWhileLoading = true
            case .transition(let value): transition = value
            case .forceTransition: forceTransition = true
            case .cacheOriginalImage: cacheOriginalImage = true
            case .onFailureImage(let value): onFailureImage = .some(value)
            case .alsoPrefetchToMemory: alsoPrefetchToMemory = true
            case .alternativeSources(let value): alternativeSources = value
            case .lowDataMode(let value): lowDataModeSource = value
            case .progressiveJPEG(let value): progressiveJPEG = value
            case .retryStrategy(let value): retryStrategy = value
            case .httpCachePolicy(let value): httpCachePolicy = value
            default:
                // The items deprecated as no-ops on Linux; naming them here would warn.
                break
            }
        }
    }

    /// The decoding options these options imply.
    public var imageCreatingOptions: ImageCreatingOptions {
        ImageCreatingOptions(
            scale: scaleFactor, preloadAll: preloadAllAnimationData,
            onlyFirstFrame: onlyLoadFirstFrame, maxPixelCount: maxPixelCount,
            maxFrameCount: maxFrameCount, maxEXIFByteCount: maxEXIFByteCount,
            maxDecodedByteCount: maxDecodedByteCount, preserveColorProfile: preserveColorProfile,
            maxOutputPixelCount: maxOutputPixelCount, pixelMemory: pixelMemory)
    }
}
