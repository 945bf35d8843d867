#include "rl/warmup_cache.h"

#include <cstdint>
#include <cstring>
#include <deque>
#include <mutex>
#include <sstream>
#include <utility>

namespace grpo {
namespace {

// At most this many bytes of parameters: three policies at the largest shape (embed 256, hidden
// 512: ~4.7 MB each), hundreds at the profiles'.
constexpr std::size_t kMaxBytes = std::size_t{16} << 20;

struct Cache {
  std::mutex mutex;
  int capacity = 8;  // the smoke profile's ~17k parameters: ~70 KB an entry
  std::size_t bytes = 0;
  std::deque<std::pair<std::string, std::vector<float>>> entries;  // oldest first
};

Cache& cache() {
  static Cache instance;
  return instance;
}

// The oldest entries leave until the capacity and the byte budget hold.
void trim(Cache& c) {
  while (!c.entries.empty() &&
         (c.entries.size() > static_cast<std::size_t>(c.capacity) || c.bytes > kMaxBytes)) {
    c.bytes -= c.entries.front().second.size() * sizeof(float);
    c.entries.pop_front();
  }
}

// A double's bits, so that two keys are equal only for the same numbers.
std::uint64_t bits(double value) {
  std::uint64_t out = 0;
  std::memcpy(&out, &value, sizeof out);
  return out;
}

}  // namespace

std::string warmup_key(const ExperimentConfig& config, int vocab_size) {
  std::ostringstream key;
  key << static_cast<int>(config.task) << ' ' << config.seed << ' ' << config.max_operand << ' '
      << config.train_prompts << ' ' << config.heldout_prompts << ' ' << vocab_size << ' '
      << config.embed << ' ' << config.hidden << ' ' << config.warmup_steps << ' '
      << bits(config.warmup_learning_rate) << ' ' << bits(config.teacher_accuracy) << ' '
      << bits(config.max_grad_norm);
  return key.str();
}

bool warmup_cache_find(const std::string& key, std::vector<float>& params) {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  for (const auto& [stored, values] : c.entries) {
    if (stored != key) continue;
    params = values;
    return true;
  }
  return false;
}

void warmup_cache_store(const std::string& key, const std::vector<float>& params) {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  if (c.capacity == 0) return;
  for (const auto& entry : c.entries)
    if (entry.first == key) return;
  c.entries.emplace_back(key, params);
  c.bytes += params.size() * sizeof(float);
  trim(c);
}

int warmup_cache_capacity() {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  return c.capacity;
}

void set_warmup_cache_capacity(int entries) {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  c.capacity = entries < 0 ? 0 : entries;
  trim(c);
}

}  // namespace grpo
