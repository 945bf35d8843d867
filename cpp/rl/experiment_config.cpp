// Profiles and validation of the toy GRPO experiment's settings, both from the field table.
#include "rl/experiment_config.h"

#include <string>

#include "core/errors.h"
#include "rl/config_fields.h"

namespace grpo {

const std::vector<std::string>& profile_names() {
  static const std::vector<std::string> names = {"smoke", "full"};
  return names;
}

ExperimentConfig profile_defaults(const std::string& profile) {
  const FieldSpec& profile_field = field("profile");
  const int column = option_index(profile_field, profile);
  check_field(profile_field, column, profile);
  ExperimentConfig config;
  for (const FieldSpec& spec : config_fields())
    spec.set(config, column == 0 ? spec.smoke : spec.full);
  config.profile = profile;
  return config;
}

void check_field_relations(const ExperimentConfig& config) {
  require(config.prompt_batch <= config.train_prompts, [&] {
    return "promptBatch: must be at most trainPrompts (" + std::to_string(config.train_prompts) +
           "), got " + std::to_string(config.prompt_batch);
  });
}

void ExperimentConfig::validate() const {
  for (const FieldSpec& spec : config_fields())
    check_field(spec, spec.get(*this), spec.kind == FieldKind::Enum ? profile : "");
  check_field_relations(*this);
}

}  // namespace grpo
