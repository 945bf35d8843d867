// Catch2 tests of the section 1 numeric answer verifier: notebook cases, every rule, bad
// references and megabyte inputs.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/verifier.h"

using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using grpo::check_numeric_answer;
using grpo::status_name;
using grpo::VerifierResult;
using grpo::verify_numeric_answer;

namespace {

const std::string kMinus = "\xE2\x88\x92";  // U+2212 MINUS SIGN

struct Case {
  std::string text;
  std::string reference;
  int accuracy;
  std::string status;
  std::string rule;
  std::string candidate;
};

std::ostream& operator<<(std::ostream& os, const Case& c) {
  return os << "text='" << c.text << "' reference='" << c.reference << "'";
}

}  // namespace

TEST_CASE("verifier: the five notebook cases hold exactly", "[verifier]") {
  // Python raw strings r"\\boxed{...}" hold two backslashes before "boxed".
  CHECK(verify_numeric_answer("Final: \\\\boxed{3/7}", "0.428571") == 1);
  CHECK(verify_numeric_answer("The reference number 42 is mentioned, but the answer is 41", "42") ==
        0);
  CHECK(verify_numeric_answer("First \\\\boxed{2}, then corrected: \\\\boxed{3}", "3") == 1);
  CHECK(verify_numeric_answer("No numerical answer", "5") == 0);
  CHECK(verify_numeric_answer("1/0", "0") == 0);

  const VerifierResult first = check_numeric_answer("Final: \\\\boxed{3/7}", "0.428571");
  CHECK(std::string(status_name(first.status)) == "correct");
  CHECK(first.candidate == "3/7");
  CHECK(first.rule == "last_box");
  REQUIRE(first.has_value);
  CHECK_THAT(first.value, WithinRel(3.0 / 7.0, 1e-15));

  const VerifierResult second =
      check_numeric_answer("The reference number 42 is mentioned, but the answer is 41", "42");
  CHECK(std::string(status_name(second.status)) == "incorrect");
  CHECK(second.candidate == "41");
  CHECK(second.rule == "last_number");

  const VerifierResult fourth = check_numeric_answer("No numerical answer", "5");
  CHECK(std::string(status_name(fourth.status)) == "no_answer");
  CHECK(fourth.rule == "no_number");
  CHECK_FALSE(fourth.has_value);

  const VerifierResult fifth = check_numeric_answer("1/0", "0");
  CHECK(std::string(status_name(fifth.status)) == "invalid");
  CHECK(fifth.rule == "zero_denominator");
  CHECK(fifth.candidate == "1/0");
  CHECK_FALSE(fifth.has_value);
}

