// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CGtk
import CKingfisherGTK
import Foundation
import Kingfisher

/// Told how an ``AnimatedImageView``'s animation goes, as Kingfisher's
/// `AnimatedImageViewDelegate`. Both methods default to nothing.
@MainActor
public protocol AnimatedImageViewDelegate: AnyObject {
    /// The animation finished loop number `count` (from 1).
    func animatedImageView(_ imageView: AnimatedImageView, didPlayAnimationLoops count: UInt)
    /// The animation ended: its ``AnimatedImageView/repeatCount`` loops have played.
    func animatedImageViewDidFinishAnimating(_ imageView: AnimatedImageView)
}

extension AnimatedImageViewDelegate {
    /// Nothing.
    public func animatedImageView(_ imageView: AnimatedImageView, didPlayAnimationLoops count: UInt) {}
    /// Nothing.
    public func animatedImageViewDidFinishAnimating(_ imageView: AnimatedImageView) {}
}

/// An image view that plays animated images (GIF, APNG, animated WebP and AVIF), as Kingfisher's
/// `AnimatedImageView`.
///
/// Frames come from the image's on-demand frame source: at most ``framePreloadCount`` frames
/// ahead of the one shown are decoded, off the main thread, so a long animation plays in
/// bounded memory. Each frame shows for its own duration (durations of 10 ms or less show for
/// 100 ms, as browsers do), timed by the widget's frame clock.
@MainActor
open class AnimatedImageView: GTKImageView {
    /// How many times the animation plays, as Kingfisher's `RepeatCount`.
    public enum RepeatCount: Equatable, Sendable {
        /// Once.
        case once
        /// `count` times.
        case finite(count: UInt)
        /// Forever.
        case infinite
    }

    /// Whether an animated image starts playing as soon as it is set. Default `true`.
    public var autoPlayAnimatedImage = true
    /// How many frames are decoded ahead of the one shown. Default 10.
    public var framePreloadCount = 10
    /// How many times the animation plays; setting it restarts the count. Default
    /// ``RepeatCount/infinite``.
    public var repeatCount = RepeatCount.infinite {
        didSet { animator?.resetLoops() }
    }
    /// Told of finished loops and of the animation's end.
    public weak var delegate: (any AnimatedImageViewDelegate)?
    /// Called when the animation ends (after its ``repeatCount`` loops), after the delegate.
    public var onAnimationEnded: (@MainActor () -> Void)?

    /// The animation of the image shown, when it has several frames.
    public private(set) var animator: Animator?
    private var tick: UInt32 = 0

    /// A view showing `image` (default none), playing it if it is animated.
    public override init(image: KingfisherImage? = nil) {
        super.init(image: nil)
        self.image = image
    }

    isolated deinit {
        stopTicking()
    }

    /// The image shown; an animated one plays when ``autoPlayAnimatedImage`` is set.
    open override var image: KingfisherImage? {
        didSet {
            guard image !== oldValue else { return }
            stopTicking()
            animator = nil
            guard let image, image.frameCount > 1 else { return }
            animator = Animator(image: image, preloadCount: max(1, framePreloadCount), view: self)
            if autoPlayAnimatedImage { startAnimating() }
        }
    }

    /// Whether the animation is playing.
    public var isAnimating: Bool { tick != 0 }

    /// Plays the animation from the frame shown.
    public func startAnimating() {
        guard let animator, tick == 0, !animator.isFinished else { return }
        animator.resume()
        tick = GLibCallbacks.everyFrame(of: widget) { [weak self] time in
            guard let self, let animator = self.animator else { return false }
            return animator.advance(to: time)
        }
    }

    /// Pauses the animation on the frame shown.
    public func stopAnimating() {
        stopTicking()
    }

    private func stopTicking() {
        if tick != 0 {
            gtk_widget_remove_tick_callback(widget, tick)
            tick = 0
        }
    }

    /// Shows a frame's texture without changing ``image``.
    fileprivate func showFrame(_ texture: OpaquePointer) {
        showPaintable(texture)
    }

    /// The animation ended: no more ticks.
    fileprivate func animationEnded() {
        tick = 0
        delegate?.animatedImageViewDidFinishAnimating(self)
        onAnimationEnded?()
    }

    fileprivate func loopFinished(_ count: UInt) {
        delegate?.animatedImageView(self, didPlayAnimationLoops: count)
    }

