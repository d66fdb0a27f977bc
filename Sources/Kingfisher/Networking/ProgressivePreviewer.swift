import Foundation

/// Turns one download's scans into previews for its callers that asked for them, one decode at a
/// time on a serial queue: the newest scans waiting replace older ones (``ImageProgressive/isFastestScan``),
/// and previews are at least ``ImageProgressive/scanInterval`` apart.
final class ProgressivePreviewer: Sendable {
    /// Complete scans received: the bytes before the newest scan's start.
    struct Scans: Sendable {
        let prefix: Data
        let count: Int
        let width: Int
        let height: Int
    }

    private struct State {
        var waiting: [Scans] = []
        var decoding = false
        var lastDelivery: ContinuousClock.Instant?
    }

    private let queue = DispatchQueue(label: "com.onevcat.Kingfisher.ProgressivePreviewer")
    private let state = Locked(State())
    /// The callers to serve now, `[]` once the download has ended.
    private let callers: @Sendable () -> [DownloadOperation.Caller]

    init(callers: @escaping @Sendable () -> [DownloadOperation.Caller]) {
        self.callers = callers
    }

    /// Scans arrived; a decode starts unless one runs, which then takes them.
    func received(_ scans: Scans, newestOnly: Bool) {
        let start = state.withLock { state -> Bool in
            if newestOnly { state.waiting = [scans] } else { state.waiting.append(scans) }
            guard !state.decoding else { return false }
            state.decoding = true
            return true
        }
        if start { queue.async { self.decodeWaiting() } }
    }

    private func decodeWaiting() {
        guard let scans = state.withLock({ state -> Scans? in
            guard !state.waiting.isEmpty else { state.decoding = false; return nil }
            return state.waiting.removeFirst()
        }) else { return }
        let callers = self.callers()
        guard let settings = callers.first?.options.progressiveJPEG else {
            state.withLock { $0 = State() }
            return
        }
        if let last = state.withLock({ $0.lastDelivery }), settings.scanInterval > 0,
           ContinuousClock.now - last < .seconds(settings.scanInterval) {
            // Too soon: drop these scans, as Kingfisher does; newer ones come, and the final image.
            return decodeWaiting()
        }
        let options = callers[0].options
        if let preview = ProgressivePreview.image(of: scans.prefix, scanCount: scans.count, width: scans.width, height: scans.height,
                                                  isBlur: settings.isBlur, options: options.imageCreatingOptions) {
            deliver(preview, to: self.callers())
            state.withLock { $0.lastDelivery = .now }
        }
        decodeWaiting()
    }

    /// `processed` with the preview's scale when the processor kept its pixel size (the default
    /// processor resets the scale), so that it shows at the final image's point size; a
    /// processor that resized chose its point size itself.
    private static func keepingPointSize(of preview: KFCrossPlatformImage, in processed: KFCrossPlatformImage) -> KFCrossPlatformImage {
        guard processed.pixelWidth == preview.pixelWidth, processed.pixelHeight == preview.pixelHeight,
              processed.scale != preview.scale else { return processed }
        return KingfisherImage(width: processed.pixelWidth, height: processed.pixelHeight, frames: [ImageFrame(pixels: processed.pixels)],
                               scale: preview.scale, hasAlpha: processed.hasAlpha, colorProfile: processed.colorProfile)
    }

    /// Runs each caller's processor on `preview` and hands the result to its `onImageUpdated`
    /// and its target, on the caller's callback queue.
    private func deliver(_ preview: KFCrossPlatformImage, to callers: [DownloadOperation.Caller]) {
        for caller in callers {
            guard let progressive = caller.options.progressiveJPEG,
                  let processed = caller.options.processor.process(item: .image(preview), options: caller.options) else { continue }
            let image = Self.keepingPointSize(of: preview, in: processed)
            let setter = caller.options.progressiveImageSetter
            caller.options.callbackQueue.execute {
                switch progressive.onImageUpdated(image) ?? .default {
                case .default: setter?(image)
                case .keepCurrent: break
                case .replace(let replacement): setter?(replacement)
                }
            }
        }
    }
}
