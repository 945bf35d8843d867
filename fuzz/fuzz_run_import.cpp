// libFuzzer target: the run import (importRun, api_run.cpp) from raw bytes. Every answer must be
// a well-formed envelope; a run that imports must import again to exactly itself (the importer
// is a normalizer).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "api/api.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using grpo::api::Json;
  const std::string input(reinterpret_cast<const char*>(data), size);
  const Json first = Json::parse(grpo::api::call("importRun", input));
  if (first.contains("ok") == first.contains("error")) std::abort();
  // "Error" is the envelope of an unexpected exception (not InvalidArgument / ArgumentTypeError):
  // a reader missed a check, and the message would not name the field.
  if (first.contains("error") && first["error"]["type"] == "Error") std::abort();
  if (first.contains("ok")) {
    const Json again = grpo::api::call_json("importRun", Json{{"run", first["ok"]}});
    if (!again.contains("ok") || again["ok"] != first["ok"]) std::abort();
  }
  return 0;
}
