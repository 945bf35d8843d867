// libFuzzer target: the experiment config reader (read_config through the JSON API's
// experimentConfig), from raw bytes: the length / depth pre-scan, the JSON parser, profile
// defaults, unknown keys, kinds and ranges. Every answer must be a well-formed envelope, and a
// config that reads back must read back to itself (the reader is a normalizer).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "api/api.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using grpo::api::Json;
  const std::string input(reinterpret_cast<const char*>(data), size);
  const Json first = Json::parse(grpo::api::call("experimentConfig", input));
  if (first.contains("ok") == first.contains("error")) std::abort();
  // "Error" is the envelope of an unexpected exception (not InvalidArgument / ArgumentTypeError):
  // a reader missed a check, and the message would not name the field.
  if (first.contains("error") && first["error"]["type"] == "Error") std::abort();
  if (first.contains("ok")) {
    const Json again = Json::parse(grpo::api::call("experimentConfig", first["ok"].dump()));
    if (!again.contains("ok") || again["ok"] != first["ok"]) std::abort();
  }
  return 0;
}
