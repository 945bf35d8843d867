// The one file that knows about JavaScript: exposes the JSON API (api/api.h) through Embind.
// Strings cross as copies; errors come back inside the returned envelope, never as a thrown
// C++ exception (a throw into JS arrives as a bare pointer and leaks, see TOOLCHAIN.md).
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>

#include "api/api.h"
#include "core/interrupt.h"
#ifdef __EMSCRIPTEN_PTHREADS__
#include <algorithm>
#include <thread>

#include "rl/compute_pool.h"
#endif

// The interrupt check (core/interrupt.h): the wrapper's interruptOn(flag) puts an Int32Array
// over a SharedArrayBuffer on the module; the page's thread sets it to 1 while this worker is
// inside a long call. One Atomics.load per time step of a pass: nothing beside the step.
EM_JS(int, grpo_interrupt_requested, (), {
  var flag = Module["grpoInterruptFlag"];
  return flag ? Atomics.load(flag, 0) : 0;
});

namespace {

std::string call(const std::string& method, const std::string& args_json) {
  return grpo::api::call(method, args_json);
}

std::string method_list() {
  return grpo::api::Json(grpo::api::method_names()).dump();
}

}  // namespace

EMSCRIPTEN_BINDINGS(grpo_core) {
#ifdef __EMSCRIPTEN_PTHREADS__
  // The threaded build (grpo_core_mt): a run's passes on 2 threads where the machine has 2 cores
  // (the pool's second worker starts on the first pass; -sPTHREAD_POOL_SIZE has it loaded).
  grpo::set_core_threads(static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 2u)));
#endif
  grpo::set_interrupt_check([] { return grpo_interrupt_requested() != 0; });
  emscripten::function("_call", &call);
  emscripten::function("_methods", &method_list);
}
