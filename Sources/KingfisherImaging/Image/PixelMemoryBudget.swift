// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// Bytes of decoded pixels that concurrent work may hold together: a service gives each request
/// an ``Account`` (through ``ImageCreatingOptions/pixelMemory``), and decoders and processors
/// charge it before they allocate, so that a request whose pixels would take the total past
/// ``limit`` is refused from a file's header or a processor's output size, before anything is
/// allocated, instead of pushing the process past it.
///
/// An account holds, at any time, the most its work has needed at once: the two largest
/// buffers in a row (a step's input and its output, or a decoded frame and the next), which is
/// what a decode followed by a chain of processors keeps alive. It gives it all back when
/// closed.
public final class PixelMemoryBudget: Sendable {
    /// The most bytes all open accounts may hold together.
    public let limit: Int
    // Bytes the open accounts hold.
    private let held = Locked(0)

    /// A budget of `limit` bytes.
    public init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// The bytes the open accounts hold now.
    public var heldBytes: Int { held.withLock { $0 } }

    /// A new, empty account for one piece of work; close it when the work's pixels are gone.
    public func makeAccount() -> Account { Account(budget: self) }

    /// Takes `bytes` more for an account: `nil` when they fit, else why not.
    fileprivate func take(_ bytes: Int, accountHolds: Int) -> Refusal? {
        held.withLock { held in
            guard accountHolds + bytes <= limit, held + bytes <= limit else {
                return Refusal(needed: accountHolds + bytes, heldByOthers: held - accountHolds, limit: limit)
            }
            held += bytes
            return nil
        }
    }

    fileprivate func giveBack(_ bytes: Int) {
        held.withLock { $0 -= bytes }
    }

    /// Why an account could not take what its work needed.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// Bytes the work needed at once.
        public var needed: Int
        /// Bytes other accounts held at the time.
        public var heldByOthers: Int
        /// The budget's limit.
        public var limit: Int

        /// A refusal of `needed` bytes while others held `heldByOthers` of `limit`.
        public init(needed: Int, heldByOthers: Int, limit: Int) {
            self.needed = needed
            self.heldByOthers = heldByOthers
            self.limit = limit
        }

        /// Whether the work needs more than the whole budget, so that it can never run; else it
        /// may once other work gives its pixels back.
        public var exceedsWholeBudget: Bool { needed > limit }

        /// One line, in MB.
        public var description: String {
            let mb = { (bytes: Int) in "\((bytes + 999_999) / 1_000_000) MB" }
            if exceedsWholeBudget {
                return "its pixels need \(mb(needed)) at once, more than the whole pixel memory budget of \(mb(limit))"
            }
            return "its pixels need \(mb(needed)) at once and other work holds \(mb(heldByOthers)) of the \(mb(limit)) pixel memory budget"
        }
    }

    /// One piece of work's share of the budget.
    public final class Account: Sendable, Equatable {
        private struct State {
            var holds = 0
            var lastCharge = 0
            var refusal: Refusal?
            var closed = false
        }
        private let budget: PixelMemoryBudget
        private let state = Locked(State())

        fileprivate init(budget: PixelMemoryBudget) {
            self.budget = budget
        }

        deinit {
            close()
        }

        /// The bytes this account holds.
        public var heldBytes: Int { state.withLock { $0.holds } }

        /// The first charge refused, if any: why the work was stopped.
        public var refusal: Refusal? { state.withLock { $0.refusal } }

        /// Records a buffer of `bytes` about to be allocated, alive together with the previous
        /// one; the account grows to the largest such pair.
        ///
        /// - Throws: ``Refusal`` when the growth does not fit the budget (the account keeps what
        ///   it held). A closed account takes any charge.
        public func charge(_ bytes: Int) throws(Refusal) {
            let refused: Refusal? = state.withLock { state in
                guard !state.closed else { return nil }
                let bytes = max(0, bytes)
                let (pair, overflow) = state.lastCharge.addingReportingOverflow(bytes)
                let needed = overflow ? Int.max / 2 : pair
                if needed > state.holds {
                    // A refused buffer is never allocated: the last one stays the last.
                    if let refusal = budget.take(needed - state.holds, accountHolds: state.holds) {
                        if state.refusal == nil { state.refusal = refusal }
                        return refusal
                    }
                    state.holds = needed
                }
                state.lastCharge = bytes
                return nil
            }
            if let refused { throw refused }
        }

        /// Gives everything back; later charges are not counted. Called again, does nothing.
        public func close() {
            let holds = state.withLock { state in
                defer {
                    state.holds = 0
                    state.closed = true
                }
                return state.closed ? 0 : state.holds
            }
            if holds > 0 { budget.giveBack(holds) }
        }

        /// The same account.
        public static func == (a: Account, b: Account) -> Bool { a === b }
    }
}