TEST_CASE("verifier: rule table", "[verifier]") {
  const Case c = GENERATE(values<Case>({
      // Boxes: the box that starts last wins, nested braces are balanced.
      {"\\boxed{\\boxed{5}}", "5", 1, "correct", "last_box", "5"},
      {"\\boxed{\\frac{1}{2}}", "0.5", 1, "correct", "last_box", "\\frac{1}{2}"},
      {"\\boxed{\\dfrac{3}{4}}", "0.75", 1, "correct", "last_box", "\\dfrac{3}{4}"},
      {"\\boxed{\\tfrac{1}{4}}", "0.25", 1, "correct", "last_box", "\\tfrac{1}{4}"},
      {"\\boxed{-\\frac{1}{2}}", "-0.5", 1, "correct", "last_box", "-\\frac{1}{2}"},
      {"\\boxed{\\frac{-1}{2}}", "-1/2", 1, "correct", "last_box", "\\frac{-1}{2}"},
      {"\\boxed{\\frac { 6 } { 4 }}", "1.5", 1, "correct", "last_box", "\\frac { 6 } { 4 }"},
      {"\\boxed{1} \\boxed{2} \\boxed{3}", "3", 1, "correct", "last_box", "3"},
      {"\\boxed{3} was wrong, the answer is 4", "4", 0, "incorrect", "last_box", "3"},
      {"\\boxed{5} \\boxed 6", "5", 1, "correct", "last_box", "5"},
      {"\\boxed{ \\boxed{5}", "5", 1, "correct", "last_box", "5"},
      {"\\boxed{5}}", "5", 1, "correct", "last_box", "5"},
      {"\\boxed{ 42 }", "42", 1, "correct", "last_box", "42"},
      {"\\boxed  {7}", "7", 1, "correct", "last_box", "7"},
      {"\\fbox{7}", "7", 1, "correct", "last_box", "7"},
      {"\\\\fbox{ 2 }", "2", 1, "correct", "last_box", "2"},
      {"\\boxed{+5}", "5", 1, "correct", "last_box", "+5"},
      {"\\boxed{" + kMinus + "5}", "-5", 1, "correct", "last_box", kMinus + "5"},
      {"\\boxed{1e3}", "1000", 1, "correct", "last_box", "1e3"},
      {"\\boxed{50\\%}", "50", 1, "correct", "last_box", "50\\%"},
      {"\\boxed{50%}", "50", 1, "correct", "last_box", "50%"},
      {"\\boxed{8,000}", "8000", 1, "correct", "last_box", "8,000"},
      {"\\boxed{1,234,567.5}", "1234567.5", 1, "correct", "last_box", "1,234,567.5"},
      {"\\boxed{1,000/4}", "250", 1, "correct", "last_box", "1,000/4"},
      // Boxes that are not a number, never closed, or empty: invalid, no fallback.
      {"\\boxed{}", "5", 0, "invalid", "empty_box", ""},
      {"5 \\boxed{   }", "5", 0, "invalid", "empty_box", ""},
      {"\\fbox{}", "0", 0, "invalid", "empty_box", ""},
      {"\\boxed{x+1} so 5", "5", 0, "invalid", "box_not_number", "x+1"},
      {"\\boxed{3 \\times 10^{5}}", "300000", 0, "invalid", "box_not_number", "3 \\times 10^{5}"},
      {"\\boxed{2 2/3}", "2.6666667", 0, "invalid", "box_not_number", "2 2/3"},
      {"\\boxed{1,00}", "100", 0, "invalid", "box_not_number", "1,00"},
      {"\\boxed{12 apples and 3 pears}", "12", 0, "invalid", "box_not_number",
       "12 apples and 3 pears"},
      {"\\boxed{- 5}", "-5", 0, "invalid", "box_not_number", "- 5"},
      {"\\boxed{5.}", "5", 0, "invalid", "box_not_number", "5."},
      {"\\boxed{\\{5\\}}", "5", 0, "invalid", "box_not_number", "\\{5\\}"},
      {"\\boxed{inf}", "1", 0, "invalid", "box_not_number", "inf"},
      {"\\boxed{5} then \\boxed{6", "5", 0, "invalid", "unclosed_box", "6"},
      {"\\boxed{4} then \\boxed{{4}", "4", 0, "invalid", "unclosed_box", "{4}"},
      {"\\boxed{1/0}", "0", 0, "invalid", "zero_denominator", "1/0"},
      {"\\boxed{\\frac{1}{0}}", "0", 0, "invalid", "zero_denominator", "\\frac{1}{0}"},
      {"\\boxed{1e400}", "1", 0, "invalid", "non_finite", "1e400"},
      // No box: the last number of the text.
      {"\\boxed 5", "5", 1, "correct", "last_number", "5"},
      {"\\boxed5", "5", 0, "no_answer", "no_number", ""},
      {"The answer is -7.", "-7", 1, "correct", "last_number", "-7"},
      {"x=-3", "-3", 1, "correct", "last_number", "-3"},
      {"5-3", "-3", 0, "incorrect", "last_number", "3"},
      {"5-3", "3", 1, "correct", "last_number", "3"},
      {"--3", "3", 1, "correct", "last_number", "3"},
      {"$-4$", "-4", 1, "correct", "last_number", "-4"},
      {"(-2)", "-2", 1, "correct", "last_number", "-2"},
      {"[+6]", "6", 1, "correct", "last_number", "+6"},
      {"a;-1", "-1", 1, "correct", "last_number", "-1"},
      {"answer:-9", "-9", 1, "correct", "last_number", "-9"},
      {"x = " + kMinus + "3", "-3", 1, "correct", "last_number", kMinus + "3"},
      {"5" + kMinus + "3", "3", 1, "correct", "last_number", "3"},
      {"it is 0.25", "1/4", 1, "correct", "last_number", "0.25"},
      {"about .5", "0.5", 1, "correct", "last_number", ".5"},
      {"about -.5", "-0.5", 1, "correct", "last_number", "-.5"},
      {"The answer is 5.", "5", 1, "correct", "last_number", "5"},
      {"1e3", "1000", 1, "correct", "last_number", "1e3"},
      {"so 1E-2", "0.01", 1, "correct", "last_number", "1E-2"},
      {"tiny 1e-400", "0", 1, "correct", "last_number", "1e-400"},
      {"50%", "50", 1, "correct", "last_number", "50%"},
      {"50\\%", "50", 1, "correct", "last_number", "50\\%"},
      {"50%", "0.5", 0, "incorrect", "last_number", "50%"},
      {"8000", "8,000", 1, "correct", "last_number", "8000"},
      // Thousands groups in free text: a 1-3 digit head, then groups of exactly three digits.
      {"The total is 8,000", "8000", 1, "correct", "last_number", "8,000"},
      {"The answer is 1,000.", "1000", 1, "correct", "last_number", "1,000"},
      {"It costs $1,250", "1250", 1, "correct", "last_number", "1,250"},
      {"12,345,678", "12345678", 1, "correct", "last_number", "12,345,678"},
      {"so -1,000", "-1000", 1, "correct", "last_number", "-1,000"},
      {"1,000.5", "1000.5", 1, "correct", "last_number", "1,000.5"},
      {"1,000 / 4", "250", 1, "correct", "last_number", "1,000 / 4"},
      {"x = " + kMinus + "1,000", "-1000", 1, "correct", "last_number", kMinus + "1,000"},
      {"1,000kg", "1000", 1, "correct", "last_number", "1,000"},
      {"1,000e3", "1000000", 1, "correct", "last_number", "1,000e3"},
      {"1,000,000%", "1000000", 1, "correct", "last_number", "1,000,000%"},
      // A comma that starts no valid group separates numbers.
      {"x = 3, 4", "4", 1, "correct", "last_number", "4"},
      {"x = 3,4", "4", 1, "correct", "last_number", "4"},
      {"1,2,3", "3", 1, "correct", "last_number", "3"},
      {"1,0000", "10000", 0, "incorrect", "last_number", "0000"},
      {"1,0000", "0", 1, "correct", "last_number", "0000"},
      {"1,00", "100", 0, "incorrect", "last_number", "00"},
      {"1234,567", "1234567", 0, "incorrect", "last_number", "567"},
      {"1,000,00", "100000", 0, "incorrect", "last_number", "00"},
      {"1, 000", "1000", 0, "incorrect", "last_number", "000"},
      {"3,14", "14", 1, "correct", "last_number", "14"},
      {"1,000,", "1000", 1, "correct", "last_number", "1,000"},
      {"AB1,234", "234", 0, "no_answer", "no_number", ""},
      {"2 2/3", "0.6666667", 1, "correct", "last_number", "2/3"},
      {"2 2/3", "2.6666667", 0, "incorrect", "last_number", "2/3"},
      {"2\\frac{1}{2}", "0.5", 1, "correct", "last_number", "\\frac{1}{2}"},
      {"so \\frac{1}{2}", "0.5", 1, "correct", "last_number", "\\frac{1}{2}"},
      {"so \\dfrac{3}{4}", "0.75", 1, "correct", "last_number", "\\dfrac{3}{4}"},
      {"so -\\frac{3}{4}", "-0.75", 1, "correct", "last_number", "-\\frac{3}{4}"},
      {"\\frac{x}{2}", "2", 1, "correct", "last_number", "2"},
      {"2+3", "5", 0, "incorrect", "last_number", "3"},
      {"1/2/3", "3", 1, "correct", "last_number", "3"},
      {"1/-2", "2", 1, "correct", "last_number", "2"},
      {"3 \\times 10^{5}", "300000", 0, "incorrect", "last_number", "5"},
      {"5 cm", "5", 1, "correct", "last_number", "5"},
      {"x_1 = 4", "4", 1, "correct", "last_number", "4"},
      {"007", "7", 1, "correct", "last_number", "007"},
      {"-0", "0", 1, "correct", "last_number", "-0"},
      {"1/3", "0.333333", 1, "correct", "last_number", "1/3"},
      {"1/3", "0.33333", 0, "incorrect", "last_number", "1/3"},
      {"1000000.5", "1000000", 1, "correct", "last_number", "1000000.5"},
      {"1000002", "1000000", 0, "incorrect", "last_number", "1000002"},
      {"3/0 is undefined, so 4", "4", 1, "correct", "last_number", "4"},
      {"0/0", "0", 0, "invalid", "zero_denominator", "0/0"},
      {"5 then 1e400", "5", 0, "invalid", "non_finite", "1e400"},
      {"1e400 then 5", "5", 1, "correct", "last_number", "5"},
      {"\xD0\x9E\xD1\x82\xD0\xB2\xD0\xB5\xD1\x82: 12", "12", 1, "correct", "last_number", "12"},
      // What real datasets write (docs/verifier.md section 6): the reference in any notation a
      // box may hold.
      {"\\boxed{0.5}", "\\frac{1}{2}", 1, "correct", "last_box", "0.5"},
      {"\\boxed{0.75}", "\\dfrac{3}{4}", 1, "correct", "last_box", "0.75"},
      {"\\boxed{0.5}", "\\\\frac{1}{2}", 1, "correct", "last_box", "0.5"},
      {"\\boxed{0.5}", "\\frac12", 1, "correct", "last_box", "0.5"},
      {"\\boxed{3/7}", "3 / 7", 1, "correct", "last_box", "3/7"},
      {"\\boxed{1234}", "1,234", 1, "correct", "last_box", "1234"},
      {"\\boxed{50}", "50\\%", 1, "correct", "last_box", "50"},
      {"\\boxed{5}", "5 cm", 1, "correct", "last_box", "5"},
      {"\\boxed{5}", "$5", 1, "correct", "last_box", "5"},
      {"\\boxed{30}", "30^\\circ", 1, "correct", "last_box", "30"},
      {"\\boxed{13}", "\\text{13}", 1, "correct", "last_box", "13"},
      {"\\boxed{73}", "**73**", 1, "correct", "last_box", "73"},
      // Box contents in dataset notations: units, symbols, wrappers, spaced and doubled fractions.
      {"\\boxed{3 / 7}", "0.428571", 1, "correct", "last_box", "3 / 7"},
      {"\\boxed{\\\\frac{1}{2}}", "0.5", 1, "correct", "last_box", "\\\\frac{1}{2}"},
      {"\\\\boxed{\\\\dfrac{3}{7}}", "3/7", 1, "correct", "last_box", "\\\\dfrac{3}{7}"},
      {"\\boxed{\\frac12}", "0.5", 1, "correct", "last_box", "\\frac12"},
      {"\\boxed{12 apples}", "12", 1, "correct", "last_box", "12 apples"},
      {"\\boxed{5kg}", "5", 1, "correct", "last_box", "5kg"},
      {"\\boxed{5\\text{ cm}}", "5", 1, "correct", "last_box", "5\\text{ cm}"},
      {"\\boxed{5\\,\\mathrm{kg}}", "5", 1, "correct", "last_box", "5\\,\\mathrm{kg}"},
      {"\\boxed{30^\\circ}", "30", 1, "correct", "last_box", "30^\\circ"},
      {"\\boxed{30^{\\circ}}", "30", 1, "correct", "last_box", "30^{\\circ}"},
      {"\\boxed{30\xC2\xB0}", "30", 1, "correct", "last_box", "30\xC2\xB0"},
      {"\\boxed{\\$5}", "5", 1, "correct", "last_box", "\\$5"},
      {"\\boxed{$5}", "5", 1, "correct", "last_box", "$5"},
      {"\\boxed{-\\$5}", "-5", 1, "correct", "last_box", "-\\$5"},
      {"\\boxed{\\$1,250.50}", "1250.5", 1, "correct", "last_box", "\\$1,250.50"},
      {"\\boxed{\\text{13}}", "13", 1, "correct", "last_box", "\\text{13}"},
      {"\\boxed{\\textbf{73}}", "73", 1, "correct", "last_box", "\\textbf{73}"},
      {"\\boxed{**73**}", "73", 1, "correct", "last_box", "**73**"},
      {"\\boxed{$\\frac{1}{2}$}", "0.5", 1, "correct", "last_box", "$\\frac{1}{2}$"},
      {"\\boxed{5\\%}", "5", 1, "correct", "last_box", "5\\%"},
      {"\\boxed{3 / 0}", "0", 0, "invalid", "zero_denominator", "3 / 0"},
      {"\\boxed{5 cm^2}", "5", 0, "invalid", "box_not_number", "5 cm^2"},
      {"\\boxed{5\xC2\xB2}", "5", 0, "invalid", "box_not_number", "5\xC2\xB2"},
      {"\\boxed{5} weighs 7kg", "5", 1, "correct", "last_box", "5"},
      // Free text in dataset notations.
      {"The answer is **73**.", "73", 1, "correct", "last_number", "73"},
      {"The answer is *73*", "73", 1, "correct", "last_number", "73"},
      {"\\text{13}", "13", 1, "correct", "last_number", "13"},
      {"It weighs 5kg.", "5", 1, "correct", "last_number", "5"},
      {"the angle is 30\xC2\xB0", "30", 1, "correct", "last_number", "30"},
      {"the angle is 30^\\circ", "30", 1, "correct", "last_number", "30"},
      {"it costs $5", "5", 1, "correct", "last_number", "5"},
      {"it costs \xE2\x82\xAC"
       "5",
       "5", 1, "correct", "last_number", "5"},
      {"so 3 / 7", "0.428571", 1, "correct", "last_number", "3 / 7"},
      {"1 / 0", "0", 0, "invalid", "zero_denominator", "1 / 0"},
      {"Final: \\\\dfrac{3}{7}", "3/7", 1, "correct", "last_number", "\\\\dfrac{3}{7}"},
      {"so -\\\\frac{3}{4}", "-0.75", 1, "correct", "last_number", "-\\\\frac{3}{4}"},
      {"so \\frac12", "0.5", 1, "correct", "last_number", "\\frac12"},
      // The strict rules stay: superscripts, words running into digits, numbers inside words.
      {"5\xC2\xB2", "5", 0, "no_answer", "no_number", ""},
      {"5cm2", "5", 0, "no_answer", "no_number", ""},
      {"x\xC2\xB2 = 4", "4", 1, "correct", "last_number", "4"},
      // Words glued to digits, and non-numbers.
      {"12abc", "12", 1, "correct", "last_number", "12"},
      {"3x", "3", 1, "correct", "last_number", "3"},
      {"the answer is 3x, not 4", "4", 1, "correct", "last_number", "4"},
      {"5cm", "5", 1, "correct", "last_number", "5"},
      {"5eggs", "5", 1, "correct", "last_number", "5"},
      {"12\xD1\x80\xD1\x83\xD0\xB1", "12", 1, "correct", "last_number", "12"},
      {"H2O", "2", 0, "no_answer", "no_number", ""},
      {"AB12CD", "12", 0, "no_answer", "no_number", ""},
      {"AB12/3", "4", 0, "no_answer", "no_number", ""},
      {"v1.5", "1.5", 0, "no_answer", "no_number", ""},
      {"version 3.5.2", "2", 0, "no_answer", "no_number", ""},
      {"0x1A", "26", 0, "no_answer", "no_number", ""},
      {"inf", "1", 0, "no_answer", "no_number", ""},
      {"-inf", "1", 0, "no_answer", "no_number", ""},
      {"nan", "0", 0, "no_answer", "no_number", ""},
      {"", "0", 0, "no_answer", "no_number", ""},
  }));
  CAPTURE(c);
  const VerifierResult r = check_numeric_answer(c.text, c.reference);
  CHECK(r.accuracy == c.accuracy);
  CHECK(std::string(status_name(r.status)) == c.status);
  CHECK(r.rule == c.rule);
  CHECK(r.candidate == c.candidate);
  CHECK(verify_numeric_answer(c.text, c.reference) == c.accuracy);
  CHECK(r.has_value == (c.status == "correct" || c.status == "incorrect"));
  CHECK_FALSE(r.reason.empty());
  CHECK(r.reason.back() == '.');
}

