// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Represents all the errors which can happen in Kingfisher: Kingfisher's five groups
/// (request, response, cache, processor, image setting) with Kingfisher's reasons, so that a
/// `switch` written for Kingfisher compiles here.
///
/// What this library tells beyond Kingfisher travels in those cases' payloads:
/// - data that does not decode (a download that is not an image, a corrupt cached file) is
///   `processorError(.processingFailed)`, as in Kingfisher, whose processor is a
///   ``DecodingFailure`` naming the format and what was wrong (``imageCodingError``), and for a
///   download the URL and Content-Type;
/// - the downloader's limits are `responseError(.URLSessionError)` with the `URLError`
///   URLSession gives for them: `.dataLengthExceedsMaximum` for a body over
///   ``ImageDownloader/maxResponseDataSize``, `.httpTooManyRedirects` past
///   ``ImageDownloader/redirectLimit``, the limit under ``ImageDownloader/limitUserInfoKey``;
/// - every network failure of the downloader's own (connection, DNS, TLS, timeouts, limits)
///   also carries a ``DownloadFailure`` with its values (``downloadFailure``).
public enum KingfisherError: Error, Sendable {

    /// Reasons for ``KingfisherError/requestError(reason:)``, as Kingfisher's.
    public enum RequestErrorReason: Sendable {
        /// A request modifier returned no request. Code 1001.
        case emptyRequest
        /// The request has no usable URL. Code 1002.
        case invalidURL(request: URLRequest)
        /// The download task was cancelled before it finished. Code 1003.
        case taskCancelled(task: DownloadTask, token: Int)
        /// The calling Swift task was cancelled before the work started. Code 1005.
        case asyncTaskContextCancelled
        /// A data provider's work was cancelled. Code 1006.
        case dataProviderCancelled(provider: any ImageDataProvider)

        /// The error code within the `com.onevcat.Kingfisher.Error` domain.
        public var errorCode: Int {
            switch self {
            case .emptyRequest: return 1001
            case .invalidURL: return 1002
            case .taskCancelled: return 1003
            case .asyncTaskContextCancelled: return 1005
            case .dataProviderCancelled: return 1006
            }
        }

        /// A human readable description.
        public var errorDescription: String {
            switch self {
            case .emptyRequest: return "The request modifier returned no request."
            case .invalidURL(let request):
                let url = request.url?.absoluteString ?? "nil"
                if let scheme = request.url?.scheme?.lowercased(), scheme != "http", scheme != "https" {
                    return "Unsupported URL scheme \"\(scheme)\" in \(url): only http and https URLs are downloaded."
                }
                return "The request has no valid http(s) URL: \(url)."
            case .taskCancelled(let task, _): return "The download of \(task.url?.absoluteString ?? "an image") was cancelled."
            case .asyncTaskContextCancelled: return "The calling task was cancelled before the image was loaded."
            case .dataProviderCancelled(let provider): return "Loading \(provider.cacheKey) from its data provider was cancelled."
            }
        }
    }

    /// Reasons for ``KingfisherError/responseError(reason:)``, as Kingfisher's.
    public enum ResponseErrorReason: Sendable {
        /// The response is not an HTTP response. Code 2001.
        case invalidURLResponse(response: URLResponse)
        /// The status code is not valid (by default outside 200..<400). Code 2002.
        case invalidHTTPStatusCode(response: HTTPURLResponse)
        /// The transport failed (connection, TLS, timeout, reset) or a limit of the downloader was
        /// reached; `error` is a `URLError` with URLSession's code for the failure. Code 2003.
        case URLSessionError(error: any Error)
        /// The delegate's data hook returned no data. Code 2004.
        case dataModifyingFailed(task: DownloadTask?)
        /// No response arrived. Code 2005.
        case noURLResponse(task: DownloadTask?)
        /// The delegate cancelled the download on seeing the response. Code 2006.
        case cancelledByDelegate(response: URLResponse)

        /// The error code within the `com.onevcat.Kingfisher.Error` domain.
        public var errorCode: Int {
            switch self {
            case .invalidURLResponse: return 2001
            case .invalidHTTPStatusCode: return 2002
            case .URLSessionError: return 2003
            case .dataModifyingFailed: return 2004
            case .noURLResponse: return 2005
            case .cancelledByDelegate: return 2006
            }
        }

