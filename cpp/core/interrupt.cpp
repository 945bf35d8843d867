// The interrupt check (see interrupt.h).
#include "core/interrupt.h"

#include <atomic>

namespace grpo {
namespace {

std::atomic<InterruptCheck> g_check{nullptr};
thread_local int t_held = 0;

}  // namespace

Interrupted::Interrupted()
    : std::runtime_error("interrupted: the caller stopped this call; dispose what it was running") {
}

void set_interrupt_check(InterruptCheck check) {
  g_check.store(check, std::memory_order_relaxed);
}

void interruption_point() {
  const InterruptCheck check = g_check.load(std::memory_order_relaxed);
  if (check != nullptr && t_held == 0 && check()) throw Interrupted();
}

InterruptionsHeld::InterruptionsHeld() {
  ++t_held;
}

InterruptionsHeld::~InterruptionsHeld() {
  --t_held;
}

}  // namespace grpo
