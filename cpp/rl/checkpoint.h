// JSON checkpoints of the GRU policy with PyTorch state_dict names (format: docs/checkpoint.md).
//
//   { "vocab":   ["<token 0>", "<token 1>", ...],                 V strings, index = token id
//     "config":  { "embed": E, "hidden": H, "temperature": T, ... any other fields },
//     "tensors": { "embedding.weight": {"shape": [V, E], "data": [... V*E numbers, row-major]},
//                  "gru.weight_ih_l0", "gru.weight_hh_l0", "gru.bias_ih_l0", "gru.bias_hh_l0",
//                  "head.weight", "head.bias" likewise } }
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rl/gru_policy.h"

namespace grpo {

// Import limits beyond the policy's own (docs/limits.md): bytes of one vocab token or config
// string, and the size of the free config object, which is kept and exported again.
inline constexpr std::size_t kMaxTokenBytes = 256;
inline constexpr std::size_t kMaxCheckpointConfigDepth = 8;
inline constexpr std::size_t kMaxCheckpointConfigValues = 1024;

template <typename Scalar>
struct Checkpoint {
  std::vector<std::string> vocab;  // [V] token strings, index = token id
  nlohmann::json config;           // the checkpoint's free config object (embed, hidden, ...)
  double temperature = 1;          // config.temperature, 1 when absent
  GruPolicy<Scalar> policy;        // dims from vocab.size(), config.embed, config.hidden
};

// The checkpoint JSON of `policy`: vocab as given (must have V entries), config = the caller's
// object (null counts as {}) with "embed" and "hidden" set from the policy, and every parameter
// tensor. Numbers are written exactly (float widens to double without rounding), so
// import_checkpoint(export_checkpoint(...)) gives bit-identical parameters, also after
// dump()/parse(). Throws InvalidArgument for a vocab of the wrong size, a config that is not an
// object, or a config.temperature that is not a positive finite number.
template <typename Scalar>
nlohmann::json export_checkpoint(const GruPolicy<Scalar>& policy,
                                 const std::vector<std::string>& vocab,
                                 const nlohmann::json& config);

// Parses and validates a checkpoint, then builds a fresh policy from it (nothing is returned or
// changed when anything is wrong). Checks: vocab is an array of 1..4096 strings of at most
// kMaxTokenBytes; config is an object (at most kMaxCheckpointConfigDepth levels and
// kMaxCheckpointConfigValues values) whose embed is an integer in [1, 1024], hidden an integer in
// [1, 1024] and temperature, if present, a positive finite number; tensors holds exactly the 7
// expected names (all checked, with shapes and data lengths, before anything is allocated), each
// {"shape": [...], "data": [...]} with the shape PyTorch gives for (V, E, H), as many numbers as
// the shape's product, and every number finite (and within Scalar's range).
// Throws InvalidArgument naming the field and the expected value, e.g.
//   "checkpoint.tensors.gru.weight_hh_l0.shape: must be [192, 64], got [64, 64]".
template <typename Scalar>
Checkpoint<Scalar> import_checkpoint(const nlohmann::json& checkpoint);

// {"<name>": {"shape": [...], "data": [...]}} for a flat buffer laid out like policy.params()
// (the parameters themselves, or the gradients for the JS API's per-parameter gradients).
template <typename Scalar>
nlohmann::json tensors_to_json(const GruPolicy<Scalar>& policy, const std::vector<Scalar>& buffer);

}  // namespace grpo
