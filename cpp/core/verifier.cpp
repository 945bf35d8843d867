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

// Currency symbols that may stand directly before a number ($ is ASCII and no word anyway).
constexpr std::string_view kCurrencySymbols[] = {
    "\xE2\x82\xAC", "\xC2\xA3", "\xC2\xA5", "\xE2\x82\xBD", "\xE2\x82\xB9"};  // € £ ¥ ₽ ₹

// Length of a superscript digit or sign at `pos` (¹ ² ³, U+2070-U+209F), 0 when there is none:
// 5² is not the number 5.
std::size_t superscript_length_at(std::string_view s, std::size_t pos) {
  if (has_at(s, pos, "\xC2\xB2") || has_at(s, pos, "\xC2\xB3") || has_at(s, pos, "\xC2\xB9")) {
    return 2;
  }
  if (pos + 2 < s.size() && s[pos] == '\xE2') {
    const auto b1 = static_cast<unsigned char>(s[pos + 1]);
    const auto b2 = static_cast<unsigned char>(s[pos + 2]);
    if ((b1 == 0x81 && b2 >= 0xB0) || (b1 == 0x82 && b2 <= 0x9F)) return 3;
  }
  return 0;
}

// True when the character ending just before `pos` is a "word" character: an ASCII letter or
// digit, '_', '.', or a non-ASCII byte that is not part of U+2212 or of a currency symbol.
bool word_before(std::string_view s, std::size_t pos) {
  if (pos == 0) return false;
  const char p = s[pos - 1];
  if (is_alpha(p) || is_digit(p) || p == '_' || p == '.') return true;
  if (!is_non_ascii(p)) return false;
  if (pos >= 3 && has_at(s, pos - 3, kUnicodeMinus)) return false;
  for (const std::string_view symbol : kCurrencySymbols) {
    if (pos >= symbol.size() && has_at(s, pos - symbol.size(), symbol)) return false;
  }
  return true;
}

// A byte of a unit word: an ASCII letter or a non-ASCII byte (Cyrillic, °), except U+2212 and
// superscripts, which the caller checks at the start of each character.
bool unit_byte(std::string_view s, std::size_t pos) {
  return is_alpha(s[pos]) ||
         (is_non_ascii(s[pos]) && !has_at(s, pos, kUnicodeMinus) && !superscript_length_at(s, pos));
}

// End of the unit word starting at `pos` (pos itself when there is none).
std::size_t unit_word_end(std::string_view s, std::size_t pos) {
  while (pos < s.size() && unit_byte(s, pos)) ++pos;
  return pos;
}

