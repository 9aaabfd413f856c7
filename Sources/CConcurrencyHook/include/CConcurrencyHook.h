#ifndef EXPLORER_CONCURRENCY_HOOK_H
#define EXPLORER_CONCURRENCY_HOOK_H

#include <stdbool.h>

/// Receives each job Swift concurrency would give its global executor.
typedef void (*explorer_job_receiver)(void *_Nonnull job);

/// Hands every job for the global executor to `receive` instead, through
/// the concurrency runtime's `swift_task_enqueueGlobal_hook`. False when
/// another hook is already installed. Call once, before any task exists.
bool explorer_take_over_global_executor(explorer_job_receiver _Nonnull receive);

#endif
