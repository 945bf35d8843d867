// Section 1: the numeric answer verifier (box / last-number extraction, rules in docs/verifier.md).
#include "core/verifier.h"

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/errors.h"

namespace grpo {
namespace {

// All scans below are single forward passes (or two: find the last box, then match its braces),
// with no recursion, so the cost is linear in the input and the stack use is constant.

constexpr double kTolerance = 1e-6;             // |cand - ref| <= kTolerance * max(1, |ref|)
constexpr std::size_t kSignificantDigits = 40;  // digits kept when converting a mantissa
constexpr std::size_t kQuoteLimit = 60;         // longest text quoted in a reason or an error
const char kUnicodeMinus[] = "\xE2\x88\x92";    // U+2212 MINUS SIGN in UTF-8

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
bool is_non_ascii(char c) {
  return static_cast<unsigned char>(c) >= 0x80;
}

bool has_at(std::string_view s, std::size_t pos, std::string_view literal) {
  return pos <= s.size() && s.size() - pos >= literal.size() &&
         s.substr(pos, literal.size()) == literal;
}

// Length of the sign character at `pos` ('-', '+' or U+2212), 0 when there is none.
std::size_t sign_length_at(std::string_view s, std::size_t pos) {
  if (pos >= s.size()) return 0;
  if (s[pos] == '-' || s[pos] == '+') return 1;
  if (has_at(s, pos, kUnicodeMinus)) return 3;
  return 0;
}

bool sign_is_negative(std::string_view s, std::size_t pos) {
  return s[pos] != '+';
}

// True when the character ending just before `pos` is a "word" character: an ASCII letter or
// digit, '_', '.', or a non-ASCII byte that is not part of U+2212.
bool word_before(std::string_view s, std::size_t pos) {
  if (pos == 0) return false;
  const char p = s[pos - 1];
  if (is_alpha(p) || is_digit(p) || p == '_' || p == '.') return true;
  if (is_non_ascii(p)) return !(pos >= 3 && has_at(s, pos - 3, kUnicodeMinus));
  return false;
}

// True when the text at `pos` glues a word onto a number that ends there: an ASCII letter or
// digit, '_', '.' followed by a digit, or a non-ASCII byte that does not start U+2212.
bool word_after(std::string_view s, std::size_t pos) {
  if (pos >= s.size()) return false;
  const char q = s[pos];
  if (is_alpha(q) || is_digit(q) || q == '_') return true;
  if (q == '.') return pos + 1 < s.size() && is_digit(s[pos + 1]);
  if (is_non_ascii(q)) return !has_at(s, pos, kUnicodeMinus);
  return false;
}

// A sign belongs to a number only after the start of the text, whitespace or ( [ { = : , ; $.
bool sign_context_before(std::string_view s, std::size_t sign_pos) {
  if (sign_pos == 0) return true;
  const char p = s[sign_pos - 1];
  if (is_space(p)) return true;
  switch (p) {
    case '(':
    case '[':
    case '{':
    case '=':
    case ':':
    case ',':
    case ';':
    case '$':
      return true;
    default:
      return false;
  }
}

// An unsigned decimal: digits [. digits] or . digits, optional exponent e[+-]digits. Stored as
// positions into the parsed text so nothing is copied until the one conversion that matters.
struct Mantissa {
  std::size_t int_begin = 0, int_end = 0;    // integer digits (may hold ',' group separators)
  std::size_t frac_begin = 0, frac_end = 0;  // digits after the point
  std::size_t exp_begin = 0, exp_end = 0;    // exponent digits (without sign)
  bool exp_negative = false;
};

std::size_t skip_digits(std::string_view s, std::size_t pos) {
  while (pos < s.size() && is_digit(s[pos])) ++pos;
  return pos;
}

// Parses a Mantissa at `pos`; on success sets `end` past it. With `allow_groups`, an integer
// part of 1-3 digits may continue with groups ",ddd" of exactly three digits (8,000 1,234,567).
bool parse_mantissa(std::string_view s, std::size_t pos, bool allow_groups, Mantissa& m,
                    std::size_t& end) {
  m = Mantissa{};
  m.int_begin = pos;
  std::size_t i = skip_digits(s, pos);
  if (allow_groups && i > pos && i - pos <= 3) {
    while (i + 3 < s.size() && s[i] == ',' && is_digit(s[i + 1]) && is_digit(s[i + 2]) &&
           is_digit(s[i + 3]) && !(i + 4 < s.size() && is_digit(s[i + 4]))) {
      i += 4;
    }
  }
  m.int_end = i;
  m.frac_begin = m.frac_end = i;
  if (i < s.size() && s[i] == '.' && i + 1 < s.size() && is_digit(s[i + 1])) {
    m.frac_begin = i + 1;
    m.frac_end = skip_digits(s, i + 1);
    i = m.frac_end;
  }
  if (m.int_end == m.int_begin && m.frac_end == m.frac_begin) return false;
  m.exp_begin = m.exp_end = i;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    std::size_t j = i + 1;
    bool negative = false;
    if (j < s.size() && (s[j] == '+' || s[j] == '-')) {
      negative = s[j] == '-';
      ++j;
    }
    if (j < s.size() && is_digit(s[j])) {
      m.exp_begin = j;
      m.exp_end = skip_digits(s, j);
      m.exp_negative = negative;
      i = m.exp_end;
    }
  }
  end = i;
  return true;
}

struct MantissaValue {
  double value = 0.0;
  bool zero = true;  // every digit is 0 (mathematically zero, not an underflow)
};

// Converts a Mantissa in O(length) with a bounded buffer: keeps the first kSignificantDigits
// significant digits (plus a sticky 1 when nonzero digits were dropped) and a saturated decimal
// exponent, then calls strtod once on "<digits>e<exp>" (no decimal point: locale-independent).
MantissaValue mantissa_value(std::string_view s, const Mantissa& m) {
  std::string digits;
  digits.reserve(kSignificantDigits + 1);
  bool sticky = false;
  long long point = 0;  // decimal exponent of the first kept digit, counted from the point
  bool started = false;
  auto take = [&](char c, bool integer_part) {
    if (!started) {
      if (c == '0') {
        if (!integer_part) --point;  // leading zeros after the point shift the value down
        return;
      }
      started = true;
    }
    if (integer_part) ++point;
    if (digits.size() < kSignificantDigits) {
      digits.push_back(c);
    } else if (c != '0') {
      sticky = true;
    }
  };
  for (std::size_t i = m.int_begin; i < m.int_end; ++i) {
    if (is_digit(s[i])) take(s[i], true);
  }
  for (std::size_t i = m.frac_begin; i < m.frac_end; ++i) take(s[i], false);
  MantissaValue out;
  if (!started) return out;  // all zeros
  out.zero = false;
  constexpr long long kExponentCap = 1000000000000LL;
  long long exponent = 0;
  for (std::size_t i = m.exp_begin; i < m.exp_end; ++i) {
    if (exponent < kExponentCap) exponent = exponent * 10 + (s[i] - '0');
  }
  if (m.exp_negative) exponent = -exponent;
  if (sticky) digits.push_back('1');
  // value = 0.<digits> * 10^(point + exponent) = <digits> * 10^(point + exponent - ndigits)
  const long long scale = point + exponent;
  if (scale > 400) {
    out.value = HUGE_VAL;
  } else if (scale < -400) {
    out.value = 0.0;
  } else {
    const long long e10 = scale - static_cast<long long>(digits.size());
    digits += 'e';
    digits += std::to_string(e10);
    out.value = std::strtod(digits.c_str(), nullptr);
  }
  return out;
}

enum class NumberCheck { Ok, ZeroDenominator, NonFinite };

// One parsed number: [sign] ( \frac{[sign]a}{[sign]b} | a | a/b ) [% or \%].
struct NumberToken {
  std::size_t begin = 0, end = 0;  // the whole token, sign and percent included
  bool negative = false;           // product of all signs
  Mantissa numerator, denominator;
  bool has_denominator = false;
  bool latex_fraction = false;
  bool percent = false;
};

struct NumberSyntax {
  bool allow_groups = false;          // thousands groups 8,000 (box and reference only)
  bool allow_latex_fraction = false;  // \frac{a}{b}, \dfrac{a}{b}, \tfrac{a}{b}
  bool allow_percent = false;         // trailing % or \%
};

// Length of a \frac, \dfrac or \tfrac marker at `pos`, 0 when there is none.
std::size_t fraction_marker_length(std::string_view s, std::size_t pos) {
  if (has_at(s, pos, "\\frac")) return 5;
  if (has_at(s, pos, "\\dfrac") || has_at(s, pos, "\\tfrac")) return 6;
  return 0;
}

std::size_t skip_spaces(std::string_view s, std::size_t pos) {
  while (pos < s.size() && is_space(s[pos])) ++pos;
  return pos;
}

// Parses "{ [sign]mantissa }" (spaces allowed inside and before the brace) at `pos`.
bool parse_brace_argument(std::string_view s, std::size_t pos, bool allow_groups, Mantissa& m,
                          bool& negative, std::size_t& end) {
  std::size_t i = skip_spaces(s, pos);
  if (i >= s.size() || s[i] != '{') return false;
  i = skip_spaces(s, i + 1);
  negative = false;
  if (const std::size_t sign = sign_length_at(s, i)) {
    negative = sign_is_negative(s, i);
    i += sign;
  }
  if (!parse_mantissa(s, i, allow_groups, m, i)) return false;
  i = skip_spaces(s, i);
  if (i >= s.size() || s[i] != '}') return false;
  end = i + 1;
  return true;
}

// Parses the unsigned body of a number at `pos` (the caller handles a leading sign).
bool parse_number_body(std::string_view s, std::size_t pos, const NumberSyntax& syntax,
                       NumberToken& tok, std::size_t& end) {
  tok = NumberToken{};
  tok.begin = pos;
  std::size_t i = pos;
  if (const std::size_t marker = syntax.allow_latex_fraction ? fraction_marker_length(s, pos) : 0) {
    bool num_negative = false, den_negative = false;
    if (!parse_brace_argument(s, pos + marker, syntax.allow_groups, tok.numerator, num_negative,
                              i)) {
      return false;
    }
    if (!parse_brace_argument(s, i, syntax.allow_groups, tok.denominator, den_negative, i)) {
      return false;
    }
    tok.negative = num_negative != den_negative;
    tok.has_denominator = true;
    tok.latex_fraction = true;
  } else {
    if (!parse_mantissa(s, i, syntax.allow_groups, tok.numerator, i)) return false;
    if (i + 1 < s.size() && s[i] == '/') {
      std::size_t den_end = 0;
      if (parse_mantissa(s, i + 1, syntax.allow_groups, tok.denominator, den_end)) {
        tok.has_denominator = true;
        i = den_end;
      }
    }
  }
  if (syntax.allow_percent) {
    if (i < s.size() && s[i] == '%') {
      tok.percent = true;
      i += 1;
    } else if (has_at(s, i, "\\%")) {
      tok.percent = true;
      i += 2;
    }
  }
  tok.end = end = i;
  return true;
}

// Value of a parsed token; a zero denominator or a non-finite value is no number.
NumberCheck evaluate(std::string_view s, const NumberToken& tok, double& value) {
  const MantissaValue num = mantissa_value(s, tok.numerator);
  double v = num.value;
  if (tok.has_denominator) {
    const MantissaValue den = mantissa_value(s, tok.denominator);
    if (den.zero) return NumberCheck::ZeroDenominator;
    if (num.zero) {
      v = 0.0;
    } else if (den.value == 0.0) {
      return NumberCheck::NonFinite;  // denominator underflowed: the quotient is huge
    } else {
      v = num.value / den.value;
    }
  }
  if (!std::isfinite(v)) return NumberCheck::NonFinite;
  if (tok.negative) v = -v;
  value = v;
  return NumberCheck::Ok;
}

std::string_view trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && is_space(s[b])) ++b;
  while (e > b && is_space(s[e - 1])) --e;
  return s.substr(b, e - b);
}

