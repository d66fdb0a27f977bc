// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// A callback held for a target without retaining it, as Kingfisher's `Delegate`: the block
/// receives the target back, so it need not capture `self`, and is skipped (the call returns
/// `nil`) once the target is gone.
///
/// ```swift
/// let onDone = Delegate<Int, String>()
/// onDone.delegate(on: self) { (self, value) in self.describe(value) }
/// let text = onDone(42)   // nil once `self` is freed
/// ```
///
/// Thread-safe: setting and calling may happen on any thread. The blocks run on the caller's.
public final class Delegate<Input, Output>: @unchecked Sendable {
    private struct Blocks {
        var block: ((Input) -> Output?)?
        var asyncBlock: ((Input) async -> Output?)?
    }

    private let blocks = Locked(Blocks())

    /// Creates a delegate with no block.
    public init() {}

    /// Sets the block called by `call(_:)`, holding `target` weakly. `nil` removes it.
    public func delegate<T: AnyObject>(on target: T, block: ((T, Input) -> Output)?) {
        let wrapped: ((Input) -> Output?)? = block.map { block in
            { [weak target] input in target.map { block($0, input) } }
        }
        blocks.withLock { $0.block = wrapped }
    }

    /// Sets the block called by ``callAsync(_:)``, holding `target` weakly. `nil` removes it.
    public func delegate<T: AnyObject>(on target: T, block: ((T, Input) async -> Output)?) {
        let wrapped: ((Input) async -> Output?)? = block.map { block in
            { [weak target] input in
                guard let target else { return nil }
                return await block(target, input)
            }
        }
        blocks.withLock { $0.asyncBlock = wrapped }
    }

    /// The block's answer for `input`; `nil` with no block or no target.
    public func call(_ input: Input) -> Output? {
        blocks.withLock { $0.block }?(input)
    }

    /// `call(_:)`.
    public func callAsFunction(_ input: Input) -> Output? {
        call(input)
    }

    /// The asynchronous block's answer for `input`; `nil` with no block or no target.
    public func callAsync(_ input: Input) async -> Output? {
        await blocks.withLock { $0.asyncBlock }?(input)
    }

    /// Whether either block is set.
    public var isSet: Bool {
        blocks.withLock { $0.block != nil || $0.asyncBlock != nil }
    }
}

extension Delegate where Input == Void {
    /// `call(_:)` with no input.
    public func call() -> Output? {
        call(())
    }

    /// `call(_:)` with no input.
    public func callAsFunction() -> Output? {
        call()
    }
}

extension Delegate where Input == Void, Output: OptionalProtocol {
    /// `call(_:)` with no input, flattened: `nil` rather than `.some(nil)`.
    public func call() -> Output {
        call(())
    }

    /// `call()`.
    public func callAsFunction() -> Output {
        call()
    }
}

extension Delegate where Output: OptionalProtocol {
    /// `call(_:)` for an optional `Output`, flattened: `nil` rather than `.some(nil)` when
    /// there is no block or target.
    public func call(_ input: Input) -> Output {
        blocks.withLock { $0.block }?(input) ?? Output._createNil
    }

    /// `call(_:)`.
    public func callAsFunction(_ input: Input) -> Output {
        call(input)
    }
}

/// Lets ``Delegate`` return a plain `nil` for an optional output, as Kingfisher's.
public protocol OptionalProtocol {
    /// The `nil` of this type.
    static var _createNil: Self { get }
}

extension Optional: OptionalProtocol {
    /// `nil`.
    public static var _createNil: Wrapped? { nil }
}
