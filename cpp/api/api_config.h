// The toy experiment's config through the JSON API: reader, writer and schema, all driven by the
// field table (rl/config_fields.h). Used by the training methods and the schema method.
#pragma once

#include "api/api.h"
#include "rl/experiment_config.h"

namespace grpo::api {

// The profile's defaults, then the caller's overrides, each checked once as it is read (and the
// one rule between fields). Unknown keys are mistakes worth naming.
ExperimentConfig read_config(const Json& args);

// Every field, by its JS name.
Json config_json(const ExperimentConfig& config);

// The settings of `config` that train to no effect and those TRL warns about
// (rl/config_warnings.h): [{code, field, params, message}].
Json warnings_json(const ExperimentConfig& config);

// Every warning code with its parameter names: [{code, params}].
Json warning_codes_json();

// The table as JSON: {profiles, fields: [{name, member, kind, min, max, minOpen, maxOpen,
// options, defaults: {smoke, full}, trl, description}]} (docs/api.md, configSchema).
Json config_schema_json();

}  // namespace grpo::api