// The whole of `s` as one number (sign, body, optional percent), or false.
bool parse_whole_number(std::string_view s, const NumberSyntax& syntax, NumberToken& tok) {
  std::size_t i = 0;
  bool negative = false;
  if (const std::size_t sign = sign_length_at(s, 0)) {
    negative = sign_is_negative(s, 0);
    i = sign;
  }
  std::size_t end = 0;
  if (!parse_number_body(s, i, syntax, tok, end) || end != s.size()) return false;
  tok.begin = 0;
  tok.negative = tok.negative != negative;
  return true;
}

std::string quote(std::string_view s) {
  if (s.size() <= kQuoteLimit) return "'" + std::string(s) + "'";
  // Cut before a UTF-8 continuation byte, never inside a character: the reason must stay valid
  // UTF-8 or the JSON API could not print it (found by fuzz/fuzz_verifier).
  std::size_t cut = kQuoteLimit;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return "'" + std::string(s.substr(0, cut)) + "...' (" + std::to_string(s.size()) + " bytes)";
}

// The last box: the marker (\boxed or \fbox) that starts last among those followed by optional
// whitespace and '{'.
struct BoxSearch {
  bool found = false;
  bool closed = false;
  std::string_view marker;        // "\\boxed" or "\\fbox"
  std::size_t content_begin = 0;  // just after '{'
  std::size_t content_end = 0;    // at the matching '}' (or the end of the text when unclosed)
};

