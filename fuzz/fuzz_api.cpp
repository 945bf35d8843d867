// libFuzzer target: every stateless JSON API method (sections 1-5, grpoObjective, prompts,
// configs, rollouts, teacher-forced log-probs, run import) with arbitrary argument text. The
// first byte picks the method, the rest is the JSON text. Every answer must be a well-formed
// envelope whose error, if any, is a RangeError or TypeError (never "Error": an unexpected
// exception means a reader missed a check). The stateful experiment methods are left out: each
// create runs a supervised warm-up, far over the 1 s per input budget.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "api/api.h"

namespace {

std::vector<std::string> stateless_methods() {
  std::vector<std::string> methods;
  for (const std::string& name : grpo::api::method_names())
    if (name.rfind("experiment", 0) != 0 || name == "experimentConfig") methods.push_back(name);
  return methods;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using grpo::api::Json;
  static const std::vector<std::string> methods = stateless_methods();
  if (size == 0) return 0;
  const std::string& method = methods[data[0] % methods.size()];
  const std::string args(reinterpret_cast<const char*>(data + 1), size - 1);
  const Json envelope = Json::parse(grpo::api::call(method, args));
  if (envelope.contains("ok") == envelope.contains("error")) std::abort();
  if (envelope.contains("error") && envelope["error"]["type"] == "Error") std::abort();
  return 0;
}
