// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CGtk

/// Swift closures as GLib callbacks: signal handlers and timers, which run on GTK's thread (the
/// main actor's, once ``GTKMainQueue/attach()`` has run).
public enum GLibCallbacks {
    /// Connects `handler` to `signal` of the GObject `instance`, for signals whose handler takes
    /// only the instance (`activate`, `clicked`, `value-changed`). Returns the handler's ID;
    /// the closure is released when it is disconnected or the instance is finalized.
    @MainActor
    @discardableResult
    public static func connect(_ instance: UnsafeMutableRawPointer, signal: String, _ handler: @escaping @MainActor () -> Void) -> UInt {
        let thunk: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
            let box = Unmanaged<ClosureBox<UnsafeMutableRawPointer?>>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { box.body(nil) }
        }
        return connect(instance, signal, unsafeBitCast(thunk, to: GCallback.self), ClosureBox<UnsafeMutableRawPointer?> { _ in handler() })
    }

    /// Connects `handler` to `signal` of the GObject `instance`, for signals whose handler takes
    /// the instance and one more argument, which `handler` gets (a list item factory's `setup`
    /// and `bind` pass the list item).
    @MainActor
    @discardableResult
    public static func connect(
        _ instance: UnsafeMutableRawPointer, signal: String,
        argumentHandler handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void
    ) -> UInt {
        let thunk: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = {
            _, argument, data in
            let box = Unmanaged<ClosureBox<UnsafeMutableRawPointer?>>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { box.body(argument) }
        }
        return connect(instance, signal, unsafeBitCast(thunk, to: GCallback.self), ClosureBox(handler))
    }

    @MainActor
    private static func connect(
        _ instance: UnsafeMutableRawPointer, _ signal: String, _ callback: GCallback, _ box: ClosureBox<UnsafeMutableRawPointer?>
    ) -> UInt {
        g_signal_connect_data(
            instance, signal, callback, Unmanaged.passRetained(box).toOpaque(),
            { data, _ in Unmanaged<ClosureBox<UnsafeMutableRawPointer?>>.fromOpaque(data!).release() }, GConnectFlags(0))
    }

    /// Runs `body` once after `seconds`, on GTK's thread.
    @MainActor
    public static func after(seconds: Double, _ body: @escaping @MainActor () -> Void) {
        let box = Unmanaged.passRetained(ClosureBox<Void>({ _ in body() })).toOpaque()
        g_timeout_add_once(
            UInt32(max(0, seconds * 1000).rounded()),
            { data in
                let box = Unmanaged<ClosureBox<Void>>.fromOpaque(data!).takeRetainedValue()
                MainActor.assumeIsolated { box.body(()) }
            }, box)
    }

    /// Calls `body` with the frame time (in seconds) at each frame `widget` draws, until it
    /// returns false or the widget is destroyed. Returns the tick callback's ID (for
    /// `gtk_widget_remove_tick_callback`).
    @MainActor
    @discardableResult
    public static func everyFrame(of widget: UnsafeMutablePointer<GtkWidget>, _ body: @escaping @MainActor (Double) -> Bool) -> UInt32 {
        let box = Unmanaged.passRetained(FrameBox(body)).toOpaque()
        return gtk_widget_add_tick_callback(
            widget,
            { _, clock, data in
                let box = Unmanaged<FrameBox>.fromOpaque(data!).takeUnretainedValue()
                let seconds = Double(gdk_frame_clock_get_frame_time(clock)) / 1_000_000
                return MainActor.assumeIsolated { box.body(seconds) } ? 1 : 0
            }, box, { data in Unmanaged<FrameBox>.fromOpaque(data!).release() })
    }
}

extension GLibCallbacks {
    /// Runs `body` once `widget`'s next frame has been drawn: from an idle callback, whose
    /// priority is below GTK's redraw (a frame clock tick comes before layout and drawing).
    @MainActor
    public static func afterNextFrame(of widget: UnsafeMutablePointer<GtkWidget>, _ body: @escaping @MainActor () -> Void) {
        everyFrame(of: widget) { _ in
            let box = Unmanaged.passRetained(ClosureBox<Void>({ _ in body() })).toOpaque()
            g_idle_add_once(
                { data in
                    let box = Unmanaged<ClosureBox<Void>>.fromOpaque(data!).takeRetainedValue()
                    MainActor.assumeIsolated { box.body(()) }
                }, box)
            return false
        }
    }
}

/// A closure, kept alive for GLib by an unmanaged reference.
private final class ClosureBox<Argument> {
    let body: @MainActor (Argument) -> Void
    init(_ body: @escaping @MainActor (Argument) -> Void) { self.body = body }
}

private final class FrameBox {
    let body: @MainActor (Double) -> Bool
    init(_ body: @escaping @MainActor (Double) -> Bool) { self.body = body }
}
