// A way to stop a long core call from outside it: the binding installs a check (on the web, a
// flag the page sets in a SharedArrayBuffer while the worker is inside the call), and the long
// loops (warm-up steps, time steps of a policy pass, optimizer steps) ask it between steps. When
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

// Throws Interrupted when a check is installed and says stop. Does nothing inside a parallel
// section that runs on more than one thread (an exception must not leave a pool task there: see
// rl/compute_pool.h); the section's caller asks again when it ends.
void interruption_point();

// While one lives on a thread, interruption_point() does nothing on that thread (the pool's
// threads and a caller that shares a parallel section with them).
class InterruptionsHeld {
 public:
  InterruptionsHeld();
  ~InterruptionsHeld();
  InterruptionsHeld(const InterruptionsHeld&) = delete;
  InterruptionsHeld& operator=(const InterruptionsHeld&) = delete;
};

}  // namespace grpo
