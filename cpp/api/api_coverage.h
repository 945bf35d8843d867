// Section 8's coverage measures as JSON, for the API methods and for a run's result.
#pragma once

#include <string>
#include <vector>

#include "api/api.h"
#include "core/prompt_coverage.h"

namespace grpo::api {

Json coverage_json(const CoverageConcentration& coverage);
// {"ks": [1, 2, 4, ...], "values": [...]}: the mean unbiased pass@k at each k up to samples.
Json pass_at_k_json(const std::vector<long long>& successes, long long samples);

// passAtKEvery's history columns (issue 23): the ks they log, the powers of two up to samples
// (one fixed set of names for every samples: the base's curve holds each of them too), and their
// names, "<split>PassAt<k>" (split train or heldout).
std::vector<long long> logged_pass_at_ks(long long samples);
std::string pass_at_k_column(const std::string& split, long long k);
// Adds pass@k of `successes` (each prompt's correct answers of `samples`) at logged_pass_at_ks
// to a history row as the columns above.
void add_pass_at_k_columns(Json& row, const std::string& split,
                           const std::vector<long long>& successes, long long samples);

// A run's section 8 block from its by-prompt accuracies (each c_j / samples): before/after
// coverage of train and held-out prompts (null for an empty set or an evaluation not yet made),
// and crossingTrain / crossingHeldout, the k where the base policy's pass@k overtakes the
// trained one's (null: it does not). Used for a fresh result and for an imported run alike.
Json run_coverage_json(const Json& run, long long samples);

}  // namespace grpo::api
