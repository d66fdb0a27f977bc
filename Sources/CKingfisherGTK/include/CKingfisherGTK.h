// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

// What KingfisherGTK needs from C: GLib's type system (a GdkPaintable that animates a
// transition), the dispatch main queue's wake-up handle, and GTK's casting macros, which Swift
// cannot call.
#ifndef KF_GTK_SUPPORT_H
#define KF_GTK_SUPPORT_H

#include <gtk/gtk.h>

/// Attaches a GLib source to the default main context that drains the dispatch main queue
/// whenever it has work: main-actor jobs then run on GTK's thread while a GLib main loop (or
/// g_application_run) runs, woken by the queue's eventfd rather than polled. Idempotent; call on
/// the main thread.
void kf_gtk_attach_main_queue(void);

/// How a transition paintable draws the move from one paintable to the next.
typedef enum {
    /// The old picture fades out as the new one fades in.
    KF_TRANSITION_FADE = 0,
    /// Turns on the vertical axis: the old picture's right edge goes away from the viewer,
    /// then the new picture turns in.
    KF_TRANSITION_FLIP_FROM_LEFT,
    /// Turns on the vertical axis the other way.
    KF_TRANSITION_FLIP_FROM_RIGHT,
    /// Turns on the horizontal axis: the bottom edge goes away first.
    KF_TRANSITION_FLIP_FROM_TOP,
    /// Turns on the horizontal axis the other way.
    KF_TRANSITION_FLIP_FROM_BOTTOM,
} kf_transition_kind;

/// A paintable drawing `from` (may be NULL: nothing) turning into `to` by `kind`, at progress 0.
/// Its intrinsic size is `to`'s; each picture is drawn aspect-fit in the area it is given.
GdkPaintable *kf_transition_paintable_new(GdkPaintable *from, GdkPaintable *to, kf_transition_kind kind);

/// Moves the transition to `progress` (0 ... 1) and invalidates its contents.
void kf_transition_paintable_set_progress(GdkPaintable *paintable, double progress);

/// Renders `widget` (its current state, as the screen shows it) with GSK's cairo renderer and
/// writes it to `path` as a PNG. False, with a message in `error`, when it cannot.
gboolean kf_gtk_widget_save_png(GtkWidget *widget, const char *path, char *error, size_t error_size);

/// GTK's casts, as functions.
static inline GtkWidget *kf_gtk_widget(gpointer instance) { return GTK_WIDGET(instance); }
static inline GtkPicture *kf_gtk_picture(gpointer instance) { return GTK_PICTURE(instance); }
static inline GtkOverlay *kf_gtk_overlay(gpointer instance) { return GTK_OVERLAY(instance); }
static inline GtkButton *kf_gtk_button(gpointer instance) { return GTK_BUTTON(instance); }
static inline GtkWindow *kf_gtk_window(gpointer instance) { return GTK_WINDOW(instance); }
static inline GdkPaintable *kf_gdk_paintable(gpointer instance) { return GDK_PAINTABLE(instance); }
static inline GApplication *kf_g_application(gpointer instance) { return G_APPLICATION(instance); }
static inline GtkSpinner *kf_gtk_spinner(gpointer instance) { return GTK_SPINNER(instance); }

#endif
