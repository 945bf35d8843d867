// The rewrite task: the arithmetic task's prompts, answered by another expression of the same
// value, so a prompt has several right answers ("3+4=": "5+2", "9-2", "7+0", ... 11 of them;
// issue 23's clip-higher lesson, where DAPO's argument is about alternatives that stay in play).
#pragma once

#include <string>
#include <vector>

#include "rl/arithmetic_task.h"
#include "rl/rng.h"
#include "rl/task.h"

namespace grpo {

// The right answers to `prompt`: every "c+d" and "c-d" of single digits whose value is the
// prompt's, sums first (c ascending), then differences (c ascending). 11 for a value in [0, 9],
// 19 - value for a value in [10, 18]; the prompt's own expression is one of them.
std::vector<std::string> rewrite_answers(const Prompt& prompt);

// The verifier: a response text "c+d" or "c-d" (single digits) is graded by its value, correct
// iff it equals the prompt's, and earns format 1 when terminated. Any other text is graded as
// the arithmetic verifier reads it, except that a bare number is never correct (the task asks for
// an expression: "7" to "3+4=" is incorrect), and earns format 0. answer is the expression itself,
// or the verifier's candidate for other text. Throws InvalidArgument as score_response.
Scored rewrite_score(const std::vector<int>& response_tokens, bool terminated, const Prompt& prompt,
                     double format_weight);

// The warm-up teacher's text (no <eos>): with probability `accuracy` a right answer, the prompt's
// own expression with probability kRewriteTeacherEcho and otherwise one of rewrite_answers drawn
// uniformly; else a wrong one: an expression off by one (0.6), the bare value (0.2) or "?" (0.2).
std::string rewrite_teacher_text(const Prompt& prompt, double accuracy, Rng& rng);

// The share of the teacher's right answers that repeat the prompt (the rest spread uniformly).
constexpr double kRewriteTeacherEcho = 0.0;

// The rewrite task behind the Task interface (the arithmetic vocabulary and prompts).
const Task& rewrite_task();

}  // namespace grpo
