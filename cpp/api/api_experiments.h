// The live experiments of the JSON API (api_training.cpp), for the other areas that act on them
// (the step inspector's methods, api_inspect.cpp).
#pragma once

#include "api/api.h"
#include "rl/trainer.h"

namespace grpo::api {

// The live experiment `args.handle` names; InvalidArgument naming `handle` when there is none.
Experiment& experiment_of(const Json& args);

// One history row as the API returns it (runToyGrpoExperiment's history, experimentStep's rows).
Json history_json(const HistoryRow& row, long long samples);

}  // namespace grpo::api