        /// A human readable description naming the URL, status or limit concerned.
        public var errorDescription: String {
            switch self {
            case .invalidURLResponse(let response):
                return "The response for \(response.url?.absoluteString ?? "?") is not an HTTP response."
            case .invalidHTTPStatusCode(let response):
                return "The server answered \(response.statusCode) for \(response.url?.absoluteString ?? "?")."
            case .URLSessionError(let error): return "The download failed: \(TransportErrorText.describe(error))."
            case .dataModifyingFailed: return "The downloader delegate returned no data."
            case .noURLResponse: return "No response was received."
            case .cancelledByDelegate(let response):
                return "The downloader delegate cancelled \(response.url?.absoluteString ?? "the download")."
            }
        }
    }

    /// An error happened while preparing a request.
    case requestError(reason: RequestErrorReason)

    /// An error happened in the server's response.
    case responseError(reason: ResponseErrorReason)

    /// Reasons for ``KingfisherError/cacheError(reason:)``, as Kingfisher's.
    public enum CacheErrorReason: Sendable {
        /// The cache directory could not be listed. Code 3001.
        case fileEnumeratorCreationFailed(url: URL)
        /// The cache directory listing held something unexpected. Code 3002.
        case invalidFileEnumeratorContent(url: URL)
        /// A cached file's metadata could not be read. Code 3003.
        case invalidURLResource(error: any Error, key: String, url: URL)
        /// A cached file exists but could not be read. Code 3004.
        case cannotLoadDataFromDisk(url: URL, error: any Error)
        /// The cache directory could not be created. Code 3005.
        case cannotCreateDirectory(path: String, error: any Error)
        /// Nothing is cached for `key`. Code 3006.
        case imageNotExisting(key: String)
        /// A value could not be turned into data. Code 3007.
        case cannotConvertToData(object: any Sendable, error: any Error)
        /// The serializer produced no data for the image. Code 3008.
        case cannotSerializeImage(image: KFCrossPlatformImage?, original: Data?, serializer: any CacheSerializer)
        /// The cache file could not be written. Code 3009.
        case cannotCreateCacheFile(fileURL: URL, key: String, data: Data, error: any Error)
        /// The cache file's dates (expiration, last access) could not be set. Code 3010.
        case cannotSetCacheFileAttribute(filePath: String, attributes: [String: Date], error: any Error)
        /// The disk storage could not prepare its directory, so it is not usable. Code 3011.
        case diskStorageIsNotReady(cacheURL: URL)

        /// The error code within the `com.onevcat.Kingfisher.Error` domain.
        public var errorCode: Int {
            switch self {
            case .fileEnumeratorCreationFailed: return 3001
            case .invalidFileEnumeratorContent: return 3002
            case .invalidURLResource: return 3003
            case .cannotLoadDataFromDisk: return 3004
            case .cannotCreateDirectory: return 3005
            case .imageNotExisting: return 3006
            case .cannotConvertToData: return 3007
            case .cannotSerializeImage: return 3008
            case .cannotCreateCacheFile: return 3009
            case .cannotSetCacheFileAttribute: return 3010
            case .diskStorageIsNotReady: return 3011
            }
        }

        /// A human readable description naming the file or key concerned.
        public var errorDescription: String {
            switch self {
            case .fileEnumeratorCreationFailed(let url): return "Cannot list the cache directory \(url.path)."
            case .invalidFileEnumeratorContent(let url): return "Unexpected content while listing \(url.path)."
            case .invalidURLResource(let error, let key, let url):
                return "Cannot read the metadata of \(url.path) (key \(key)): \(error.localizedDescription)"
            case .cannotLoadDataFromDisk(let url, let error):
                return "Cannot read the cached file \(url.path): \(error.localizedDescription)"
            case .cannotCreateDirectory(let path, let error):
                return "Cannot create the cache directory \(path): \(error.localizedDescription)"
            case .imageNotExisting(let key): return "No image is cached for the key \(key)."
            case .cannotConvertToData(let object, let error): return "Cannot convert \(object) to data: \(error.localizedDescription)"
            case .cannotSerializeImage(_, _, let serializer):
                return "The serializer \(type(of: serializer)) produced no data for the image."
            case .cannotCreateCacheFile(let fileURL, let key, _, let error):
                return "Cannot write the cache file \(fileURL.path) for \(key): \(error.localizedDescription)"
            case .cannotSetCacheFileAttribute(let filePath, _, let error):
                return "Cannot set the dates of \(filePath): \(error.localizedDescription)"
            case .diskStorageIsNotReady(let cacheURL):
                return "The disk cache at \(cacheURL.path) is not ready (its directory could not be created)."
            }
        }
    }

