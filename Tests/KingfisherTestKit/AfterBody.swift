// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// Runs `body`, then `cleanup` whether `body` returned or threw, and returns what `body` did:
/// for test fixtures that need an `await` to shut down (a `defer` cannot await).
package func run<T>(
    isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T,
    thenCleanUp cleanup: () async -> Void
) async throws -> T {
    let result: Result<T, any Error>
    do {
        result = .success(try await body())
    } catch {
        result = .failure(error)
    }
    await cleanup()
    return try result.get()
}
