// Section 1: the numeric answer verifier (rules in docs/verifier.md).
#pragma once

#include <string>
#include <string_view>

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
  std::string reason;  // one human-readable sentence (English)
};

// Throws InvalidArgument("reference: ...") when the reference is not a number.
VerifierResult check_numeric_answer(std::string_view text, std::string_view reference);

// 1 or 0, as the notebook's verify_numeric_answer.
int verify_numeric_answer(std::string_view text, std::string_view reference);

// Parses a reference answer (integer, decimal, a/b, thousands groups); throws InvalidArgument
// naming `reference` when it is not a finite number.
double parse_reference(std::string_view reference);

}  // namespace grpo
