// The scratch task: two-digit addition and subtraction where the response may show its column
// work before the final answer, so completions run from 2 to ~30 tokens (issue 23 item 1).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rl/arithmetic_task.h"
#include "rl/rng.h"
#include "rl/task.h"

namespace grpo {

// The scratch vocabulary, 18 tokens: the arithmetic task's 16 (same ids) and two more,
//   id:    0..9       10   11   12   13   14   15       16   17
//   token: "0".."9"   "+"  "-"  "="  "/"  "?"  "<eos>"  ";"  ">"
// ";" ends a step of scratch work, ">" opens the final answer.
Vocab scratch_vocab();

// Problems "ab+cd=" and "ab-cd=" with operands in [10, 99] (every prompt 6 tokens), differences
// only when ab >= cd: 8100 + 4095 = 12195.
int scratch_problem_count();

// The seeded split, as arithmetic_prompts: every problem (+ then -, a then b ascending),
// Fisher-Yates with grpo::Rng(seed), the first train_size "train", the next heldout_size
// "heldout". Throws InvalidArgument naming trainSize / heldoutSize.
std::vector<Prompt> scratch_prompts(std::uint64_t seed, int train_size, int heldout_size);

// A caller-given problem "ab+cd=" or "ab-cd=" of the task as a Prompt with id 0 and split
// "train"; throws InvalidArgument naming `text` otherwise.
Prompt scratch_prompt_from_text(const std::string& text);

// The final answer of a response text: what follows its last ">", or the whole text when it has
// none ("85" and "7+8=15;4+3+1=8;>85" both answer "85").
std::string scratch_final_answer(const std::string& text);

// The verifier on the final answer: status and correctness from check_numeric_answer on it;
// format 1 iff terminated, the final answer is exactly one number graded correct or incorrect,
// and any scratch work before it ends with ">" ("7+8=15;85" has format 0; section 1's rules,
// which take the last number, still grade it).
// Throws InvalidArgument as score_response.
Scored scratch_score(const std::vector<int>& response_tokens, bool terminated, const Prompt& prompt,
                     double format_weight);

// The teacher's column work for a problem, the steps before ">": for 47+38 "7+8=15;4+3+1=8;",
// for 52-38 "12-8=4;5-1-3=1;" (a borrow is written as the 1 before the ones digit). With
// `forget_carry` the tens step leaves out the carry or borrow (the classic mistake).
std::string scratch_columns(const Prompt& prompt, bool forget_carry);

// The warm-up teacher's text (no <eos>), in one of three styles drawn uniformly: concise ("85",
// 2 tokens), columns ("7+8=15;4+3+1=8;>85", ~18) and checked (the columns, then the inverse
// operation "85-38=47;", then the answer, ~27). Right with probability `accuracy`; otherwise
// the answer forgets the carry or borrow (the tens step too), is off by one, or is "?".
std::string scratch_teacher_text(const Prompt& prompt, double accuracy, Rng& rng);

// The longest demonstration the warm-up teacher can write, <eos> included, in tokens (the checked
// style of the longest problem): a maxNewTokens below it cuts some of them.
int scratch_longest_demonstration();

// The scratch task behind the Task interface.
const Task& scratch_task();

}  // namespace grpo
