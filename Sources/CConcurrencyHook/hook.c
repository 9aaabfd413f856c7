// Swift concurrency's hook for the global executor, set here rather than by
// NIO's `unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor`:
// NIO finds the hook with `dlsym`, and in a binary with the Swift runtime
// linked in statically (`--static-swift-stdlib`) the runtime's symbols are
// not exported (its link arguments say `--exclude-libs ALL`), so NIO did not
// find it and every task ran on a Dispatch thread. Referring to the variable
// here links it directly, statically or not.
#include "CConcurrencyHook.h"

#include <stddef.h>

// The runtime's declaration: SWIFT_CC(swift) void (*)(Job *, original).
extern void *swift_task_enqueueGlobal_hook;

static explorer_job_receiver receiver;

__attribute__((swiftcall)) static void enqueue_global(void *job, void *original) {
    (void)original;
    receiver(job);
}

bool explorer_take_over_global_executor(explorer_job_receiver receive) {
    receiver = receive;
    void *expected = NULL;
    return __atomic_compare_exchange_n(&swift_task_enqueueGlobal_hook, &expected, (void *)enqueue_global, false,
                                       __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}
