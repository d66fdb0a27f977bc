import Foundation

/// Options for Kingfisher operations, as a list of ``KingfisherOptionsInfoItem``.
public typealias KingfisherOptionsInfo = [KingfisherOptionsInfoItem]

/// One option. The list is parsed once into ``KingfisherParsedOptionsInfo``; when an item
/// appears more than once, the last occurrence wins. Items are added as the parts that read
/// them land (processors, cache, downloader, manager).
public enum KingfisherOptionsInfoItem: Sendable {
    /// The scale of created images (points = pixels / scale). Default 1.0.
    case scaleFactor(CGFloat)
    /// Decode all frames of animated data up front. Frames are always decoded eagerly on Linux;
    /// kept for compatibility. Default off.
    case preloadAllAnimationData
    /// Load only the first frame of animated data. Default off.
    case onlyLoadFirstFrame
    /// The largest image accepted, in pixels (width x height x frames); larger images are refused
    /// from their header. Default ``ImageCreatingOptions/defaultMaxPixelCount`` (100 000 000).
    case maxPixelCount(Int)
    /// How images are turned into bytes for the disk cache and back. Default
    /// ``DefaultCacheSerializer/default``.
    case cacheSerializer(any CacheSerializer)
}

/// The parsed form of ``KingfisherOptionsInfo``: one property per option, with defaults.
public struct KingfisherParsedOptionsInfo: Sendable {
    /// See ``KingfisherOptionsInfoItem/scaleFactor(_:)``. Default 1.0.
    public var scaleFactor: CGFloat = 1.0
    /// See ``KingfisherOptionsInfoItem/preloadAllAnimationData``. Default `false`.
    public var preloadAllAnimationData = false
    /// See ``KingfisherOptionsInfoItem/onlyLoadFirstFrame``. Default `false`.
    public var onlyLoadFirstFrame = false
    /// See ``KingfisherOptionsInfoItem/maxPixelCount(_:)``. Default 100 000 000.
    public var maxPixelCount = ImageCreatingOptions.defaultMaxPixelCount
    /// See ``KingfisherOptionsInfoItem/cacheSerializer(_:)``. Default ``DefaultCacheSerializer/default``.
    public var cacheSerializer: any CacheSerializer = DefaultCacheSerializer.default

    /// Parses `info`; the last occurrence of an item wins. `nil` gives all defaults.
    public init(_ info: KingfisherOptionsInfo?) {
        for item in info ?? [] {
            switch item {
            case .scaleFactor(let value): scaleFactor = value
            case .preloadAllAnimationData: preloadAllAnimationData = true
            case .onlyLoadFirstFrame: onlyLoadFirstFrame = true
            case .maxPixelCount(let value): maxPixelCount = value
            case .cacheSerializer(let value): cacheSerializer = value
            }
        }
    }

    /// Whether a processed image of `size` pixels with `frames` frames stays within
    /// ``maxPixelCount``; processors refuse larger outputs instead of allocating them.
    func allowsOutput(of size: (width: Int, height: Int), frames: Int) -> Bool {
        let (area, overflow1) = size.width.multipliedReportingOverflow(by: size.height)
        let (total, overflow2) = area.multipliedReportingOverflow(by: max(frames, 1))
        return !overflow1 && !overflow2 && total <= maxPixelCount
    }

    /// The decoding options these options imply.
    public var imageCreatingOptions: ImageCreatingOptions {
        ImageCreatingOptions(scale: scaleFactor, preloadAll: preloadAllAnimationData,
                             onlyFirstFrame: onlyLoadFirstFrame, maxPixelCount: maxPixelCount)
    }
}
