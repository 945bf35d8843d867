// libFuzzer target: the numeric verifier (section 1) on any text and reference.
// Input: "<reference>\0<text>" (no NUL: the whole input is the text, the reference is "1", and
// the input is also tried as a reference). Checks the result's invariants and that the JSON API
// can always print it (valid UTF-8 in reason and candidate).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "api/api.h"
#include "core/errors.h"
#include "core/verifier.h"

namespace {

void check(bool condition) {
  if (!condition) std::abort();  // an invariant broke: libFuzzer records the input
}

void verify(std::string_view text, std::string_view reference) {
  grpo::VerifierResult r;
  try {
    r = grpo::check_numeric_answer(text, reference);
  } catch (const grpo::InvalidArgument&) {
    return;  // a reference that is not a number: the documented error
  }
  check((r.accuracy == 1) == (r.status == grpo::VerifierStatus::Correct));
  check(r.status != grpo::VerifierStatus::Truncated);  // only rollouts truncate
  check(!r.has_value || std::isfinite(r.value));
  check(r.has_value ==
        (r.status == grpo::VerifierStatus::Correct || r.status == grpo::VerifierStatus::Incorrect));
  check(!r.reason.empty() && !r.rule.empty());
  bool known_code = false;  // every reason is one of the codes the pages translate
  for (const grpo::ReasonTemplate& t : grpo::verifier_reason_templates()) {
    known_code = known_code || r.reason_code == t.code;
  }
  check(known_code);
  check(r.candidate.size() <= text.size());
  check(grpo::verify_numeric_answer(text, reference) == r.accuracy);  // deterministic
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = input.find('\0');
  if (nul == std::string_view::npos) {
    verify(input, "1");
    try {
      (void)grpo::parse_reference(input);
    } catch (const grpo::InvalidArgument&) {
    }
  } else {
    verify(input.substr(nul + 1), input.substr(0, nul));
  }
  // Through the JSON API as a page calls it: the envelope is always printable JSON.
  const grpo::api::Json args{
      {"text", std::string(input.substr(nul == std::string_view::npos ? 0 : nul + 1))},
      {"reference",
       nul == std::string_view::npos ? std::string("1") : std::string(input.substr(0, nul))}};
  std::string json;
  try {
    json = args.dump();  // throws for invalid UTF-8: then the page could not have sent it
  } catch (const grpo::api::Json::exception&) {
    return 0;
  }
  // Valid UTF-8 in, valid UTF-8 out: the reason quotes at most a prefix of the text, and that
  // prefix must not end inside a multi-byte character (dump() throws on invalid UTF-8).
  try {
    const grpo::VerifierResult r = grpo::check_numeric_answer(args["text"].get<std::string>(),
                                                              args["reference"].get<std::string>());
    grpo::api::Json params = grpo::api::Json::object();
    for (const auto& [name, value] : r.reason_params) params[name] = value;
    (void)grpo::api::Json{{"reason", r.reason}, {"candidate", r.candidate}, {"params", params}}
        .dump();
  } catch (const grpo::InvalidArgument& e) {
    (void)grpo::api::Json(e.what()).dump();
  }
  const std::string out = grpo::api::call("checkNumericAnswer", json);
  const grpo::api::Json envelope = grpo::api::Json::parse(out);  // aborts (uncaught) if invalid
  check(envelope.contains("ok") != envelope.contains("error"));
  return 0;
}
