// The core's worker pool (see compute_pool.h): persistent threads woken per parallel section,
// tasks handed out by an atomic counter, the caller working too.
#include "rl/compute_pool.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/errors.h"
#include "core/interrupt.h"

namespace grpo {
namespace {

class Pool {
 public:
  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& worker : workers_) worker.join();
  }

  // Workers start on the first parallel section that wants them (not here: a WebAssembly
  // module sets its count while it starts up).
  void set_threads(int threads) { threads_ = threads; }
  int threads() const { return threads_; }

  void run(int tasks, const std::function<void(int)>& fn) {
    const int helpers = std::min(threads_, tasks) - 1;
    if (helpers <= 0) {
      // One thread: the tasks in order, and a stop asked for between two of them is taken.
      for (int t = 0; t < tasks; ++t) {
        if (t > 0) interruption_point();
        fn(t);
      }
      return;
    }
    ParallelSection section;  // no task of this section may throw out of it
    while (static_cast<int>(workers_.size()) < helpers) {
      const int id = static_cast<int>(workers_.size()) + 1;
      workers_.emplace_back([this, id] { work(id); });
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      fn_ = &fn;
      tasks_ = tasks;
      next_.store(0);
      helpers_ = helpers;
      pending_ = helpers;
      ++generation_;
    }
    wake_.notify_all();
    drain(fn, tasks);
    // Every helper has left its drain (so every task has finished and no helper still reads
    // this section's state) when pending_ is back to 0.
    {
      std::unique_lock<std::mutex> lock(mutex_);
      finished_.wait(lock, [&] { return pending_ == 0; });
      fn_ = nullptr;
    }
    section.end();  // a stop a task saw: Interrupted, now that every thread has left
  }

 private:
  void drain(const std::function<void(int)>& fn, int tasks) {
    // After a stop the remaining tasks are skipped (the call is interrupted: core/interrupt.h).
    for (int t = next_.fetch_add(1); t < tasks && !task_should_stop(); t = next_.fetch_add(1))
      fn(t);
  }

  void work(int id) {
    const PoolThread marked;
    unsigned seen = 0;
    for (;;) {
      const std::function<void(int)>* fn = nullptr;
      int tasks = 0;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stopping_ || (generation_ != seen && id <= helpers_); });
        if (stopping_) return;
        seen = generation_;
        fn = fn_;
        tasks = tasks_;
      }
      drain(*fn, tasks);
      {
        std::lock_guard<std::mutex> lock(mutex_);
        --pending_;
      }
      finished_.notify_all();
    }
  }

  int threads_ = 1;
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, finished_;
  const std::function<void(int)>* fn_ = nullptr;
  int tasks_ = 0, helpers_ = 0, pending_ = 0;
  unsigned generation_ = 0;
  bool stopping_ = false;
  std::atomic<int> next_{0};
};

Pool& pool() {
  static Pool instance;
  return instance;
}

}  // namespace

void set_core_threads(int threads) {
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
  // A WebAssembly build without -pthread cannot start a thread.
  require_integer_in_range("threads", threads, 1, 1);
#else
  require_integer_in_range("threads", threads, 1, kCoreMaxThreads);
#endif
  pool().set_threads(threads);
}

int core_threads() {
  return pool().threads();
}

void parallel_tasks(int tasks, const std::function<void(int)>& fn) {
  pool().run(tasks, fn);
}

}  // namespace grpo