BoxSearch find_last_box(std::string_view s) {
  BoxSearch box;
  const std::size_t n = s.size();
  std::size_t i = 0;
  while (i < n) {
    i = s.find('\\', i);  // memchr: texts without backslashes are skipped quickly
    if (i == std::string_view::npos) break;
    std::size_t j = 0;
    std::string_view marker;
    if (has_at(s, i + 1, "boxed")) {
      j = i + 6;
      marker = "\\boxed";
    } else if (has_at(s, i + 1, "fbox")) {
      j = i + 5;
      marker = "\\fbox";
    } else {
      ++i;
      continue;
    }
    j = skip_spaces(s, j);
    if (j < n && s[j] == '{') {
      box.found = true;
      box.marker = marker;
      box.content_begin = j + 1;
    }
    i = j;  // everything before j belongs to this marker; no position is visited twice
  }
  if (!box.found) return box;
  std::size_t depth = 1;
  for (std::size_t k = box.content_begin; k < n; ++k) {
    if (s[k] == '{') {
      ++depth;
    } else if (s[k] == '}' && --depth == 0) {
      box.closed = true;
      box.content_end = k;
      return box;
    }
  }
  box.content_end = n;
  return box;
}

// The last number token of free text, glued tokens skipped; false when there is none.
bool find_last_number(std::string_view s, NumberToken& last) {
  NumberSyntax syntax;
  syntax.allow_groups = false;
  syntax.allow_latex_fraction = true;
  syntax.allow_percent = true;
  const std::size_t n = s.size();
  bool found = false;
  std::size_t i = 0;
  while (i < n) {
    const char c = s[i];
    const bool digit_start = is_digit(c) || (c == '.' && i + 1 < n && is_digit(s[i + 1]));
    const bool latex_start = c == '\\' && fraction_marker_length(s, i) > 0;
    if (!digit_start && !latex_start) {
      ++i;
      continue;
    }
    NumberToken tok;
    std::size_t end = 0;
    if (!parse_number_body(s, i, syntax, tok, end)) {
      ++i;  // a \frac that is not a numeric fraction: keep scanning inside it
      continue;
    }
    const bool glued = (digit_start && word_before(s, i)) || (!tok.percent && word_after(s, end));
    if (!glued) {
      // Attach a sign written directly before the number, in a context where it is a sign.
      std::size_t sign_pos = i;
      if (i >= 1 && (s[i - 1] == '-' || s[i - 1] == '+')) {
        sign_pos = i - 1;
      } else if (i >= 3 && has_at(s, i - 3, kUnicodeMinus)) {
        sign_pos = i - 3;
      }
      if (sign_pos != i && sign_context_before(s, sign_pos)) {
        tok.begin = sign_pos;
        if (sign_is_negative(s, sign_pos)) tok.negative = !tok.negative;
      }
      last = tok;
      found = true;
    }
    i = end;  // the whole token (accepted or glued) is consumed
  }
  return found;
}