// True when the text at `pos` glues a number that ends there into a word: a digit, '_', '.'
// followed by a digit, a superscript, or a run of letters that itself runs into one of those
// (0x1A, 5cm2). A run of letters that ends the word is a unit: 5kg, 12руб, 30° are numbers.
bool glued_after(std::string_view s, std::size_t pos) {
  if (pos >= s.size()) return false;
  const std::size_t end = unit_word_end(s, pos);
  if (end >= s.size()) return false;
  const char q = s[end];
  if (is_digit(q) || q == '_' || superscript_length_at(s, end)) return true;
  return q == '.' && end + 1 < s.size() && is_digit(s[end + 1]);
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

// Parses a Mantissa at `pos`; on success sets `end` past it. An integer part of 1-3 digits may
// continue with thousands groups ",ddd" of exactly three digits not followed by a digit (8,000
// 1,234,567); any other comma ends the number (3, 4 and 1,2,3 are lists; 1,0000 is 1 then 0000).
bool parse_mantissa(std::string_view s, std::size_t pos, Mantissa& m, std::size_t& end) {
  m = Mantissa{};
  m.int_begin = pos;
  std::size_t i = skip_digits(s, pos);
  if (i > pos && i - pos <= 3) {
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
  bool spaced_slash = false;  // a / b written with spaces around the slash
  bool percent = false;
};

// Length of the LaTeX command `name` (written with one backslash) at `pos`, also when its
// backslash is doubled as in JSON-escaped or Python-raw text (\\frac); 0 when it is not there.
std::size_t command_length(std::string_view s, std::size_t pos, std::string_view name) {
  if (has_at(s, pos, name)) return name.size();
  if (pos < s.size() && s[pos] == '\\' && has_at(s, pos + 1, name)) return name.size() + 1;
  return 0;
}

// Length of a \frac, \dfrac or \tfrac marker at `pos`, 0 when there is none.
std::size_t fraction_marker_length(std::string_view s, std::size_t pos) {
  for (const std::string_view marker : {"\\frac", "\\dfrac", "\\tfrac"}) {
    if (const std::size_t n = command_length(s, pos, marker)) return n;
  }
  return 0;
}

std::size_t skip_spaces(std::string_view s, std::size_t pos) {
  while (pos < s.size() && is_space(s[pos])) ++pos;
  return pos;
}

// Parses "{ [sign]mantissa }" (spaces allowed inside and before the brace) at `pos`.
bool parse_brace_argument(std::string_view s, std::size_t pos, Mantissa& m, bool& negative,
                          std::size_t& end) {
  std::size_t i = skip_spaces(s, pos);
  negative = false;
  if (i < s.size() && is_digit(s[i])) {  // TeX's \frac12: one digit per argument, no braces
    m = Mantissa{};
    m.int_begin = i;
    m.int_end = m.frac_begin = m.frac_end = m.exp_begin = m.exp_end = i + 1;
    end = i + 1;
    return true;
  }
  if (i >= s.size() || s[i] != '{') return false;
  i = skip_spaces(s, i + 1);
  if (const std::size_t sign = sign_length_at(s, i)) {
    negative = sign_is_negative(s, i);
    i += sign;
  }
  if (!parse_mantissa(s, i, m, i)) return false;
  i = skip_spaces(s, i);
  if (i >= s.size() || s[i] != '}') return false;
  end = i + 1;
  return true;
}

// Parses the unsigned body of a number at `pos` (the caller handles a leading sign): a
// mantissa with thousands groups, a / b (with spaces around the slash only when
// `spaced_slash`), \frac{a}{b}, then an optional % or \%. A box, the reference and free text
// share this one syntax.
bool parse_number_body(std::string_view s, std::size_t pos, bool spaced_slash, NumberToken& tok,
                       std::size_t& end) {
  tok = NumberToken{};
  tok.begin = pos;
  std::size_t i = pos;
  if (const std::size_t marker = fraction_marker_length(s, pos)) {
    bool num_negative = false, den_negative = false;
    if (!parse_brace_argument(s, pos + marker, tok.numerator, num_negative, i) ||
        !parse_brace_argument(s, i, tok.denominator, den_negative, i)) {
      return false;
    }
    tok.negative = num_negative != den_negative;
    tok.has_denominator = true;
    tok.latex_fraction = true;
  } else {
    if (!parse_mantissa(s, i, tok.numerator, i)) return false;
    const std::size_t slash = spaced_slash ? skip_spaces(s, i) : i;
    if (slash + 1 < s.size() && s[slash] == '/') {
      const std::size_t den_begin = spaced_slash ? skip_spaces(s, slash + 1) : slash + 1;
      std::size_t den_end = 0;
      if (parse_mantissa(s, den_begin, tok.denominator, den_end)) {
        tok.has_denominator = true;
        tok.spaced_slash = slash != i || den_begin != slash + 1;
        i = den_end;
      }
    }
  }
  if (i < s.size() && s[i] == '%') {
    tok.percent = true;
    i += 1;
  } else if (const std::size_t n = command_length(s, i, "\\%")) {
    tok.percent = true;
    i += n;
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

// Spaces a unit may follow: whitespace and LaTeX's \, \; \: \! \  and ~.
std::size_t skip_unit_spaces(std::string_view s, std::size_t pos) {
  while (pos < s.size()) {
    if (is_space(s[pos]) || s[pos] == '~') {
      ++pos;
      continue;
    }
    std::size_t n = 0;
    for (const std::string_view space : {"\\,", "\\;", "\\:", "\\!", "\\ "}) {
      if ((n = command_length(s, pos, space))) break;
    }
    if (!n) break;
    pos += n;
  }
  return pos;
}

// End of the braced text of a unit command at `pos` (\text{ cm}): letters, spaces and '.' up
// to '}', or `pos` when the text holds anything else.
std::size_t unit_text_end(std::string_view s, std::size_t pos) {
  std::size_t i = pos;
  while (i < s.size() && (unit_byte(s, i) || is_space(s[i]) || s[i] == '.')) ++i;
  return i < s.size() && s[i] == '}' ? i + 1 : pos;
}

// End of a degree sign written in LaTeX at `pos` (^\circ, ^{\circ}, \circ; °C follows as a
// word), `pos` when there is none.
std::size_t degrees_end(std::string_view s, std::size_t pos) {
  std::size_t i = pos;
  const bool caret = has_at(s, i, "^");
  if (caret) ++i;
  const bool brace = caret && has_at(s, i, "{");
  if (brace) ++i;
  const std::size_t n = command_length(s, i, "\\circ");
  if (!n) return pos;
  i += n;
  if (brace) {
    if (!has_at(s, i, "}")) return pos;
    ++i;
  }
  return unit_word_end(s, i);
}

// End of one unit at `pos`: degrees, \text{...} / \mathrm{...} / \mbox{...} of letters, or a
// word of letters (cm, kg, руб, °); `pos` when there is none.
std::size_t unit_end(std::string_view s, std::size_t pos) {
  if (const std::size_t end = degrees_end(s, pos); end != pos) return end;
  for (const std::string_view command : {"\\text{", "\\mathrm{", "\\mbox{"}) {
    if (const std::size_t n = command_length(s, pos, command)) {
      const std::size_t end = unit_text_end(s, pos + n);
      return end == pos + n ? pos : end;
    }
  }
  return unit_word_end(s, pos);
}

// Peels one wrapper that encloses all of `s` (already trimmed): **x**, __x__, *x*, $x$, \(x\),
// \text{x}, \textbf{x}, \mathrm{x}, \mathbf{x}, \mbox{x}. Each peel removes at least two bytes,
// so peeling down to the number is linear.
bool peel_wrapper(std::string_view& s) {
  static constexpr std::string_view kPairs[][2] = {
      {"**", "**"}, {"__", "__"}, {"*", "*"}, {"$", "$"}, {"\\(", "\\)"}, {"\\\\(", "\\\\)"}};
  for (const auto& pair : kPairs) {
    const std::string_view open = pair[0], close = pair[1];
    if (s.size() > open.size() + close.size() && has_at(s, 0, open) &&
        has_at(s, s.size() - close.size(), close)) {
      s = trim(s.substr(open.size(), s.size() - open.size() - close.size()));
      return true;
    }
  }
  for (const std::string_view command :
       {"\\text{", "\\textbf{", "\\mathrm{", "\\mathbf{", "\\mbox{"}) {
    const std::size_t n = command_length(s, 0, command);
    if (n && s.size() > n && s.back() == '}') {
      s = trim(s.substr(n, s.size() - n - 1));
      return true;
    }
  }
  return false;
}

// Length of a currency sign at `pos` ($, \$, € £ ¥ ₽ ₹), 0 when there is none.
std::size_t currency_length_at(std::string_view s, std::size_t pos) {
  if (has_at(s, pos, "$")) return 1;
  if (const std::size_t n = command_length(s, pos, "\\$")) return n;
  for (const std::string_view symbol : kCurrencySymbols) {
    if (has_at(s, pos, symbol)) return symbol.size();
  }
  return 0;
}

// The whole of `s` as one answer, the syntax shared by a box's content and the reference:
// wrappers peeled (**73**, \text{13}), then [sign] [currency] number [% | unit] with thousands
// groups, LaTeX fractions and a / b. On success `number_text` is the peeled text the token's
// positions refer to.
bool parse_answer(std::string_view s, NumberToken& tok, std::string_view& number_text) {
  s = trim(s);
  while (peel_wrapper(s)) {
  }
  std::size_t i = 0;
  bool negative = false;
  if (const std::size_t sign = sign_length_at(s, i)) {
    negative = sign_is_negative(s, i);
    i += sign;
  }
  if (const std::size_t currency = currency_length_at(s, i)) {
    i += currency;
    if (i == currency) {  // a sign may follow a leading currency: $-5
      if (const std::size_t sign = sign_length_at(s, i)) {
        negative = sign_is_negative(s, i);
        i += sign;
      }
    }
  }
  std::size_t end = 0;
  if (!parse_number_body(s, i, true, tok, end)) return false;
  if (!tok.percent && end < s.size()) {
    const std::size_t unit_begin = skip_unit_spaces(s, end);
    const std::size_t unit = unit_end(s, unit_begin);
    if (unit == unit_begin) return false;  // something after the number that is not a unit
    end = unit;
  }
  if (end != s.size()) return false;
  tok.begin = 0;
  tok.end = end;
  tok.negative = tok.negative != negative;
  number_text = s;
  return true;
}

// A prefix of `s` for a reason sentence: at most kQuoteLimit bytes, cut before a UTF-8
// continuation byte, never inside a character (the reason must stay valid UTF-8 or the JSON
// API could not print it: found by fuzz/fuzz_verifier), "... (N bytes)" when cut.
std::string clip(std::string_view s) {
  if (s.size() <= kQuoteLimit) return std::string(s);
  std::size_t cut = kQuoteLimit;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return std::string(s.substr(0, cut)) + "... (" + std::to_string(s.size()) + " bytes)";
}

// A quoted prefix for an error message: 'abc', or 'abc... (12345 bytes)' when cut.
std::string quote(std::string_view s) {
  if (s.size() <= kQuoteLimit) return "'" + std::string(s) + "'";
  return "'" + clip(s) + "'";
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
    if (!parse_number_body(s, i, true, tok, end)) {
      ++i;  // a \frac that is not a numeric fraction: keep scanning inside it
      continue;
    }
    bool glued = (digit_start && word_before(s, i)) || (!tok.percent && glued_after(s, end));
    if (glued && tok.spaced_slash && !word_before(s, i)) {
      // "3 / 7y": the fraction is glued, the 3 alone is not. Re-reads only the numerator: still
      // linear.
      parse_number_body(s, i, false, tok, end);
      glued = !tok.percent && glued_after(s, end);
    }
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

std::string reference_syntax_message(std::string_view reference) {
  return "reference: must be one number (integer, decimal, a/b or \\frac{a}{b}, with optional "
         "sign, exponent, thousands groups such as 8,000, % or a unit), got " +
         quote(reference);
}

using Params = std::vector<std::pair<std::string, std::string>>;

// Fills {name} placeholders of an English template from `params` (one pass: a parameter's
// text is never read as a placeholder).
std::string fill_template(std::string_view text, const Params& params) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t open = text.find('{', i);
    const std::size_t close = open == std::string_view::npos ? open : text.find('}', open);
    if (close == std::string_view::npos) break;
    out.append(text.substr(i, open - i));
    const std::string_view name = text.substr(open + 1, close - open - 1);
    bool filled = false;
    for (const auto& [key, value] : params) {
      if (key == name) {
        out += value;
        filled = true;
        break;
      }
    }
    if (!filled) out.append(text.substr(open, close - open + 1));
    i = close + 1;
  }
  out.append(text.substr(i));
  return out;
}

const std::string& english_template(std::string_view code) {
  static const std::vector<std::pair<std::string, std::string>> kTexts = [] {
    std::vector<std::pair<std::string, std::string>> texts;
    for (const ReasonTemplate& t : verifier_reason_templates())
      texts.emplace_back(t.code, t.english);
    return texts;
  }();
  for (const auto& [name, text] : kTexts) {
    if (name == code) return text;
  }
  static const std::string kUnknown;
  return kUnknown;
}

// Sets the reason as a code, its parameters and the English sentence they make.
void set_reason(VerifierResult& result, const char* code, Params params) {
  result.reason_code = code;
  result.reason = fill_template(english_template(code), params);
  result.reason_params = std::move(params);
}

}  // namespace

const std::vector<ReasonTemplate>& verifier_reason_templates() {
  // {box} is \boxed or \fbox; {content} and {candidate} are clipped to 60 bytes; {value} and
  // {reference} have 12 significant digits. The page's dictionaries hold the same codes
  // (web/js/i18n/: verifier.reason.<code>); a Node test checks the English texts are equal.
  static const std::vector<ReasonTemplate> kTemplates = {
      {"unclosed_box",
       "The last {box}{ never closes with a matching '}', so the answer is invalid; numbers "
       "outside a box are not used."},
      {"empty_box",
       "The last {box}{} is empty, so the answer is invalid; numbers outside the box are not "
       "used."},
      {"box_not_number",
       "The last {box}{...} holds '{content}', which is not a single number, so the answer is "
       "invalid; numbers outside the box are not used."},
      {"no_number",
       "The text has no \\boxed{...} and no standalone number, so there is no answer to check."},
      {"box_zero_denominator",
       "The last {box}{...} holds '{content}', a fraction with a zero denominator, so the answer "
       "is invalid; an earlier number is not used."},
      {"text_zero_denominator",
       "The last number in the text is '{candidate}', a fraction with a zero denominator, so the "
       "answer is invalid; an earlier number is not used."},
      {"box_non_finite",
       "The last {box}{...} holds '{content}', whose value is too large to represent (not "
       "finite), so the answer is invalid; an earlier number is not used."},
      {"text_non_finite",
       "The last number in the text is '{candidate}', whose value is too large to represent (not "
       "finite), so the answer is invalid; an earlier number is not used."},
      {"box_equal",
       "The last {box}{...} holds '{content}' = {value}, which equals the reference {reference}"
       " within 1e-6 * max(1, |reference|)."},
      {"box_differs",
       "The last {box}{...} holds '{content}' = {value}, which differs from the reference "
       "{reference} by more than 1e-6 * max(1, |reference|)."},
      {"text_equal",
       "The last number in the text is '{candidate}' = {value}, which equals the reference "
       "{reference} within 1e-6 * max(1, |reference|)."},
      {"text_differs",
       "The last number in the text is '{candidate}' = {value}, which differs from the reference "
       "{reference} by more than 1e-6 * max(1, |reference|)."},
  };
  return kTemplates;
}

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
  NumberToken tok;
  std::string_view number_text;
  require(parse_answer(reference, tok, number_text),
          [&] { return reference_syntax_message(reference); });
  double value = 0.0;
  switch (evaluate(number_text, tok, value)) {
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
  Params where;             // {box, content} or {candidate}
  const char* source_name = "text";
  const BoxSearch box = find_last_box(text);
  if (box.found) {
    const std::string_view raw =
        text.substr(box.content_begin, box.content_end - box.content_begin);
    where = {{"box", std::string(box.marker)}};
    if (!box.closed) {
      result.status = VerifierStatus::Invalid;
      result.rule = "unclosed_box";
      result.candidate = std::string(raw);
      set_reason(result, "unclosed_box", where);
      return result;
    }
    const std::string_view content = trim(raw);
    result.candidate = std::string(content);
    if (content.empty()) {
      result.status = VerifierStatus::Invalid;
      result.rule = "empty_box";
      set_reason(result, "empty_box", where);
      return result;
    }
    where.emplace_back("content", clip(content));
    if (!parse_answer(content, tok, source)) {
      result.status = VerifierStatus::Invalid;
      result.rule = "box_not_number";
      set_reason(result, "box_not_number", where);
      return result;
    }
    result.rule = "last_box";
    source_name = "box";
  } else {
    if (!find_last_number(text, tok)) {
      result.status = VerifierStatus::NoAnswer;
      result.rule = "no_number";
      set_reason(result, "no_number", {});
      return result;
    }
    source = text;
    result.candidate = std::string(text.substr(tok.begin, tok.end - tok.begin));
    result.rule = "last_number";
    where = {{"candidate", clip(result.candidate)}};
  }
  const std::string prefix = std::string(source_name) + "_";

  double value = 0.0;
  switch (evaluate(source, tok, value)) {
    case NumberCheck::ZeroDenominator:
      result.status = VerifierStatus::Invalid;
      result.rule = "zero_denominator";
      set_reason(result, (prefix + "zero_denominator").c_str(), where);
      return result;
    case NumberCheck::NonFinite:
      result.status = VerifierStatus::Invalid;
      result.rule = "non_finite";
      set_reason(result, (prefix + "non_finite").c_str(), where);
      return result;
    case NumberCheck::Ok:
      break;
  }
  result.value = value;
  result.has_value = true;
  const bool equal = std::fabs(value - ref) <= kTolerance * std::fmax(1.0, std::fabs(ref));
  result.status = equal ? VerifierStatus::Correct : VerifierStatus::Incorrect;
  result.accuracy = equal ? 1 : 0;
  where.emplace_back("value", display_number(value));
  where.emplace_back("reference", display_number(ref));
  set_reason(result, (prefix + (equal ? "equal" : "differs")).c_str(), where);
  return result;
}

int verify_numeric_answer(std::string_view text, std::string_view reference) {
  return check_numeric_answer(text, reference).accuracy;
}

}  // namespace grpo