    /// Plays an animated image's frames, as Kingfisher's `AnimatedImageView.Animator`.
    @MainActor
    public final class Animator {
        private let image: KingfisherImage
        private let preloadCount: Int
        private weak var view: AnimatedImageView?
        /// Decoded frames ahead of (and including) the one shown, by index.
        private var decoded: [Int: ImageFrame] = [:]
        /// The next index the decoding task will decode, while one runs.
        private var decoding: Task<Void, Never>?
        private var lastTime: Double?
        private var elapsed = 0.0
        private var loops: UInt = 0
        fileprivate private(set) var isFinished = false

        /// The index of the frame shown.
        public private(set) var currentFrameIndex = 0

        /// The number of frames.
        public var maxFrameCount: Int { image.frameCount }

        /// The frame shown, as an image.
        public var currentFrameImage: KingfisherImage? { frame(at: currentFrameIndex) }

        /// How long the frame shown stays.
        public var currentFrameDuration: TimeInterval { duration(at: currentFrameIndex) }

        /// Whether the frame shown is the last.
        public var isLastFrame: Bool { currentFrameIndex == maxFrameCount - 1 }

        init(image: KingfisherImage, preloadCount: Int, view: AnimatedImageView) {
            self.image = image
            self.preloadCount = preloadCount
            self.view = view
            decoded[0] = try? image.frame(at: 0)
            preload()
        }

        isolated deinit {
            decoding?.cancel()
        }

        /// Frame `index` as an image, if it is decoded (frames far ahead are not, yet).
        public func frame(at index: Int) -> KingfisherImage? {
            guard let frame = decoded[index] else { return nil }
            return KingfisherImage(width: image.pixelWidth, height: image.pixelHeight, pixels: frame.pixels, scale: image.scale)
        }

        /// How long frame `index` shows: its duration, or 0.1 s for 10 ms or less.
        public func duration(at index: Int) -> TimeInterval {
            let duration = image.frameDuration(at: index)
            return duration > 0.01 ? duration : 0.1
        }

        func resetLoops() {
            loops = 0
            isFinished = false
        }

        func resume() {
            lastTime = nil
        }

        /// Moves the animation to frame-clock time `time`; false when it has ended.
        func advance(to time: Double) -> Bool {
            defer { lastTime = time }
            guard let lastTime else { return true }
            elapsed += time - lastTime
            var changed = false
            while elapsed >= duration(at: currentFrameIndex) {
                let next = (currentFrameIndex + 1) % maxFrameCount
                // Not decoded yet: stay on this frame rather than wait on the main thread.
                guard decoded[next] != nil else {
                    elapsed = duration(at: currentFrameIndex)
                    break
                }
                elapsed -= duration(at: currentFrameIndex)
                if next == 0 {
                    loops += 1
                    view?.loopFinished(loops)
                    if loopsDone {
                        isFinished = true
                        view?.animationEnded()
                        return false
                    }
                }
                if currentFrameIndex != 0 { decoded[currentFrameIndex] = nil }
                currentFrameIndex = next
                changed = true
            }
            if changed {
                show(currentFrameIndex)
                preload()
            }
            return true
        }

        private var loopsDone: Bool {
            switch view?.repeatCount ?? .infinite {
            case .once: return loops >= 1
            case .finite(let count): return loops >= count
            case .infinite: return false
            }
        }

        private func show(_ index: Int) {
            guard let frame = decoded[index] else { return }
            let texture = ImageTexture.texture(width: image.pixelWidth, height: image.pixelHeight, pixels: frame.pixels)
            view?.showFrame(texture)
            texture.release()
        }

        /// Decodes, in order and off the main thread, the frames up to `preloadCount` ahead of
        /// the one shown (wrapping to the start); the first frame stays decoded.
        private func preload() {
            guard decoding == nil else { return }
            let wanted = (1...preloadCount).map { (currentFrameIndex + $0) % maxFrameCount }.filter { decoded[$0] == nil }
            guard !wanted.isEmpty else { return }
            let image = image
            decoding = Task { [weak self] in
                for index in wanted {
                    let frame = await Task.detached(priority: .userInitiated) { try? image.frame(at: index) }.value
                    guard let self, !Task.isCancelled else { return }
                    // A damaged frame repeats the one before it, as browsers keep the last good frame.
                    self.decoded[index] = frame ?? self.decoded[(index + self.maxFrameCount - 1) % self.maxFrameCount]
                }
                self?.decoding = nil
                self?.preload()
            }
        }
    }
}
