// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The shared work behind every caller downloading one URL at the same time: one HTTP request,
/// then each distinct processor once, results delivered to each caller on its own queue.
final class DownloadOperation: Sendable {
    /// One caller waiting for the download. A class: the options are large, and callers are
    /// copied in and out of locks.
    final class Caller: Sendable {
        let task: DownloadTask
        let options: KingfisherParsedOptionsInfo
        let progress: DownloadProgressBlock?
        /// Whether the caller takes the bytes undecoded (``Outcome/fetched(_:_:)``).
        let takesData: Bool
        let completion: @Sendable (Result<Outcome, KingfisherError>) -> Void

        init(
            task: DownloadTask, options: KingfisherParsedOptionsInfo, progress: DownloadProgressBlock?, takesData: Bool = false,
            completion: @escaping @Sendable (Result<Outcome, KingfisherError>) -> Void
        ) {
            self.task = task
            self.options = options
            self.progress = progress
            self.takesData = takesData
            self.completion = completion
        }
    }

    /// What a caller gets from a successful download.
    enum Outcome: Sendable {
        /// The image, processed by the caller's processor, and the response it came in.
        case downloaded(ImageLoadingResult, TransportResponse)
        /// The origin answered a conditional request with `304 Not Modified`.
        case notModified(TransportResponse)
        /// The body undecoded (after the delegate's data hook), for a caller that decodes it
        /// itself, and the response it came in.
        case fetched(Data, DownloadFetch.Body)

        /// The downloaded image and its response, for a plain (unconditional) download, which
        /// is never answered "not modified": a `304` there is a status without an image.
        var downloaded: Result<(ImageLoadingResult, TransportResponse), KingfisherError> {
            switch self {
            case .downloaded(let result, let response): return .success((result, response))
            case .notModified(let response):
                return .failure(.responseError(reason: .invalidHTTPStatusCode(response: response.httpURLResponse)))
            case .fetched(_, let body):
                return .failure(.responseError(reason: .invalidHTTPStatusCode(response: body.response.httpURLResponse)))
            }
        }
    }

    private struct State {
        var callers: [Caller] = []
        var priority: Float
        var fetch: DownloadFetch?
        var finished = false
        var previewer: ProgressivePreviewer?
    }

    let url: URL
    let request: URLRequest
    /// The validators a conditional download sent; `nil` for a plain download.
    let validators: HTTPValidators?
    let sequence: Int
    private let state: Locked<State>
    // Strong: a download that outlives its last caller still reports to the downloader; the
    // cycle ends when the downloader forgets the operation.
    private let downloader: ImageDownloader

    init(request: URLRequest, url: URL, validators: HTTPValidators?, priority: Float, sequence: Int, downloader: ImageDownloader) {
        self.request = request
        self.url = url
        self.validators = validators
        self.sequence = sequence
        self.downloader = downloader
        state = Locked(State(priority: priority))
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
        let (removed, endsDownload, fetch) = state.withLock { state -> (Caller?, Bool, DownloadFetch?) in
            guard let index = state.callers.firstIndex(where: { $0.task === task }) else { return (nil, false, nil) }
            let removed = state.callers.remove(at: index)
            guard state.callers.isEmpty, !state.finished else { return (removed, false, nil) }
            state.finished = true
            // The fetch and the operation hold each other until here.
            defer { state.fetch = nil }
            return (removed, true, state.fetch)
        }
        guard let removed else { return }
        let error = KingfisherError.requestError(reason: .taskCancelled(task: task, token: task.token))
        removed.options.callbackQueue.execute { removed.completion(.failure(error)) }
        if endsDownload {
            fetch?.cancel()
            downloader.operationEnded(self)
        }
    }

    /// Starts the download; called by the scheduler when a slot is free.
    func start() {
        let fetch = state.withLock { state -> DownloadFetch? in
            guard !state.finished else { return nil }
            // Stored under the lock so that a cancellation sees it.
            let fetch = DownloadFetch(operation: self, downloader: downloader)
            state.fetch = fetch
            return fetch
        }
        guard let fetch else { return downloader.operationEnded(self) }
        fetch.start()
    }

    /// Hands (received, expected) bytes to each caller's progress block.
    func reportProgress(received: Int64, expected: Int64) {
        let observers = state.withLock { state -> [Caller] in
            state.callers.contains { $0.progress != nil } ? state.callers : []
        }
        for caller in observers {
            if let progress = caller.progress { caller.options.callbackQueue.execute { progress(received, expected) } }
        }
    }

    /// Whether a caller asked for progressive previews, so the fetch follows the JPEG's scans.
    var wantsProgressiveScans: Bool {
        state.withLock { state in !state.finished && state.callers.contains { $0.options.progressiveJPEG != nil } }
    }

