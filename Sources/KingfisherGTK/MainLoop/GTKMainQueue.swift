// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CKingfisherGTK

/// The main actor in a GTK program.
///
/// On Linux the main actor's jobs (`@MainActor` code, `Task { @MainActor in … }`,
/// `await MainActor.run { … }`) go to the dispatch main queue, which nothing drains while
/// `g_application_run` or a GLib main loop runs. ``attach()`` adds a GLib source that drains the
/// queue whenever it has work, woken by the queue's own event descriptor (no polling), so that
/// main-actor work runs on GTK's thread, between its frames.
///
/// The views of this module attach it when they are made; call it yourself before the main
/// loop when main-actor work must run before any view exists.
public enum GTKMainQueue {
    /// Attaches the main queue to GLib's default main context. Idempotent; call on the main
    /// thread (the one that runs GTK).
    @MainActor
    public static func attach() {
        kf_gtk_attach_main_queue()
    }
}