TEST_CASE("verifier: values of extracted numbers", "[verifier]") {
  CHECK_THAT(check_numeric_answer("x=-3", "0").value, WithinAbs(-3.0, 0.0));
  CHECK_THAT(check_numeric_answer("\\boxed{8,000}", "0").value, WithinAbs(8000.0, 0.0));
  CHECK_THAT(check_numeric_answer("1E-2", "0").value, WithinRel(0.01, 1e-15));
  CHECK_THAT(check_numeric_answer("50%", "0").value, WithinAbs(50.0, 0.0));
  CHECK_THAT(check_numeric_answer("\\boxed{-\\frac{-3}{4}}", "0").value, WithinAbs(0.75, 0.0));
  CHECK_THAT(check_numeric_answer("2 2/3", "0").value, WithinRel(2.0 / 3.0, 1e-15));
  CHECK_THAT(check_numeric_answer("0.1", "0").value, WithinAbs(0.1, 0.0));
  CHECK_THAT(
      check_numeric_answer("123456789012345678901234567890123456789012345678901234567890", "0")
          .value,
      WithinRel(1.2345678901234568e59, 1e-15));
  CHECK_THAT(
      check_numeric_answer("0.000000000000000000000000000000000000000000000000123", "0").value,
      WithinRel(1.23e-49, 1e-15));
  const VerifierResult r = check_numeric_answer("Final: \\\\boxed{3/7}", "0.428571");
  CHECK(r.reason.find("3/7") != std::string::npos);
  CHECK(r.reason.find("0.428571") != std::string::npos);
}

