// The core's process-wide settings for one test's scope, and back to what they were after it.
#pragma once

#include "rl/compute_pool.h"
#include "rl/warmup_cache.h"

// The core's thread count.
struct Threads {
  explicit Threads(int n) : before(grpo::core_threads()) { grpo::set_core_threads(n); }
  ~Threads() { grpo::set_core_threads(before); }
  int before;
};

// How many warm-ups the cache keeps (0: none, so every experiment warms up itself).
struct CacheCapacity {
  explicit CacheCapacity(int n) : before(grpo::warmup_cache_capacity()) {
    grpo::set_warmup_cache_capacity(n);
  }
  ~CacheCapacity() { grpo::set_warmup_cache_capacity(before); }
  int before;
};
