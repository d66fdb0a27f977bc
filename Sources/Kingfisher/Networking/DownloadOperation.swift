import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The shared work behind every caller downloading one URL at the same time: one HTTP request,
/// then each distinct processor once, results delivered to each caller on its own queue.
final class DownloadOperation: Sendable {
    /// One caller waiting for the download.
    struct Caller: Sendable {
        var task: DownloadTask
        var options: KingfisherParsedOptionsInfo
        var progress: DownloadProgressBlock?
        var completion: @Sendable (Result<ImageLoadingResult, KingfisherError>) -> Void
    }

    private struct State {
        var callers: [Caller] = []
        var priority: Float
        var running: Task<Void, Never>?
        var finished = false
    }

    let url: URL
    let request: URLRequest
    let sequence: Int
    private let state: Mutex<State>
    // Strong: a download that outlives its last caller still reports to the downloader; the
    // cycle ends when the downloader forgets the operation.
    private let downloader: ImageDownloader

    init(request: URLRequest, url: URL, priority: Float, sequence: Int, downloader: ImageDownloader) {
        self.request = request
        self.url = url
        self.sequence = sequence
        self.downloader = downloader
        state = Mutex(State(priority: priority))
    }

    var priority: Float { state.withLock { $0.priority } }

    /// Adds a caller; `nil` when the download has already finished (start a new one), else
    /// whether the caller raised the download's priority.
    func add(_ caller: Caller) -> Bool? {
        state.withLock { state in
            guard !state.finished else { return nil }
            state.callers.append(caller)
            let raised = caller.task.priority > state.priority
            state.priority = max(state.priority, caller.task.priority)
            return raised
        }
    }

    func raisePriority(to priority: Float) {
        let changed = state.withLock { state -> Bool in
            guard priority > state.priority else { return false }
            state.priority = priority
            return true
        }
        if changed { downloader.scheduler.reprioritize(self, to: priority) }
    }

    /// Removes one caller, failing it with `taskCancelled`; stops the request when none is left.
    func cancel(caller task: DownloadTask) {
        let (removed, endsDownload, running) = state.withLock { state -> (Caller?, Bool, Task<Void, Never>?) in
            guard let index = state.callers.firstIndex(where: { $0.task === task }) else { return (nil, false, nil) }
            let removed = state.callers.remove(at: index)
            guard state.callers.isEmpty, !state.finished else { return (removed, false, nil) }
            state.finished = true
            return (removed, true, state.running)
        }
        guard let removed else { return }
        let error = KingfisherError.requestError(reason: .taskCancelled(task: task, token: task.token))
        removed.options.callbackQueue.execute { removed.completion(.failure(error)) }
        if endsDownload {
            running?.cancel()
            downloader.operationEnded(self)
        }
    }

    /// Starts the download on a task; called by the scheduler when a slot is free.
    func start() {
        let started = state.withLock { state -> Bool in
            guard !state.finished else { return false }
            // The task is created under the lock so that a cancellation sees it.
            state.running = Task { await self.run() }
            return true
        }
        if !started { downloader.operationEnded(self) }
    }

    private func callersSnapshot() -> [Caller] { state.withLock { $0.callers } }

    /// Ends the download: hands each remaining caller its result.
    private func finish(_ outcome: Result<DownloadedBody, KingfisherError>) async {
        let callers = state.withLock { state -> [Caller] in
            guard !state.finished else { return [] }
            state.finished = true
            let callers = state.callers
            state.callers = []
            return callers
        }
        // The transfer is over: free its slot now, so the next download overlaps with decoding.
        downloader.operationEnded(self)
        guard !callers.isEmpty else { return }
        let delegate = downloader.delegate
        switch outcome {
        case .failure(let error):
            delegate?.imageDownloader(downloader, didFinishDownloadingImageForURL: url, with: nil, error: error)
            for caller in callers { caller.options.callbackQueue.execute { caller.completion(.failure(error)) } }
        case .success(let body):
            delegate?.imageDownloader(downloader, didFinishDownloadingImageForURL: url, with: body.response, error: nil)
            guard let data = delegate.map({ $0.imageDownloader(downloader, didDownload: body.data, with: callers.first?.task) })
                    ?? body.data else {
                let error = KingfisherError.responseError(reason: .dataModifyingFailed(task: callers.first?.task))
                for caller in callers { caller.options.callbackQueue.execute { caller.completion(.failure(error)) } }
                return
            }
            await deliver(data, body: body, to: callers)
        }
    }

    /// Runs each distinct processor once over `data` (in parallel) and hands results out.
    private func deliver(_ data: Data, body: DownloadedBody, to callers: [Caller]) async {
        var groups: [String: [Caller]] = [:]
        var order: [String] = []
        for caller in callers {
            let identifier = caller.options.processor.identifier
            if groups[identifier] == nil { order.append(identifier) }
            groups[identifier, default: []].append(caller)
        }
        let url = self.url
        let downloader = self.downloader
        @Sendable func process(_ members: [Caller]) {
            let options = members[0].options
            let result: Result<ImageLoadingResult, KingfisherError>
            do {
                let image = try options.processor.processedImage(from: data, options: options)
                downloader.delegate?.imageDownloader(downloader, didDownload: image, for: url, with: body.response)
                result = .success(ImageLoadingResult(image: image, url: url, originalData: data, metrics: body.metrics))
            } catch KingfisherError.imageCodingError(let reason) {
                let contentType = body.response.value(forHTTPHeaderField: "Content-Type")
                result = .failure(.responseError(reason: .notAnImage(url: url, contentType: contentType, reason: reason)))
            } catch {
                result = .failure(error as? KingfisherError
                    ?? .processorError(reason: .processingFailed(processor: options.processor, item: .data(data))))
            }
            for caller in members { caller.options.callbackQueue.execute { caller.completion(result) } }
        }
        // One processor (the usual case) runs right here; several run in parallel.
        if order.count == 1 {
            process(groups[order[0]]!)
            return
        }
        await withTaskGroup(of: Void.self) { group in
            for identifier in order {
                let members = groups[identifier]!
                group.addTask { process(members) }
            }
        }
    }

    /// The body and what came with it.
    struct DownloadedBody: Sendable {
        var data: Data
        var response: HTTPURLResponse
        var metrics: NetworkMetrics
    }

    private func run() async {
        let outcome: Result<DownloadedBody, KingfisherError>
        do {
            outcome = .success(try await downloader.fetch(self, progress: { received, total in
                for caller in self.callersSnapshot() {
                    if let progress = caller.progress { caller.options.callbackQueue.execute { progress(received, total) } }
                }
            }))
        } catch let error as KingfisherError {
            outcome = .failure(error)
        } catch {
            outcome = .failure(.responseError(reason: .URLSessionError(error: error)))
        }
        await finish(outcome)
    }

    /// Cancels the running request because it went idle for too long (see ``IdleWatchdog``).
    func cancelForTimeout() {
        state.withLock { $0.running }?.cancel()
    }

    /// The first caller's options, which steer shared steps (the redirect handler).
    var callerOptions: KingfisherParsedOptionsInfo? { state.withLock { $0.callers.first?.options } }

    /// The tasks of the callers still waiting.
    var callerTasks: [DownloadTask] { state.withLock { $0.callers.map(\.task) } }

    /// The first caller's task, for delegate and redirect handler calls.
    var representativeTask: DownloadTask? { state.withLock { $0.callers.first?.task } }
}