TEST_CASE("verifier: references", "[verifier]") {
  CHECK_THAT(grpo::parse_reference("42"), WithinAbs(42.0, 0.0));
  CHECK_THAT(grpo::parse_reference(" 1,234 "), WithinAbs(1234.0, 0.0));
  CHECK_THAT(grpo::parse_reference("-3/4"), WithinAbs(-0.75, 0.0));
  CHECK_THAT(grpo::parse_reference("+2.5"), WithinAbs(2.5, 0.0));
  CHECK_THAT(grpo::parse_reference(kMinus + "2"), WithinAbs(-2.0, 0.0));
  CHECK_THAT(grpo::parse_reference(".5"), WithinAbs(0.5, 0.0));
  CHECK_THAT(grpo::parse_reference("1e3"), WithinAbs(1000.0, 0.0));
  CHECK_THAT(grpo::parse_reference("1,000,000.25"), WithinAbs(1000000.25, 0.0));

  const std::string bad =
      GENERATE(as<std::string>{}, "abc", "", "   ", "1/0", "0/0", "NaN", "nan", "inf", "-Infinity",
               "1e400", "1,00", "1 000", "0x10", "--1", "2 2/3", "1/-2", "abc12", "x+1",
               "12 apples and pears", "5\xC2\xB2", "3 \\times 10^{5}", "\\frac{1}{0}");
  CAPTURE(bad);
  REQUIRE_THROWS_AS(grpo::parse_reference(bad), grpo::InvalidArgument);
  REQUIRE_THROWS_WITH(check_numeric_answer("5", bad), Catch::Contains("reference"));
  REQUIRE_THROWS_WITH(verify_numeric_answer("no number here", bad), Catch::Contains("reference"));
}

