import Dispatch
import NIOPosix

/// Runs async work from the synchronous main thread (which owns the
/// terminal) and waits. `interrupts` (a `Terminal`'s Ctrl-C count), when
/// given, is polled while waiting, and a press cancels the work.
final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}

func runBlocking<T: Sendable>(interrupts: (() -> Int)? = nil, _ body: @escaping @Sendable () async -> T) -> T {
    refuseOnAnEventLoop()
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    let task = Task {
        box.value = await body()
        done.signal()
    }
    wait(for: done, cancelling: task, interrupts: interrupts)
    return box.value!
}

/// `runBlocking` for work on one actor (a command on the interpreter): the
/// task starts on the calling thread (`Task.immediate`), goes straight to the
/// actor's executor, and the answer is handed back from there. A plain
/// `Task` first woke a thread of the global pool and came back through it,
/// two more thread hand-offs for every line of a script.
func runBlocking<A: Actor, T: Sendable>(on actor: A, interrupts: (() -> Int)? = nil,
                                        _ body: @escaping @Sendable (isolated A) async -> T) -> T {
    refuseOnAnEventLoop()
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    let task = Task.immediate {
        await deliver(on: actor, body, into: box, done)
    }
    wait(for: done, cancelling: task, interrupts: interrupts)
    return box.value!
}

/// Tasks run on NIO's event loops (`EventLoopExecutor`): one that waits here
/// waits for work queued behind it on its own loop, for ever. Stopped with
/// a message instead (a line that typed a secret hung `explorer run`).
private func refuseOnAnEventLoop() {
    precondition(MultiThreadedEventLoopGroup.currentEventLoop == nil, "runBlocking called on an event loop: it would wait for ever")
}

private func deliver<A: Actor, T: Sendable>(on actor: isolated A, _ body: @Sendable (isolated A) async -> T,
                                            into box: ResultBox<T>, _ done: DispatchSemaphore) async {
    box.value = await body(actor)
    done.signal()
}

private func wait(for done: DispatchSemaphore, cancelling task: Task<Void, Never>, interrupts: (() -> Int)?) {
    if let interrupts {
        _ = interrupts()
        while done.wait(timeout: .now() + .milliseconds(20)) == .timedOut {
            if interrupts() > 0 { task.cancel() }
        }
    } else {
        done.wait()
    }
}

func runBlockingThrowing<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let result: Result<T, any Error> = runBlocking {
        do { return .success(try await body()) } catch { return .failure(error) }
    }
    return try result.get()
}
