// Section 1: the numeric answer verifier (rules in docs/verifier.md).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace grpo {

enum class VerifierStatus { Correct, Incorrect, NoAnswer, Invalid, Truncated };

// "correct", "incorrect", "no_answer", "invalid", "truncated".
const char* status_name(VerifierStatus status);

struct VerifierResult {
  int accuracy = 0;  // 1 when status is Correct
  VerifierStatus status = VerifierStatus::NoAnswer;
  std::string candidate;  // the extracted text (box content or number token), may be empty
  double value = 0.0;     // parsed candidate; meaningful only when has_value
  bool has_value = false;
  std::string rule;    // short machine id of the rule that decided, e.g. "last_box"
  std::string reason;  // one human-readable sentence (English): kReasonTemplates filled in
  // The same sentence as a code and its parameters, so a page can say it in its own language:
  // reason == the English template of reason_code with reason_params filled in.
  std::string reason_code;                                         // e.g. "box_equal"
  std::vector<std::pair<std::string, std::string>> reason_params;  // e.g. {"value", "0.42857"}
};

// Every reason code and its English template ({name} is a parameter), in a fixed order.
struct ReasonTemplate {
  const char* code;
  const char* english;
};
const std::vector<ReasonTemplate>& verifier_reason_templates();

// Throws InvalidArgument("reference: ...") when the reference is not a number.
VerifierResult check_numeric_answer(std::string_view text, std::string_view reference);

// 1 or 0, as the notebook's verify_numeric_answer.
int verify_numeric_answer(std::string_view text, std::string_view reference);

// Parses a reference answer (integer, decimal, a/b, thousands groups); throws InvalidArgument
// naming `reference` when it is not a finite number.
double parse_reference(std::string_view reference);

}  // namespace grpo
