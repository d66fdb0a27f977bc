// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CGtk
import CKingfisherGTK

/// ``IndicatorType/activity``: a `GtkSpinner` at its natural size. Starts and stops are
/// counted, as Kingfisher's: the spinner hides when every start has been stopped.
@MainActor
final class ActivityIndicator: Indicator {
    let view: IndicatorView
    private var animatingCount = 0

    init() {
        view = gtk_spinner_new()
        g_object_ref_sink(view)
        gtk_widget_set_size_request(view, 24, 24)
        gtk_widget_set_visible(view, 0)
    }

    isolated deinit {
        g_object_unref(view)
    }

    func startAnimatingView() {
        if animatingCount == 0 {
            gtk_spinner_start(kf_gtk_spinner(view))
            gtk_widget_set_visible(view, 1)
        }
        animatingCount += 1
    }

    func stopAnimatingView() {
        animatingCount = max(animatingCount - 1, 0)
        if animatingCount == 0 {
            gtk_spinner_stop(kf_gtk_spinner(view))
            gtk_widget_set_visible(view, 0)
        }
    }

    func sizeStrategy(in imageView: KFCrossPlatformImageView) -> IndicatorSizeStrategy { .intrinsicSize }
}
