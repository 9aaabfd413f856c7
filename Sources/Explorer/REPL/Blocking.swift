import Dispatch

/// Runs async work from the synchronous main thread (which owns the
/// terminal) and waits. When `interruptible`, Ctrl-C cancels the work.
final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}

func runBlocking<T: Sendable>(interruptible: Bool = false, _ body: @escaping @Sendable () async -> T) -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    let task = Task {
        box.value = await body()
        done.signal()
    }
    if interruptible {
        _ = LineEditor.takeInterrupts()
        while done.wait(timeout: .now() + .milliseconds(20)) == .timedOut {
            if LineEditor.takeInterrupts() > 0 { task.cancel() }
        }
    } else {
        done.wait()
    }
    return box.value!
}

func runBlockingThrowing<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let result: Result<T, any Error> = runBlocking {
        do { return .success(try await body()) } catch { return .failure(error) }
    }
    return try result.get()
}