// A number for a reason sentence: 12 significant digits (3/7 -> 0.428571428571), one snprintf.
std::string display_number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.12g", value);
  return buffer;
}

std::string comparison_sentence(double ref, bool equal) {
  if (equal) {
    return ", which equals the reference " + display_number(ref) +
           " within 1e-6 * max(1, |reference|).";
  }
  return ", which differs from the reference " + display_number(ref) +
         " by more than 1e-6 * max(1, |reference|).";
}

std::string reference_syntax_message(std::string_view reference) {
  return "reference: must be a number (integer, decimal, or fraction a/b, with optional sign, "
         "exponent and thousands groups such as 8,000), got " +
         quote(reference);
}

}  // namespace

const char* status_name(VerifierStatus status) {
  switch (status) {
    case VerifierStatus::Correct:
      return "correct";
    case VerifierStatus::Incorrect:
      return "incorrect";
    case VerifierStatus::NoAnswer:
      return "no_answer";
    case VerifierStatus::Invalid:
      return "invalid";
    case VerifierStatus::Truncated:
      return "truncated";
  }
  return "unknown";
}

double parse_reference(std::string_view reference) {
  const std::string_view text = trim(reference);
  NumberSyntax syntax;
  syntax.allow_groups = true;
  NumberToken tok;
  require(!text.empty() && parse_whole_number(text, syntax, tok),
          [&] { return reference_syntax_message(reference); });
  double value = 0.0;
  switch (evaluate(text, tok, value)) {
    case NumberCheck::Ok:
      return value;
    case NumberCheck::ZeroDenominator:
      throw InvalidArgument("reference: the denominator of a fraction must not be zero, got " +
                            quote(reference));
    case NumberCheck::NonFinite:
      break;
  }
  throw InvalidArgument(
      "reference: must be a finite number (its magnitude must stay below "
      "about 1.8e308), got " +
      quote(reference));
}

