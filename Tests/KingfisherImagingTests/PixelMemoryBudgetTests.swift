// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherImaging
import KingfisherTestKit
import Testing

/// Decoders and processors charge a pixel memory budget before they allocate, and work that
/// does not fit is refused instead of allocated.
@Suite struct PixelMemoryBudgetTests {
    @Test func anAccountHoldsItsLargestPairOfBuffersAndGivesThemBack() throws {
        let budget = PixelMemoryBudget(limit: 1_000)
        let account = budget.makeAccount()
        try account.charge(300)  // a decoded source
        #expect(account.heldBytes == 300)
        try account.charge(200)  // a step's output, alive with its input
        #expect(account.heldBytes == 500)
        try account.charge(100)  // a smaller step: the pair 200 + 100 fits what is held
        #expect(account.heldBytes == 500 && budget.heldBytes == 500)

        let other = budget.makeAccount()
        #expect(throws: PixelMemoryBudget.Refusal(needed: 600, heldByOthers: 500, limit: 1_000)) { try other.charge(600) }
        #expect(other.refusal?.exceedsWholeBudget == false)
        #expect(other.heldBytes == 0 && budget.heldBytes == 500)
        account.close()
        #expect(budget.heldBytes == 0)
        try other.charge(600)
        #expect(budget.heldBytes == 600)
        // Closed, an account takes any charge and holds nothing.
        other.close()
        try other.charge(5_000)
        #expect(budget.heldBytes == 0)

        let alone = budget.makeAccount()
        #expect(throws: PixelMemoryBudget.Refusal.self) { try alone.charge(1_001) }
        #expect(alone.refusal?.exceedsWholeBudget == true)
        #expect(alone.refusal?.description == "its pixels need 1 MB at once, more than the whole pixel memory budget of 1 MB")
    }

    @Test func decodersChargeFromTheHeaderBeforeAllocating() throws {
        let data = try Fixtures.data("photo_baseline_420.jpg")  // 190x127
        let budget = PixelMemoryBudget(limit: 1 << 20)
        let account = budget.makeAccount()
        let image = try KingfisherImage.decode(data: data, options: ImageCreatingOptions(pixelMemory: account))
        #expect(image.pixelWidth == 190)
        #expect(account.heldBytes == 190 * 127 * 4)
        account.close()

        // A header declaring 7000x7000 over 64 bytes: refused from the header, nothing decoded.
        let declared: [UInt8] =
            [137, 80, 78, 71, 13, 10, 26, 10] + PNGBuilder.chunk("IHDR", PNGBuilder.word(7000) + PNGBuilder.word(7000) + [8, 6, 0, 0, 0])
            + PNGBuilder.chunk("IDAT", PNGBuilder.zlibCompress([0, 0, 0, 0, 0])) + PNGBuilder.chunk("IEND", [])
        let small = PixelMemoryBudget(limit: 100_000_000).makeAccount()
        #expect(throws: PixelMemoryBudget.Refusal.self) {
            _ = try KingfisherImage.decode(data: Data(declared), options: ImageCreatingOptions(pixelMemory: small))
        }
        #expect(small.refusal?.needed == 7000 * 7000 * 4)
    }

    @Test func processorsChargeTheirOutputsAndStepsBetween() throws {
        let data = try Fixtures.data("photo_baseline_420.jpg")
        let budget = PixelMemoryBudget(limit: 1 << 30)
        let account = budget.makeAccount()
        let chain = try ImageProcessorSpec.processor(from: "resize(400x300,none)|>blur(2)")
        let context = ImageProcessingContext(imageCreatingOptions: ImageCreatingOptions(pixelMemory: account))
        let image = try chain.process(.data(data), in: context)
        #expect(image.pixelWidth == 400)
        // The blur's input and output, both 400x300, are the largest pair.
        #expect(account.heldBytes == 2 * 400 * 300 * 4)

        let tight = PixelMemoryBudget(limit: 400 * 300 * 4).makeAccount()
        let refused = ImageProcessingContext(imageCreatingOptions: ImageCreatingOptions(pixelMemory: tight))
        #expect(throws: PixelMemoryBudget.Refusal.self) { _ = try chain.process(.data(data), in: refused) }
    }
}
