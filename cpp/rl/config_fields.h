// The toy experiment's config fields, defined once: JS name, member, kind, range, options,
// defaults per profile, TRL name and description key. Reading, writing, validation and the
// page's form (through the configSchema API method) are all driven by this table.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rl/experiment_config.h"

namespace grpo {

enum class FieldKind { Int, Number, Bool, Enum };

struct FieldSpec {
  const char* name = nullptr;    // the JS API's name (camelCase), e.g. "epsHigh"
  const char* member = nullptr;  // the ExperimentConfig member it sets, e.g. "objective.eps_high"
  FieldKind kind = FieldKind::Int;
  double min = 0, max = 0;  // Int and Number
  bool min_open = false, max_open = false;
  bool nullable = false;  // Number: may be None (TRL's default None); NaN here, null in JSON
  std::vector<std::string> options;  // Enum: the allowed spellings, in the enum's order
  double smoke = 0, full = 0;        // defaults per profile (Bool 0/1, Enum an option index)
  const char* trl = nullptr;         // TRL GRPOConfig's field, nullptr when TRL has none
  // TRL v1.9.0's default of that argument as Python writes it ("1", "None", "1e-06"), where it
  // differs from the notebook's (the profiles' defaults); nullptr where they agree. Section 9
  // shows both. For a list argument (reward_weights[i]), on its first entry.
  const char* trl_default = nullptr;
  std::string description;      // i18n key of the page's label, "train.field.<name>"
  const char* group = nullptr;  // the form's group: "task", "rewards", ... ("setup" for
                                // profile and seed, which section 0 shows)
  bool notebook = false;        // the notebook sets it (its toy and TRL GRPOConfig cells, PROFILE,
                                // SEED): section 6 shows it first, its group folds the rest
  // The member as a number (Int, Bool 0/1, Enum index) and back; `set` takes a checked value.
  double (*get)(const ExperimentConfig&) = nullptr;
  void (*set)(ExperimentConfig&, double) = nullptr;
};

// Every field, in the form's order ("profile" first: it selects the column of defaults).
const std::vector<FieldSpec>& config_fields();

// The field called `name`, or nullptr.
const FieldSpec* find_field(std::string_view name);

// The field called `name`; throws std::logic_error when there is none (a programming error).
const FieldSpec& field(std::string_view name);

// The one range check of a config field. `value` is the number read (an Int, a Number, 0/1 for
// a Bool, the option index for an Enum, -1 when the text matched none); `typed` is the text the
// caller gave for an Enum. Throws InvalidArgument naming the field and its range, e.g.
// "epsHigh: must be in [0, 10], got 12", "lossType: must be one of grpo, bnpo, dr_grpo, dapo,
// got 'x'". NaN fails every range.
void check_field(const FieldSpec& spec, double value, std::string_view typed = {});

// The option index of `text` for an Enum field, -1 when it is none of the options.
int option_index(const FieldSpec& spec, std::string_view text);

}  // namespace grpo
