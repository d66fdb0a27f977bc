// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CGtk
import CKingfisherGTK
import Kingfisher

/// An image view's transition in progress: a transition paintable in the picture, moved on at
/// each frame of the widget's frame clock, and replaced by the image's own texture at the end.
@MainActor
final class RunningTransition {
    private weak var view: GTKImageView?
    private let paintable: OpaquePointer
    private var tick: UInt32 = 0
    private var done: (@MainActor () -> Void)?

    /// Starts drawing `from` (the picture's paintable before; may be nil) turning into `to`.
    init(view: GTKImageView, from: OpaquePointer?, to: OpaquePointer, transition: ImageTransition, done: @escaping @MainActor () -> Void) {
        self.view = view
        self.done = done
        paintable = kf_transition_paintable_new(from, to, Self.kind(of: transition))
        view.showPaintable(paintable)
        let duration = transition.duration
        var start: Double?
        tick = GLibCallbacks.everyFrame(of: view.widget) { [weak self] time in
            guard let self else { return false }
            let began = start ?? time
            start = began
            let progress = min(1, (time - began) / duration)
            kf_transition_paintable_set_progress(self.paintable, progress)
            if progress >= 1 {
                self.tick = 0
                self.finish()
                return false
            }
            return true
        }
    }

    isolated deinit {
        paintable.release()
    }

    /// Ends the transition now: the view shows its image, and the completion runs once.
    func finish() {
        if tick != 0, let view {
            gtk_widget_remove_tick_callback(view.widget, tick)
        }
        tick = 0
        guard let done else { return }
        self.done = nil
        view?.transitionEnded(self)
        done()
    }

    private static func kind(of transition: ImageTransition) -> kf_transition_kind {
        switch transition {
        case .none, .fade: return KF_TRANSITION_FADE
        case .flipFromLeft: return KF_TRANSITION_FLIP_FROM_LEFT
        case .flipFromRight: return KF_TRANSITION_FLIP_FROM_RIGHT
        case .flipFromTop: return KF_TRANSITION_FLIP_FROM_TOP
        case .flipFromBottom: return KF_TRANSITION_FLIP_FROM_BOTTOM
        }
    }
}

extension GTKImageView {
    /// Replaces the placeholder (or the image shown) with `image`, animated by `transition`;
    /// `done` runs when it ends (or is cut short by a new image).
    func transition(to image: KingfisherImage, with transition: ImageTransition, done: @escaping @MainActor () -> Void) {
        self.transition?.finish()
        let from = gtk_picture_get_paintable(kf_gtk_picture(picture))
        if let from { g_object_ref(UnsafeMutableRawPointer(from)) }
        defer { from?.release() }
        placeholder = nil
        self.image = image
        let to = ImageTexture.texture(of: image)
        defer { to.release() }
        self.transition = RunningTransition(view: self, from: from, to: to, transition: transition, done: done)
    }

    /// Called by a transition as it ends: the picture shows the image's own texture.
    func transitionEnded(_ ended: RunningTransition) {
        guard transition === ended else { return }
        transition = nil
        showImage()
    }
}
