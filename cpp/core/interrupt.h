// A way to stop a long core call from outside it: the binding installs a check (on the web, a
// flag the page sets in a SharedArrayBuffer while the worker is inside the call), and the long
// loops (warm-up steps, time steps of a policy pass, blocks of a large product) ask it. When
// it says stop, the call throws Interrupted; the object it was working on is left mid-step and
// must be disposed. No check installed (the default, and natively): nothing ever interrupts.
#pragma once

#include <stdexcept>

namespace grpo {

class Interrupted : public std::runtime_error {
 public:
  Interrupted();
};

// The check: true means "stop now". A plain function pointer (the binding's check reads a flag).
using InterruptCheck = bool (*)();
void set_interrupt_check(InterruptCheck check);

// Throws Interrupted when a check is installed and says stop. Does nothing on the pool's threads
// or inside a parallel section on several threads (an exception must not leave a pool task
// there: see rl/compute_pool.h; task_should_stop() is for loops inside tasks).
void interruption_point();

// For loops inside a pool task (a pass's time steps). On one thread: interruption_point(). Inside
// a section on several threads: true once a stop was seen (the section's caller asks the check;
// the pool's threads read what it saw), and the task leaves its loop (what it computed is of no
// use: the call is interrupted); the section throws Interrupted when it ends.
bool task_should_stop();

// A parallel section on several threads, held on its caller's thread while the tasks run; end()
// throws Interrupted when a task saw a stop (once every thread has left the section), or when the
// check says stop at its end (the caller may have run none of the tasks).
class ParallelSection {
 public:
  ParallelSection();
  ~ParallelSection();
  void end();
  ParallelSection(const ParallelSection&) = delete;
  ParallelSection& operator=(const ParallelSection&) = delete;
};

// Marks a pool thread for its lifetime: it never asks the check (on the web the check is the
// calling thread's JavaScript), it only reads what the section's caller saw.
class PoolThread {
 public:
  PoolThread();
};

}  // namespace grpo
