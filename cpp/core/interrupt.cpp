// The interrupt check (see interrupt.h).
#include "core/interrupt.h"

#include <atomic>

namespace grpo {
namespace {

std::atomic<InterruptCheck> g_check{nullptr};
// A stop seen inside the current parallel section (one section runs at a time: not reentrant).
std::atomic<bool> g_section_stopped{false};
thread_local bool t_pool_thread = false;
thread_local int t_sections = 0;

// Whether the check, asked on the caller's thread with `open` parallel sections of its own open
// (0 between sections, 1 at the end of one), says stop. The pool's threads never ask it.
bool caller_check_says_stop(int open) {
  const InterruptCheck check = g_check.load(std::memory_order_relaxed);
  return check != nullptr && !t_pool_thread && t_sections == open && check();
}

}  // namespace

Interrupted::Interrupted()
    : std::runtime_error("interrupted: the caller stopped this call; dispose what it was running") {
}

void set_interrupt_check(InterruptCheck check) {
  g_check.store(check, std::memory_order_relaxed);
}

void interruption_point() {
  if (caller_check_says_stop(0)) throw Interrupted();
}

bool task_should_stop() {
  const InterruptCheck check = g_check.load(std::memory_order_relaxed);
  if (check == nullptr) return false;
  if (t_pool_thread) return g_section_stopped.load(std::memory_order_relaxed);
  if (t_sections == 0) {
    interruption_point();
    return false;
  }
  if (!g_section_stopped.load(std::memory_order_relaxed) && check())
    g_section_stopped.store(true, std::memory_order_relaxed);
  return g_section_stopped.load(std::memory_order_relaxed);
}

ParallelSection::ParallelSection() {
  ++t_sections;
}

ParallelSection::~ParallelSection() {
  --t_sections;
}

void ParallelSection::end() {
  if (g_section_stopped.exchange(false)) throw Interrupted();
  // The pool's threads may have run every task of the section, the caller none: it asks once here.
  if (caller_check_says_stop(1)) throw Interrupted();
}

PoolThread::PoolThread() {
  t_pool_thread = true;
}

}  // namespace grpo
