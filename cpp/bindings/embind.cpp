// The one file that knows about JavaScript: exposes the JSON API (api/api.h) through Embind.
// Strings cross as copies; errors come back inside the returned envelope, never as a thrown
// C++ exception (a throw into JS arrives as a bare pointer and leaks, see TOOLCHAIN.md).
#include <emscripten/bind.h>

#include "api/api.h"

namespace {

std::string call(const std::string& method, const std::string& args_json) {
  return grpo::api::call(method, args_json);
}

std::string method_list() {
  return grpo::api::Json(grpo::api::method_names()).dump();
}

}  // namespace

EMSCRIPTEN_BINDINGS(grpo_core) {
  emscripten::function("_call", &call);
  emscripten::function("_methods", &method_list);
}
