// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Turns one download's scans into previews for its callers that asked for them, one decode at a
/// time on a serial queue: with ``ImageProgressive/isFastestScan`` only the newest scans waiting
/// are decoded (else the last few, oldest first), and previews are at least
/// ``ImageProgressive/scanInterval`` apart (scans arriving sooner wait for the interval).
final class ProgressivePreviewer: Sendable {
    /// Complete scans received: the bytes before the newest scan's start.
    struct Scans: Sendable {
        let prefix: Data
        /// Scans seen, the newest (just started) included: the prefix holds one fewer.
        let count: Int
        let width: Int
        let height: Int
    }

    /// Scans kept waiting when every scan is to be decoded: each holds a copy of the body so
    /// far, so a slow decode must not let them pile up.
    private static let waitingLimit = 4

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
            if newestOnly { state.waiting = [scans] } else { state.waiting = Array((state.waiting + [scans]).suffix(Self.waitingLimit)) }
            guard !state.decoding else { return false }
            state.decoding = true
            return true
        }
        if start { queue.async { self.decodeWaiting() } }
    }

    /// Decodes what waits, one after another, until nothing does; waits out the scan interval
    /// by coming back later rather than dropping scans.
    private func decodeWaiting() {
        while true {
            let callers = self.callers()
            guard let settings = callers.first?.options.progressiveJPEG else {
                state.withLock { $0 = State() }
                return
            }
            let next = state.withLock { state -> (Scans?, Duration) in
                guard !state.waiting.isEmpty else {
                    state.decoding = false
                    return (nil, .zero)
                }
                if let last = state.lastDelivery, settings.scanInterval > 0 {
                    let remaining = Duration.seconds(settings.scanInterval) - (ContinuousClock.now - last)
                    if remaining > .zero { return (nil, remaining) }
                }
                return (state.waiting.removeFirst(), .zero)
            }
            guard let scans = next.0 else {
                if next.1 > .zero {
                    queue.asyncAfter(deadline: .now() + next.1.seconds) { self.decodeWaiting() }
                }
                return
            }
            let options = callers[0].options
            if let preview = ProgressivePreview.image(
                of: scans.prefix, scanCount: scans.count, width: scans.width, height: scans.height,
                isBlur: settings.isBlur, options: options.imageCreatingOptions)
            {
                deliver(preview, to: self.callers())
                state.withLock { $0.lastDelivery = .now }
            }
        }
    }

    /// `processed` with the preview's scale when the processor kept its pixel size (the default
    /// processor resets the scale), so that it shows at the final image's point size; a
    /// processor that resized chose its point size itself.
    private static func keepingPointSize(of preview: KFCrossPlatformImage, in processed: KFCrossPlatformImage) -> KFCrossPlatformImage {
        guard processed.pixelWidth == preview.pixelWidth, processed.pixelHeight == preview.pixelHeight else { return processed }
        return processed.kf.scaled(to: preview.scale)
    }

    /// Runs each caller's processor on `preview` and hands the result over: to an image target's
    /// setter (which asks `onImageUpdated` on the main actor, while the request is current), or
    /// straight to `onImageUpdated`, on this queue, when there is no target.
    private func deliver(_ preview: KFCrossPlatformImage, to callers: [DownloadOperation.Caller]) {
        for caller in callers {
            guard let progressive = caller.options.progressiveJPEG,
                let processed = caller.options.processor.process(item: .image(preview), options: caller.options)
            else { continue }
            let image = Self.keepingPointSize(of: preview, in: processed)
            if let setter = caller.options.progressiveImageSetter {
                setter(image)
            } else {
                _ = progressive.onImageUpdated(image)
            }
        }
    }
}
