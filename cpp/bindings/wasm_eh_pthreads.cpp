// Linked into the threaded core only (grpo_core_lib_mt: grpo_core_mt, grpo_bench_mt). Replaces
// libunwind's wasm part (Emscripten 3.1.6, system/lib/libunwind/src/Unwind-wasm.c; the archive
// libunwind-mt-except.a holds that one object) so that a typed `catch` works in a -pthread build.
//
// Why: a `catch (const T&)` landing pad, as clang emits it, stores its landing-pad index and LSDA
// into the struct __wasm_lpad_context, calls _Unwind_CallPersonality, then reads the selector
// the personality function wrote there. Debian's clang 14 addresses __wasm_lpad_context as an
// ordinary global (`i32.const __wasm_lpad_context`), but Emscripten 3.1.6's libunwind defines it
// `thread_local` (later clang addresses it as thread-local, R_WASM_MEMORY_ADDR_TLS_SLEB). With
// -pthread the linker resolves the user code's address to the variable's offset inside the TLS
// block: the landing pad writes near address 0 while the personality function reads this thread's
// copy, finds no LSDA, and matches no catch clause. Only `catch (...)` (no personality call) still
// catches, so every argument error of the core left grpo::api::call as a bare WebAssembly.Exception
// (tests/browser/threads.test.mjs checks they no longer do). Without -pthread, thread_local is an
// ordinary global and both sides agree: the single-thread builds never showed it. Repro: a
// `try { throw std::runtime_error("x"); } catch (const std::exception&) {}` built with
// `em++ -pthread -fwasm-exceptions` falls through to `catch (...)` or out of the function.
//
// The fix: the same functions over an ordinary global, the one clang 14's landing pads write. It
// is shared by all threads: two threads inside a typed catch's landing pad at the same moment
// could mix up their selectors. In this core only the calling thread throws and catches: the
// pool's tasks are arithmetic that never throws (rl/compute_pool.h), so no two threads do.
#if defined(__EMSCRIPTEN_PTHREADS__) && defined(__wasm_exception_handling__)
#include <cstdint>

// The types of libunwind's unwind.h, as far as used here (clang's own unwind.h, found first, has
// other signatures): _Unwind_Reason_Code and _Unwind_Action are ints, the context is opaque.
namespace {
constexpr int kForeignExceptionCaught = 1;  // _URC_FOREIGN_EXCEPTION_CAUGHT
constexpr int kCleanupPhase = 2;            // _UA_CLEANUP_PHASE
}  // namespace

extern "C" {

struct _Unwind_Context;
struct _Unwind_Exception {  // the leading fields of libunwind's
  uint64_t exception_class;
  void (*exception_cleanup)(int reason, _Unwind_Exception* exception_object);
};

int __gxx_personality_wasm0(int version, int actions, uint64_t exception_class,
                            _Unwind_Exception* exception_object, _Unwind_Context* context);

struct _Unwind_LandingPadContext {
  uintptr_t lpad_index;  // in: landing pad index
  uintptr_t lsda;        // in: LSDA address
  uintptr_t selector;    // out: the catch clause the personality function picked
};

// Not thread_local: see above.
_Unwind_LandingPadContext __wasm_lpad_context;

int _Unwind_CallPersonality(void* exception_ptr) {
  auto* exception_object = static_cast<_Unwind_Exception*>(exception_ptr);
  __wasm_lpad_context.selector = 0;
  // Wasm has no two-phase unwinding: the cleanup phase only.
  return __gxx_personality_wasm0(1, kCleanupPhase, exception_object->exception_class,
                                 exception_object,
                                 reinterpret_cast<_Unwind_Context*>(&__wasm_lpad_context));
}

int _Unwind_RaiseException(_Unwind_Exception* exception_object) {
  __builtin_wasm_throw(0, exception_object);
}

void _Unwind_DeleteException(_Unwind_Exception* exception_object) {
  if (exception_object->exception_cleanup != nullptr)
    (*exception_object->exception_cleanup)(kForeignExceptionCaught, exception_object);
}

void _Unwind_SetGR(_Unwind_Context* context, int index, uintptr_t value) {
  // The personality function sets the selector only, as register 1.
  if (index == 1) reinterpret_cast<_Unwind_LandingPadContext*>(context)->selector = value;
}

uintptr_t _Unwind_GetIP(_Unwind_Context* context) {
  // Used as a 1-based index after a decrement of 1.
  return reinterpret_cast<_Unwind_LandingPadContext*>(context)->lpad_index + 2;
}

void _Unwind_SetIP(_Unwind_Context*, uintptr_t) {}

uintptr_t _Unwind_GetLanguageSpecificData(_Unwind_Context* context) {
  return reinterpret_cast<_Unwind_LandingPadContext*>(context)->lsda;
}

uintptr_t _Unwind_GetRegionStart(_Unwind_Context*) {
  return 0;
}

}  // extern "C"
#endif
