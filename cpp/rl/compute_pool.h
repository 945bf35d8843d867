// The core's worker threads: one process-wide pool that splits a policy pass into tasks that write
// disjoint outputs, so a run's bytes do not depend on the thread count (issue 28 item 2).
//
// Determinism contract: run(tasks, fn) calls fn(0) .. fn(tasks - 1) exactly once each, on any
// thread, and returns when all have finished. Callers give each task its own output columns or
// rows and keep every reduction inside one task in a fixed order, so which thread runs which
// task never shows in the results. With threads() == 1 (the default) every task runs on the
// calling thread, in order.
#pragma once

#include <functional>

namespace grpo {

// Sets the number of threads the core's passes may use, the calling one included: 1 (default) to
// kCoreMaxThreads. Workers start on the first parallel section that needs them and persist. Throws
// InvalidArgument outside the range ("threads: must be an integer in [1, 8], got 0"). Not to be
// called while a pass runs.
inline constexpr int kCoreMaxThreads = 8;
void set_core_threads(int threads);
int core_threads();

// Runs fn(0) .. fn(tasks - 1) on up to core_threads() threads and waits for all of them. Not
// reentrant: fn must not call parallel_tasks. Exceptions must not leave fn, but for Interrupted
// when the section runs on one thread (core/interrupt.h: it is then asked between tasks and
// inside them; on several threads interruption_point() does nothing until the section ends).
void parallel_tasks(int tasks, const std::function<void(int)>& fn);

}  // namespace grpo
