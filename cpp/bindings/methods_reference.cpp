// The method set of the reference build (CMake target grpo_core_reference, web/core/
// grpo_core_reference.*, JS loadReferenceCore()): what sections 0-5 of the page compute, and
// experimentConfig, the check the page runs on a link's profile, seed and training keys. No
// trainer, policy, grpoObjective, run import or verl: the page's first load gets a fraction of
// the full module's bytes. Linked ahead of
// grpo_core_lib, this definition of register_methods keeps api_methods.cpp (and the areas it
// registers) out of the link.
#include "api/api.h"

namespace grpo::api {

void register_methods(Registry& checked, Registry& checking_own_keys) {
  register_reference_methods(checked);
  register_objective_curves(checked);        // sections 3-4: not grpoObjective
  register_config_check(checking_own_keys);  // experimentConfig: not the schema or warnings
}

}  // namespace grpo::api
