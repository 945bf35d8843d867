// libFuzzer target: checkpoint import. The input is JSON text; it goes (1) through the JSON
// API's teacherForcedLogProbs as a page would send it ({checkpoint, sequences, gradients}), and
// (2) parsed here, its "checkpoint" member (or the whole value) into import_checkpoint<float>
// and <double>. A checkpoint that imports must export and re-import to the same parameters.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "api/api.h"
#include "core/errors.h"
#include "rl/checkpoint.h"

namespace {

template <typename Scalar>
void import_and_round_trip(const grpo::api::Json& value) {
  try {
    grpo::Checkpoint<Scalar> c = grpo::import_checkpoint<Scalar>(value);
    const grpo::api::Json exported = grpo::export_checkpoint(c.policy, c.vocab, c.config);
    const grpo::Checkpoint<Scalar> again = grpo::import_checkpoint<Scalar>(exported);
    if (again.policy.params() != c.policy.params()) std::abort();
  } catch (const grpo::InvalidArgument&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using grpo::api::Json;
  const std::string input(reinterpret_cast<const char*>(data), size);
  const Json envelope = Json::parse(grpo::api::call("teacherForcedLogProbs", input));
  if (envelope.contains("ok") == envelope.contains("error")) std::abort();
  // "Error" is the envelope of an unexpected exception (not InvalidArgument / ArgumentTypeError):
  // a reader missed a check, and the message would not name the field.
  if (envelope.contains("error") && envelope["error"]["type"] == "Error") std::abort();

  try {
    grpo::api::check_json_text(input);  // the same bounds the API applies before parsing
  } catch (const grpo::InvalidArgument&) {
    return 0;
  }
  const Json parsed = Json::parse(input, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) return 0;
  const Json& checkpoint =
      parsed.is_object() && parsed.contains("checkpoint") ? parsed["checkpoint"] : parsed;
  import_and_round_trip<float>(checkpoint);
  import_and_round_trip<double>(checkpoint);
  return 0;
}
