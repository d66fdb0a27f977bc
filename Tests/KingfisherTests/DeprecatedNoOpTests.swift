// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher

/// Options Kingfisher has and Linux ignores are accepted (deprecated, with a note saying they
/// have no effect) and change nothing else.
@Suite(.timeLimit(.minutes(10))) struct DeprecatedNoOpTests {
    @Test func noOpItemsLeaveTheOtherOptionsAsParsed() {
        let items: KingfisherOptionsInfo = [.scaleFactor(2), .maxPixelCount(10), .onlyLoadFirstFrame]
        let parsed = KingfisherParsedOptionsInfo(linuxNoOpItems() + items + linuxNoOpItems())
        #expect(parsed.scaleFactor == 2)
        #expect(parsed.onlyLoadFirstFrame)
        #expect(parsed.imageCreatingOptions.maxPixelCount == 10)
    }

    @Test func noOpBuilderCallsKeepTheBuildersOptions() {
        let url = URL(string: "https://example.com/a.png")!
        let builder = KF.url(url).scaleFactor(3).cacheMemoryOnly()
        let after = withLinuxNoOps(builder)
        #expect(after.options.scaleFactor == 3 && after.options.cacheMemoryOnly)
        #expect(after.source?.cacheKey == url.absoluteString)
    }
}
