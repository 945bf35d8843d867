// The method set of the full core: every area (the grpo_core module, the tests, the bench and the
// fuzzers). Alone in its file so that a build with fewer methods can link its own
// register_methods instead (bindings/methods_reference.cpp) and leave this one, and everything
// it names, out of the link.
#include "api/api.h"

namespace grpo::api {

void register_methods(Registry& checked, Registry& checking_own_keys) {
  register_reference_methods(checked);
  register_objective_methods(checked);
  register_run_methods(checked);
  register_coverage_methods(checked);
  register_verl_methods(checked);
  register_config_methods(checking_own_keys);
  register_training_methods(checking_own_keys);
  register_inspection_methods(checking_own_keys);  // they check their keys before acting too
}

}  // namespace grpo::api
