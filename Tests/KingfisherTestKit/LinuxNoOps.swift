// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

@testable import Kingfisher

// Kingfisher's options and builder calls that have no effect on Linux are deprecated, so code
// using them gets a compiler note. The tests still run that code, through these protocols:
// a call through a protocol requirement that is not deprecated builds without the warning.

/// The options items accepted as no-ops.
package protocol LinuxNoOpOptionsItems {
    static var backgroundDecode: Self { get }
    static var asyncCacheTypeCheck: Self { get }
    static func diskStoreWriteOptions(_ options: Data.WritingOptions) -> Self
}

extension KingfisherOptionsInfoItem: LinuxNoOpOptionsItems {}

/// The builder calls accepted as no-ops.
package protocol LinuxNoOpBuilderCalls {
    /// Kingfisher's README calls (`fade`, `lowDataModeSource`) and every other no-op setter.
    func applyingLinuxNoOps(lowDataModeSource: Source?) -> Self
}

extension KF.Builder: LinuxNoOpBuilderCalls {
    // A deprecated witness, declared on the type itself, is called without a warning.
    @available(*, deprecated)
    package func applyingLinuxNoOps(lowDataModeSource source: Source?) -> Self {
        fade(duration: 0.25).lowDataModeSource(source).forceTransition(true).backgroundDecode(true).diskStoreWriteOptions(.atomic)
    }
}

/// Every no-op options item.
package func linuxNoOpItems<Item: LinuxNoOpOptionsItems>(_: Item.Type = Item.self) -> [Item] {
    [.backgroundDecode, .asyncCacheTypeCheck, .diskStoreWriteOptions(.atomic)]
}

/// Every no-op builder call on `builder`, as Kingfisher code makes them.
package func withLinuxNoOps<Builder: LinuxNoOpBuilderCalls>(_ builder: Builder, lowDataModeSource: Source? = nil) -> Builder {
    builder.applyingLinuxNoOps(lowDataModeSource: lowDataModeSource)
}