    /// An error happened in the memory or disk cache.
    case cacheError(reason: CacheErrorReason)

    /// Reasons for ``KingfisherError/processorError(reason:)``, as Kingfisher's.
    public enum ProcessorErrorReason: Sendable {
        /// `processor` returned no image for `item`; for data that does not decode, `processor`
        /// is a ``KingfisherError/DecodingFailure`` saying why. Code 4001.
        case processingFailed(processor: any ImageProcessor, item: ImageProcessItem)

        /// The error code within the `com.onevcat.Kingfisher.Error` domain.
        public var errorCode: Int {
            switch self {
            case .processingFailed: return 4001
            }
        }

        /// A human readable description.
        public var errorDescription: String {
            switch self {
            case .processingFailed(let failure as DecodingFailure, _):
                return failure.description
            case .processingFailed(let processor, _):
                return "Processing the image failed with processor \"\(processor.identifier)\"."
            }
        }
    }

    /// An error happened while processing an image.
    case processorError(reason: ProcessorErrorReason)

    /// An error happened while setting an image on a target or loading it from its source.
    case imageSettingError(reason: ImageSettingErrorReason)

    /// The error domain of all Kingfisher errors: `"com.onevcat.Kingfisher.Error"`.
    public static let domain = ImageCodingError.errorDomain

    /// Whether the error is a cancelled download task (`requestError(reason: .taskCancelled)`),
    /// as in Kingfisher: a cancelled Swift task or data provider is not one.
    public var isTaskCancelled: Bool {
        if case .requestError(reason: .taskCancelled) = self { return true }
        return false
    }

    /// Whether the work ended because someone cancelled it: the download task, the Swift task
    /// around it, or a data provider. Nothing is retried after these.
    var isCancellation: Bool {
        switch self {
        case .requestError(reason: .taskCancelled), .requestError(reason: .asyncTaskContextCancelled),
            .requestError(reason: .dataProviderCancelled):
            return true
        default:
            return false
        }
    }

    /// Whether a newer request replaced the one this error ended (`notCurrentSourceTask`).
    public var isNotCurrentTask: Bool {
        if case .imageSettingError(reason: .notCurrentSourceTask) = self { return true }
        return false
    }

    /// Whether the error is an invalid HTTP status code (`responseError(reason: .invalidHTTPStatusCode)`).
    public var isInvalidResponseStatusCode: Bool {
        if case .responseError(reason: .invalidHTTPStatusCode) = self { return true }
        return false
    }

    /// Whether the error is the invalid HTTP status code `code`.
    public func isInvalidResponseStatusCode(_ code: Int) -> Bool {
        guard case .responseError(reason: .invalidHTTPStatusCode(let response)) = self else { return false }
        return response.statusCode == code
    }

    /// The numeric code of the error within ``domain``.
    public var errorCode: Int {
        switch self {
        case .requestError(let reason): return reason.errorCode
        case .responseError(let reason): return reason.errorCode
        case .cacheError(let reason): return reason.errorCode
        case .processorError(let reason): return reason.errorCode
        case .imageSettingError(let reason): return reason.errorCode
        }
    }
}

extension KingfisherError: LocalizedError, CustomStringConvertible {
    /// A human readable description of the error.
    public var errorDescription: String? {
        switch self {
        case .requestError(let reason): return reason.errorDescription
        case .responseError(let reason): return reason.errorDescription
        case .cacheError(let reason): return reason.errorDescription
        case .processorError(let reason): return reason.errorDescription
        case .imageSettingError(let reason): return reason.errorDescription
        }
    }

    /// Same as ``errorDescription``.
    public var description: String { errorDescription ?? "Unknown Kingfisher error." }
}

extension KingfisherError: CustomNSError {
    /// ``domain``.
    public static var errorDomain: String { domain }

    /// Carries ``errorDescription`` as `NSLocalizedDescriptionKey`, so `localizedDescription`
    /// says what happened.
    public var errorUserInfo: [String: Any] {
        [NSLocalizedDescriptionKey: errorDescription ?? description]
    }
}