TEST_CASE("verifier: the reference reads every notation a box reads", "[verifier]") {
  CHECK_THAT(grpo::parse_reference("\\frac{1}{2}"), WithinAbs(0.5, 0.0));
  CHECK_THAT(grpo::parse_reference("\\\\dfrac{3}{4}"), WithinAbs(0.75, 0.0));
  CHECK_THAT(grpo::parse_reference("-\\frac{3}{4}"), WithinAbs(-0.75, 0.0));
  CHECK_THAT(grpo::parse_reference(" 3 / 4 "), WithinAbs(0.75, 0.0));
  CHECK_THAT(grpo::parse_reference("1,000,000"), WithinAbs(1e6, 0.0));
  CHECK_THAT(grpo::parse_reference("50%"), WithinAbs(50.0, 0.0));
  CHECK_THAT(grpo::parse_reference("\\$1,250"), WithinAbs(1250.0, 0.0));
  CHECK_THAT(grpo::parse_reference("30^\\circ"), WithinAbs(30.0, 0.0));
  CHECK_THAT(grpo::parse_reference("12 cm"), WithinAbs(12.0, 0.0));
  CHECK_THAT(grpo::parse_reference("**73**"), WithinAbs(73.0, 0.0));
  CHECK_THAT(grpo::parse_reference("\\text{13}"), WithinAbs(13.0, 0.0));
  REQUIRE_THROWS_WITH(grpo::parse_reference("\\frac{1}{0}"), Catch::Contains("denominator"));
}