VerifierResult check_numeric_answer(std::string_view text, std::string_view reference) {
  const double ref = parse_reference(reference);
  VerifierResult result;

  NumberToken tok;
  std::string_view source;  // the text the token positions refer to
  std::string where;        // "The last \boxed{...} holds" / "The last number in the text is"
  const BoxSearch box = find_last_box(text);
  if (box.found) {
    const std::string box_name = std::string(box.marker) + "{...}";
    const std::string_view raw =
        text.substr(box.content_begin, box.content_end - box.content_begin);
    if (!box.closed) {
      result.status = VerifierStatus::Invalid;
      result.rule = "unclosed_box";
      result.candidate = std::string(raw);
      result.reason = "The last " + std::string(box.marker) +
                      "{ never closes with a matching '}', so the answer is invalid; numbers "
                      "outside a box are not used.";
      return result;
    }
    const std::string_view content = trim(raw);
    result.candidate = std::string(content);
    if (content.empty()) {
      result.status = VerifierStatus::Invalid;
      result.rule = "empty_box";
      result.reason = "The last " + std::string(box.marker) +
                      "{} is empty, so the answer is invalid; numbers outside the box are not "
                      "used.";
      return result;
    }
    NumberSyntax syntax;
    syntax.allow_groups = true;
    syntax.allow_latex_fraction = true;
    syntax.allow_percent = true;
    if (!parse_whole_number(content, syntax, tok)) {
      result.status = VerifierStatus::Invalid;
      result.rule = "box_not_number";
      result.reason = "The last " + box_name + " holds " + quote(content) +
                      ", which is not a single number, so the answer is invalid; numbers "
                      "outside the box are not used.";
      return result;
    }
    source = content;
    result.rule = "last_box";
    where = "The last " + box_name + " holds " + quote(content);
  } else {
    if (!find_last_number(text, tok)) {
      result.status = VerifierStatus::NoAnswer;
      result.rule = "no_number";
      result.reason =
          "The text has no \\boxed{...} and no standalone number, so there is no answer to check.";
      return result;
    }
    source = text;
    result.candidate = std::string(text.substr(tok.begin, tok.end - tok.begin));
    result.rule = "last_number";
    where = "The last number in the text is " + quote(result.candidate);
  }

  double value = 0.0;
  switch (evaluate(source, tok, value)) {
    case NumberCheck::ZeroDenominator:
      result.status = VerifierStatus::Invalid;
      result.rule = "zero_denominator";
      result.reason = where +
                      ", a fraction with a zero denominator, so the answer is invalid; an "
                      "earlier number is not used.";
      return result;
    case NumberCheck::NonFinite:
      result.status = VerifierStatus::Invalid;
      result.rule = "non_finite";
      result.reason = where +
                      ", whose value is too large to represent (not finite), so the answer is "
                      "invalid; an earlier number is not used.";
      return result;
    case NumberCheck::Ok:
      break;
  }
  result.value = value;
  result.has_value = true;
  const bool equal = std::fabs(value - ref) <= kTolerance * std::fmax(1.0, std::fabs(ref));
  result.status = equal ? VerifierStatus::Correct : VerifierStatus::Incorrect;
  result.accuracy = equal ? 1 : 0;
  result.reason = where + " = " + display_number(value) + comparison_sentence(ref, equal);
  return result;
}

int verify_numeric_answer(std::string_view text, std::string_view reference) {
  return check_numeric_answer(text, reference).accuracy;
}

}  // namespace grpo
