import Foundation
import Testing
// Not @testable: what compiles here is what Kingfisher code written against the public API gets.
import Kingfisher
import KingfisherImaging

/// Kingfisher 8 code, as its users write it, compiling and behaving as there.
@Suite(.timeLimit(.minutes(10))) struct KingfisherSourceCompatibilityTests {
    @Test func resultsCanBeBuiltOutsideTheLibrary() throws {
        let image = KFCrossPlatformImage(width: 2, height: 2, pixels: [UInt8](repeating: 255, count: 16))
        let url = URL(string: "https://example.com/photo.png")!
        let loaded = ImageLoadingResult(image: image, originalData: Data([1, 2, 3]))
        #expect(loaded.url == nil && loaded.metrics == nil && loaded.originalData == Data([1, 2, 3]))
        let source = Source.network(KF.ImageResource(downloadURL: url))
        let retrieved = RetrieveImageResult(image: image, cacheType: .disk, source: source, originalSource: source,
                                            data: { Data([4]) })
        #expect(retrieved.cacheType == .disk && retrieved.data() == Data([4]) && retrieved.metrics == nil)
        #expect(retrieved.source.url == url)
    }

    @Test func anOperationQueueRunsTheCompletion() async throws {
        try await withManagerSetup(name: "operation-queue") { setup in
            let queue = OperationQueue()
            queue.name = "callbacks"
            queue.maxConcurrentOperationCount = 1
            let provider = RawImageDataProvider(data: try Fixtures.data("photo.png"), cacheKey: "raw-photo")
            let ranOnQueue: Bool = try await withCheckedThrowingContinuation { continuation in
                setup.manager.retrieveImage(with: provider.convertToSource(), options: [.callbackQueue(.operationQueue(queue))]) { result in
                    switch result {
                    case .success: continuation.resume(returning: OperationQueue.current === queue)
                    case .failure(let error): continuation.resume(throwing: error)
                    }
                }
            }
            #expect(ranOnQueue)
            // ExecutionQueue is Kingfisher's other name for the same type.
            let execution: ExecutionQueue = .operationQueue(queue)
            let ran: Bool = await withCheckedContinuation { continuation in
                execution.execute { continuation.resume(returning: OperationQueue.current === queue) }
            }
            #expect(ran)
        }
    }

    @Test func aThrowingModifierHandsTheImageOverUnchanged() throws {
        struct Refused: Error {}
        let image = KFCrossPlatformImage(width: 2, height: 2, pixels: [UInt8](repeating: 255, count: 16))
        let refusing = AnyImageModifier { _ in throw Refused() }
        #expect(refusing.modify(image) === image)
        let builder = KF.url(URL(string: "https://example.com/a.png")).imageModifier { (image: inout KFCrossPlatformImage) in
            throw Refused()
        }
        #expect(builder.options.imageModifier?.modify(image) === image)
    }
}
