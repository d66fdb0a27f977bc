// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// A place for one callback, set and replaced from any thread: how tests are told of an event
/// (a purge heard, a wait begun) instead of waiting for a time.
///
/// The function is kept in a class, not in ``Locked`` itself: a closure stored in a generic
/// `inout` value is wrapped in two more reabstraction thunks at every access, so each call
/// would get slower than the last.
package final class CallbackSlot<Argument>: Sendable {
    private let slot = Locked<Box?>(nil)

    private final class Box: Sendable {
        let body: @Sendable (Argument) -> Void
        init(_ body: @escaping @Sendable (Argument) -> Void) { self.body = body }
    }

    package init() {}

    /// Calls `body` at each event from now on; `nil` for none.
    package func set(_ body: (@Sendable (Argument) -> Void)?) {
        slot.withLock { $0 = body.map(Box.init) }
    }

    /// Tells the callback, if any, of an event.
    package func call(_ argument: Argument) {
        slot.withLock { $0 }?.body(argument)
    }
}
