// Settings that train to no effect, silently (issue 26 item 6), and the settings TRL's
// GRPOTrainer.__init__ warns about: warnings, not errors (TRL accepts every one of them), named
// by the field to change. The page shows them under the form, the CLI on stderr, and a run's
// result carries them (recomputed from its config, as importRun does).
#pragma once

#include <string>
#include <vector>

#include "core/errors.h"
#include "rl/experiment_config.h"

namespace grpo {

struct ConfigWarning {
  std::string code;      // the i18n key's tail, "warn.<code>" (web/js/i18n/*-trl.js)
  std::string field;     // the field to change (the form marks it)
  MessageParams params;  // the message's parameters
  std::string message;   // the English sentence, "maxNewTokens: ..."
};

// The warnings of `config` (a valid config), in a fixed order.
std::vector<ConfigWarning> config_warnings(const ExperimentConfig& config);

// Every warning code with its parameter names (the page keeps one text per code and language).
const std::vector<MessageCode>& warning_codes();

}  // namespace grpo
