// Bench rows for the section 1 verifier: throughput (MB/s, 1 MB = 1e6 bytes) on realistic
// responses and on 5 MB adversarial inputs (digits, braces, nested boxes, signs, fractions).
#include <string>
#include <vector>

#include "core/verifier.h"
#include "tools/bench.h"

namespace grpo::bench {
namespace {

constexpr double kMinSeconds = 0.25;                // each measurement runs at least this long
constexpr std::size_t kAdversarialBytes = 5000000;  // 5 MB inputs
constexpr double kOrdinaryBytes = 20e6;             // at least 20 MB of ordinary responses

// Realistic model responses, 100-300 bytes each, with their references.
struct Response {
  std::string text;
  std::string reference;
};

std::vector<Response> ordinary_responses() {
  return {
      {"Let me compute 17 + 25. Adding the units gives 12, carry 1, so the tens give 4. "
       "The final answer is \\boxed{42}.",
       "42"},
      {"We need 3/7 as a decimal. Long division: 3.0 / 7 = 0.428571... Rounding is not needed "
       "because the box holds the exact fraction. Final: \\\\boxed{3/7}",
       "0.428571"},
      {"First attempt: \\boxed{2}. Wait, I made a mistake in the second step; the product is "
       "6 * 4 = 24 and 24 / 8 = 3. Corrected: \\boxed{3}",
       "3"},
      {"The train covers 120 km in 1.5 hours, so its speed is 120 / 1.5 = 80 km/h. "
       "Answer: 80",
       "80"},
      {"The reference number 42 is mentioned, but after checking the arithmetic twice the "
       "answer is 41, since 6 * 7 - 1 = 41.",
       "42"},
      {"Solving x + 7 = 4 gives x = 4 - 7, so x=-3. Checking: -3 + 7 = 4, which matches the "
       "equation.",
       "-3"},
      {"Half of the 8,000 students passed, so the number who passed is \\boxed{4,000}, i.e. "
       "50% of the total.",
       "4000"},
      {"The probability is the ratio of favourable to total outcomes: \\frac{5}{36}, because "
       "there are 5 ways to roll an 8 with two dice out of 36.",
       "5/36"},
      {"I could not find a closed form for this problem, and the numerical approach did not "
       "converge, so I will stop here without an answer.",
       "7"},
      {"Ответ: сначала считаем 9 - 5 = 4, затем умножаем на 3, получаем \\boxed{12}.", "12"},
      {"The expression simplifies to \\dfrac{-3}{4} after cancelling the common factor of 2 "
       "in the numerator and the denominator, so the value is \\boxed{-0.75}",
       "-3/4"},
      {"Dividing by zero is undefined: the answer 1/0 cannot be evaluated, and the final "
       "line must be read as invalid.",
       "0"},
  };
}

std::string repeat_to(const std::string& unit, std::size_t bytes) {
  std::string s;
  s.reserve(bytes + unit.size());
  while (s.size() < bytes) s += unit;
  return s;
}

volatile int sink = 0;  // keeps results alive so the calls are not optimised away

double ordinary_mb_per_second() {
  const std::vector<Response> responses = ordinary_responses();
  double bytes = 0.0;
  const double start = now_seconds();
  double elapsed = 0.0;
  int checksum = 0;
  while (bytes < kOrdinaryBytes || elapsed < kMinSeconds) {
    for (const Response& r : responses) {
      const VerifierResult result = check_numeric_answer(r.text, r.reference);
      checksum += result.accuracy + static_cast<int>(result.status);
      bytes += static_cast<double>(r.text.size());
    }
    elapsed = seconds_since(start);
  }
  sink = checksum;
  return bytes / 1e6 / elapsed;
}

double adversarial_mb_per_second(const std::string& text) {
  double bytes = 0.0;
  const double start = now_seconds();
  double elapsed = 0.0;
  int checksum = 0;
  do {
    const VerifierResult result = check_numeric_answer(text, "1");
    checksum += result.accuracy + static_cast<int>(result.status);
    bytes += static_cast<double>(text.size());
    elapsed = seconds_since(start);
  } while (elapsed < kMinSeconds);
  sink = checksum;
  return bytes / 1e6 / elapsed;
}

}  // namespace

void bench_verifier(std::vector<Row>& rows) {
  rows.push_back({"verifier_ordinary", ordinary_mb_per_second(), "MB/s"});
  const struct {
    const char* name;
    std::string unit;
  } patterns[] = {
      {"verifier_digits_5mb", "9"},
      {"verifier_open_braces_5mb", "{"},
      {"verifier_nested_boxed_5mb", "\\boxed{"},
      {"verifier_minus_signs_5mb", "-"},
      {"verifier_fractions_5mb", "1/"},
      {"verifier_signed_fractions_5mb", "-1/"},
  };
  for (const auto& pattern : patterns) {
    const std::string text = repeat_to(pattern.unit, kAdversarialBytes);
    rows.push_back({pattern.name, adversarial_mb_per_second(text), "MB/s"});
  }
}

}  // namespace grpo::bench
