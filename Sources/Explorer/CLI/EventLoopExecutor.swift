import CConcurrencyHook
import NIOCore
import NIOPosix

/// Swift concurrency's jobs run on NIO's event loops, the ones the sandbox's
/// server and the HTTP and WebSocket clients read and write on, instead of a
/// pool of their own. A task woken by a socket then runs on the thread that
/// read it: a served request, or a frame reaching the REPL, costs one thread
/// switch instead of three (BENCHMARKS.md).
///
/// This is what NIO's `unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor`
/// does, but with the runtime's hook linked directly (`CConcurrencyHook`):
/// NIO looks it up by name, which fails in the binary `scripts/explorer`
/// builds, with the Swift runtime linked in and its symbols not exported.
enum EventLoopExecutor {
    /// Call first, from the main thread, before any task exists. The REPL
    /// blocks only the main thread (in libedit and `runBlocking`), never a
    /// task, so no event loop waits on itself. False if another hook was
    /// installed first.
    @discardableResult
    static func takeOverGlobalExecutor() -> Bool {
        explorer_take_over_global_executor { job in
            // `any()` keeps a job on the loop it was enqueued from.
            MultiThreadedEventLoopGroup.singleton.any().enqueue(ExecutorJob(unsafeBitCast(job, to: UnownedJob.self)))
        }
    }
}