TEST_CASE("verifier: every reason is a code whose English template, filled, is the reason",
          "[verifier]") {
  const std::vector<std::pair<std::string, std::string>> inputs = {
      {"\\boxed{5", "5"},      {"\\boxed{}", "5"},    {"\\boxed{x+1}", "5"},
      {"no answer", "5"},      {"\\boxed{1/0}", "0"}, {"1/0", "0"},
      {"\\boxed{1e400}", "1"}, {"5 then 1e400", "5"}, {"\\boxed{3/7}", "0.428571"},
      {"\\boxed{3}", "4"},     {"it is 41", "41"},    {"it is 41", "42"}};
  std::vector<std::string> seen;
  for (const auto& [text, reference] : inputs) {
    CAPTURE(text, reference);
    const VerifierResult r = check_numeric_answer(text, reference);
    seen.push_back(r.reason_code);
    std::string filled;
    for (const grpo::ReasonTemplate& t : grpo::verifier_reason_templates()) {
      if (r.reason_code == t.code) filled = t.english;
    }
    REQUIRE_FALSE(filled.empty());
    for (const auto& [name, value] : r.reason_params) {
      const std::string placeholder = "{" + name + "}";
      for (std::size_t at; (at = filled.find(placeholder)) != std::string::npos;) {
        filled.replace(at, placeholder.size(), value);
      }
    }
    CHECK(filled == r.reason);
  }
  // Each code is reached by one input above.
  for (const grpo::ReasonTemplate& t : grpo::verifier_reason_templates()) {
    CAPTURE(t.code);
    CHECK(std::count(seen.begin(), seen.end(), t.code) == 1);
  }
  const VerifierResult r = check_numeric_answer("Final: \\boxed{3/7}", "0.428571");
  CHECK(r.reason_code == "box_equal");
  CHECK(r.reason_params ==
        std::vector<std::pair<std::string, std::string>>{{"box", "\\boxed"},
                                                         {"content", "3/7"},
                                                         {"value", "0.428571428571"},
                                                         {"reference", "0.428571"}});
}

