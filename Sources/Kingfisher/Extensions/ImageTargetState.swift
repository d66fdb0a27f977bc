// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// What each image target is loading, kept beside the target (Kingfisher keeps it in Objective-C
/// associated objects, which Linux does not have). Entries hold their target weakly and are
/// dropped when it is gone.
@MainActor
final class ImageTargetState {
    static let shared = ImageTargetState()

    /// One target's request.
    struct Entry {
        weak var target: AnyObject?
        var identifier: Source.Identifier.Value
        var retrieval: ImageRetrieval?
    }

    private var entries: [ObjectIdentifier: Entry] = [:]
    private var insertionsSincePrune = 0

    /// A fresh identifier for `target`'s new request, which makes any earlier one stale.
    func begin(for target: AnyObject) -> Source.Identifier.Value {
        let identifier = Source.Identifier.next()
        entries[ObjectIdentifier(target)] = Entry(target: target, identifier: identifier, retrieval: nil)
        insertionsSincePrune += 1
        if insertionsSincePrune >= 256 { prune() }
        return identifier
    }

    /// Records the retrieval running for request `identifier`, if it is still current.
    func attach(_ retrieval: ImageRetrieval, to target: AnyObject, identifier: Source.Identifier.Value) {
        guard var entry = entry(for: target), entry.identifier == identifier else { return }
        entry.retrieval = retrieval
        entries[ObjectIdentifier(target)] = entry
    }

    /// The identifier of `target`'s current request.
    func identifier(for target: AnyObject) -> Source.Identifier.Value? { entry(for: target)?.identifier }

    /// The current request's retrieval.
    func retrieval(for target: AnyObject) -> ImageRetrieval? { entry(for: target)?.retrieval }

    /// Forgets `target`'s request (its outcome will be stale).
    func clear(for target: AnyObject) {
        entries[ObjectIdentifier(target)] = nil
    }

    /// Marks request `identifier` done, if current.
    func finish(for target: AnyObject, identifier: Source.Identifier.Value) {
        guard var entry = entry(for: target), entry.identifier == identifier else { return }
        entry.retrieval = nil
        entries[ObjectIdentifier(target)] = entry
    }

    private func entry(for target: AnyObject) -> Entry? {
        // An address can be reused by a new object once the old one is gone.
        guard let entry = entries[ObjectIdentifier(target)], entry.target === target else { return nil }
        return entry
    }

    private func prune() {
        entries = entries.filter { $0.value.target != nil }
        insertionsSincePrune = 0
    }
}