    /// More complete scans arrived: previews for the callers that asked.
    func receivedScans(_ scans: ProgressivePreviewer.Scans) {
        let (previewer, newestOnly) = state.withLock { state -> (ProgressivePreviewer?, Bool) in
            guard !state.finished, let settings = state.callers.lazy.compactMap(\.options.progressiveJPEG).first else { return (nil, true) }
            if state.previewer == nil {
                state.previewer = ProgressivePreviewer { [weak self] in self?.progressiveCallers ?? [] }
            }
            return (state.previewer, settings.isFastestScan)
        }
        previewer?.received(scans, newestOnly: newestOnly)
    }

    /// The callers still waiting that asked for previews; none once the download has ended, so
    /// that no preview follows the final image.
    private var progressiveCallers: [Caller] {
        state.withLock { state in state.finished ? [] : state.callers.filter { $0.options.progressiveJPEG != nil } }
    }

    /// Ends the download: hands each remaining caller its result. Called once by the fetch.
    func fetchEnded(_ outcome: Result<DownloadFetch.Body, KingfisherError>) {
        let callers = state.withLock { state -> [Caller] in
            state.fetch = nil
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
            let response = delegate.map { _ in body.response.httpURLResponse }
            delegate?.imageDownloader(downloader, didFinishDownloadingImageForURL: url, with: response, error: nil)
            if body.response.statusCode == 304 {
                // Only a conditional request can be answered "not modified": to a plain one it is
                // a status without an image.
                let outcome: Result<Outcome, KingfisherError> =
                    validators != nil
                    ? .success(.notModified(body.response))
                    : .failure(.responseError(reason: .invalidHTTPStatusCode(response: response ?? body.response.httpURLResponse)))
                for caller in callers { caller.options.callbackQueue.execute { caller.completion(outcome) } }
                return
            }
            guard
                let data = delegate.map({ $0.imageDownloader(downloader, didDownload: body.data, with: callers.first?.task) })
                    ?? body.data
            else {
                let error = KingfisherError.responseError(reason: .dataModifyingFailed(task: callers.first?.task))
                for caller in callers { caller.options.callbackQueue.execute { caller.completion(.failure(error)) } }
                return
            }
            let takingData = callers.filter(\.takesData)
            for caller in takingData { caller.options.callbackQueue.execute { caller.completion(.success(.fetched(data, body))) } }
            if takingData.count < callers.count { deliver(data, body: body, response: response, to: callers.filter { !$0.takesData }) }
        }
    }

    /// Runs each distinct processor once over `data`, each on its first caller's processing
    /// queue (default: the downloader's, concurrent), and hands results out.
    private func deliver(_ data: Data, body: DownloadFetch.Body, response: HTTPURLResponse?, to callers: [Caller]) {
        let url = self.url
        let downloader = self.downloader
        @Sendable func process(_ members: [Caller]) {
            let options = members[0].options
            let result: Result<Outcome, KingfisherError>
            do {
                let image = try options.processor.processedImage(from: data, options: options)
                if let delegate = downloader.delegate {
                    delegate.imageDownloader(downloader, didDownload: image, for: url, with: response ?? body.response.httpURLResponse)
                }
                result = .success(
                    .downloaded(
                        ImageLoadingResult(image: image, url: url, originalData: data, metrics: body.metrics),
                        body.response))
            } catch {
                result = .failure(error.downloaded(from: url, contentType: body.response.value(forHTTPHeaderField: "Content-Type")))
            }
            for caller in members { caller.options.callbackQueue.execute { caller.completion(result) } }
        }
        for members in Self.groupedByProcessor(callers) {
            let queue = members[0].options.processingQueue ?? .dispatch(downloader.processingQueue)
            queue.execute { process(members) }
        }
    }

    /// The callers grouped by processor identifier, groups in order of first appearance.
    private static func groupedByProcessor(_ callers: [Caller]) -> [[Caller]] {
        if callers.count == 1 { return [callers] }
        var groups: [[Caller]] = []
        var index: [String: Int] = [:]
        for caller in callers {
            let identifier = caller.options.processor.identifier
            if let at = index[identifier] {
                groups[at].append(caller)
            } else {
                index[identifier] = groups.count
                groups.append([caller])
            }
        }
        return groups
    }

    /// The first caller's options, which steer shared steps (the redirect handler).
    var callerOptions: KingfisherParsedOptionsInfo? { state.withLock { $0.callers.first?.options } }

    /// The tasks of the callers still waiting.
    var callerTasks: [DownloadTask] { state.withLock { $0.callers.map(\.task) } }

    /// The first caller's task, for delegate and redirect handler calls.
    var representativeTask: DownloadTask? { state.withLock { $0.callers.first?.task } }
}