TEST_CASE("verifier: reference error messages say what is allowed", "[verifier]") {
  REQUIRE_THROWS_WITH(grpo::parse_reference("abc"),
                      Catch::StartsWith("reference: must be one number") &&
                          Catch::Contains("a/b or \\frac{a}{b}") && Catch::Contains("'abc'"));
  REQUIRE_THROWS_WITH(grpo::parse_reference("1/0"),
                      Catch::StartsWith("reference:") && Catch::Contains("denominator"));
  REQUIRE_THROWS_WITH(grpo::parse_reference("1e400"),
                      Catch::StartsWith("reference:") && Catch::Contains("finite"));
  // A huge reference is quoted shortly.
  const std::string long_bad(100000, 'x');
  try {
    grpo::parse_reference(long_bad);
    FAIL("expected InvalidArgument");
  } catch (const grpo::InvalidArgument& e) {
    CHECK(std::string(e.what()).size() < 400);
  }
}

TEST_CASE("verifier: status names", "[verifier]") {
  CHECK(std::string(status_name(grpo::VerifierStatus::Correct)) == "correct");
  CHECK(std::string(status_name(grpo::VerifierStatus::Incorrect)) == "incorrect");
  CHECK(std::string(status_name(grpo::VerifierStatus::NoAnswer)) == "no_answer");
  CHECK(std::string(status_name(grpo::VerifierStatus::Invalid)) == "invalid");
  CHECK(std::string(status_name(grpo::VerifierStatus::Truncated)) == "truncated");
}

