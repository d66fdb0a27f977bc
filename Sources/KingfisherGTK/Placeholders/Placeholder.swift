// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CGtk
import CKingfisherGTK
import Kingfisher

/// What shows in an image view while its image loads, as Kingfisher's `Placeholder`: an image
/// (`KingfisherImage` conforms), or any widget (``WidgetPlaceholder``).
public protocol Placeholder: Sendable {
    /// Shows the placeholder in `imageView`.
    @MainActor func add(to imageView: KFCrossPlatformImageView)
    /// Removes it from `imageView`.
    @MainActor func remove(from imageView: KFCrossPlatformImageView)
}

extension KingfisherImage: Placeholder {
    /// Shows this image as the view's image.
    @MainActor public func add(to imageView: KFCrossPlatformImageView) {
        imageView.image = self
    }

    /// Clears the view's image.
    @MainActor public func remove(from imageView: KFCrossPlatformImageView) {
        imageView.image = nil
    }
}

/// A widget shown as a placeholder, over the image view (Kingfisher's views conform to
/// `Placeholder` by adding themselves as a subview). Implement ``widget``; ``Placeholder/add(to:)``
/// and ``Placeholder/remove(from:)`` put it in the view's overlay, filling it.
public protocol WidgetPlaceholder: Placeholder {
    /// The widget shown.
    @MainActor var widget: UnsafeMutablePointer<GtkWidget> { get }
}

extension WidgetPlaceholder {
    /// Puts ``widget`` over the image view, filling it.
    @MainActor public func add(to imageView: KFCrossPlatformImageView) {
        imageView.addOverlay(widget)
    }

    /// Takes ``widget`` out of the image view.
    @MainActor public func remove(from imageView: KFCrossPlatformImageView) {
        imageView.removeOverlay(widget)
    }
}

/// Any GTK widget as a placeholder: a label, a box with an icon, a spinner.
@MainActor
public final class PlaceholderWidget: WidgetPlaceholder, Sendable {
    /// The widget shown.
    public let widget: UnsafeMutablePointer<GtkWidget>

    /// Wraps `widget`, taking a reference to it (a new widget's floating reference is sunk).
    public init(_ widget: UnsafeMutablePointer<GtkWidget>) {
        self.widget = widget
        g_object_ref_sink(widget)
    }

    isolated deinit {
        g_object_unref(widget)
    }
}
