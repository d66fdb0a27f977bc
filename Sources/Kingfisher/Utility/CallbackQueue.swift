// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Dispatch
import Foundation

/// Kingfisher's other name for ``CallbackQueue``, where work (not only callbacks) is run.
public typealias ExecutionQueue = CallbackQueue

/// Where a completion handler runs, as Kingfisher's `CallbackQueue`.
///
/// On Linux the main queue only runs in processes that service it (`dispatchMain()`, a run
/// loop, or the main actor): command-line tools and servers usually want `.untouch` or
/// `.dispatch(_:)`, or the `async` forms of the API.
public enum CallbackQueue: Sendable {
    /// Asynchronously on the main queue.
    case mainAsync
    /// At once when already on the main queue (Kingfisher: the main thread; on Linux another
    /// thread may drain the main queue), else asynchronously on the main queue.
    case mainCurrentOrAsync
    /// On whatever thread the work finished on.
    case untouch
    /// Asynchronously on the given queue.
    case dispatch(DispatchQueue)
    /// Added to an operation-queue-like scheduler of the caller's (`OperationQueue` is one),
    /// which decides order and concurrency.
    case operationQueue(any CallbackOperationQueue)

    /// Runs `block` as the case says.
    public func execute(_ block: @escaping @Sendable () -> Void) {
        switch self {
        case .mainAsync: DispatchQueue.main.async(execute: block)
        case .mainCurrentOrAsync:
            if MainQueue.isCurrent { block() } else { DispatchQueue.main.async(execute: block) }
        case .untouch: block()
        case .dispatch(let queue): queue.async(execute: block)
        case .operationQueue(let queue): queue.addOperation(block)
        }
    }
}

/// A scheduler for ``CallbackQueue/operationQueue(_:)``: conform a type of your own to control
/// how blocks are run (priorities, a LIFO order, a concurrency limit). `OperationQueue` conforms.
public protocol CallbackOperationQueue: AnyObject, Sendable {
    /// The dispatch queue the blocks run on, if there is one.
    var underlyingQueue: DispatchQueue? { get }
    /// Schedules `block`.
    func addOperation(_ block: @Sendable @escaping () -> Void)
}

extension OperationQueue: CallbackOperationQueue {}