TEST_CASE("verifier: megabyte inputs return a verdict", "[verifier]") {
  constexpr std::size_t kSize = 1 << 20;
  auto repeat = [](const std::string& unit, std::size_t bytes) {
    std::string s;
    s.reserve(bytes + unit.size());
    while (s.size() < bytes) s += unit;
    return s;
  };
  auto status = [](const std::string& text) {
    return std::string(status_name(check_numeric_answer(text, "1").status));
  };

  CHECK(status(std::string(kSize, '{')) == "no_answer");
  CHECK(status(std::string(kSize, '}')) == "no_answer");
  CHECK(status(repeat("\\boxed{", kSize)) == "invalid");
  CHECK(check_numeric_answer(repeat("\\boxed{", kSize), "1").rule == "unclosed_box");
  CHECK(status(repeat("\\boxed{", kSize) + "1" + std::string(kSize / 7 + 1, '}')) == "correct");
  CHECK(status(repeat("\\\\boxed{1}", kSize)) == "correct");
  CHECK(status(repeat("\\boxed ", kSize) + "1") == "correct");
  CHECK(status(repeat("\\frac{", kSize)) == "no_answer");
  CHECK(status(repeat("\\frac{1}{", kSize)) == "correct");
  CHECK(status(std::string(kSize, '1')) == "invalid");
  CHECK(check_numeric_answer(std::string(kSize, '9'), "1").rule == "non_finite");
  CHECK(status("0." + std::string(kSize, '0') + "1") == "incorrect");
  CHECK(status("1." + std::string(kSize, '0')) == "correct");
  CHECK(status("\\boxed{" + std::string(kSize, '9') + "}") == "invalid");
  CHECK(status(std::string(kSize, '-')) == "no_answer");
  CHECK(status(repeat("-1/", kSize)) == "correct");
  CHECK(status(repeat("1/", kSize) + " 1/0") == "invalid");
  CHECK(status(repeat("1,", kSize)) == "correct");
  // Thousands groups in free text: a megabyte of groups is one number, read once.
  CHECK(check_numeric_answer("1" + repeat(",000", kSize), "1").rule == "non_finite");
  CHECK(check_numeric_answer("-1" + repeat(",000", kSize) + ".5kg", "1").rule == "non_finite");
  CHECK(check_numeric_answer(repeat("1,000", kSize), "1").candidate == "000");
  CHECK(check_numeric_answer(repeat("1,00", kSize), "1").candidate == "00");
  CHECK(status(repeat("x1,000 ", kSize)) == "no_answer");
  CHECK(status(repeat("a1", kSize)) == "no_answer");
  CHECK(status(repeat("1e", kSize)) == "no_answer");
  CHECK(status(std::string(kSize, '.')) == "no_answer");
  CHECK(status(std::string(kSize, ' ')) == "no_answer");
  // The dataset notations: units, spaced and doubled fractions, wrappers peeled one by one.
  CHECK(status(repeat("5kg ", kSize)) == "incorrect");
  CHECK(status(repeat("5kg", kSize)) == "no_answer");  // kg5 runs into a digit: glued
  CHECK(status(repeat("1a", kSize)) == "no_answer");
  CHECK(status(repeat("1 / ", kSize)) == "correct");
  CHECK(status(repeat("1 / 2 ", kSize) + "1 / 0") == "invalid");
  CHECK(status(repeat("1 ", kSize) + "/ 1") == "correct");
  CHECK(status(repeat("\\\\frac", kSize)) == "no_answer");
  CHECK(status(repeat("\\\\frac{1}{", kSize)) == "correct");
  CHECK(status("\\boxed{" + repeat("**", kSize) + "1" + repeat("**", kSize) + "}") == "correct");
  std::string nested;
  for (std::size_t k = 0; k < kSize / 6; ++k) nested += "\\text{";
  CHECK(status("\\boxed{" + nested + "1" + std::string(kSize / 6, '}') + "}") == "correct");
  CHECK(status("\\boxed{1" + std::string(kSize, ' ') + "cm}") == "correct");
  CHECK(status("\\boxed{1" + repeat("\\,", kSize) + "cm}") == "correct");
  CHECK(status("\\boxed{1\\text{" + std::string(kSize, 'm') + "}}") == "correct");
  CHECK(status(repeat("$", kSize) + "1") == "correct");
}
