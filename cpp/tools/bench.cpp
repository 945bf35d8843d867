// The bench program: runs every area's measurements and prints them as JSON rows on stdout
// ({"name", "value", "unit"}); tools/bench.mjs runs the native and WASM builds side by side.
#include "tools/bench.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>

namespace grpo::bench {

double now_seconds() {
  using Clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
}

double seconds_since(double start) {
  return now_seconds() - start;
}

}  // namespace grpo::bench

int main(int argc, char** argv) {
  using namespace grpo::bench;
  // Optional argument: run only one area (verifier, policy, training, gflops, fwdbwd, threads).
  const char* only = argc > 1 ? argv[1] : "";
  std::vector<Row> rows;
  if (!*only || !std::strcmp(only, "verifier")) bench_verifier(rows);
  if (!*only || !std::strcmp(only, "policy")) bench_policy(rows);
  if (!*only || !std::strcmp(only, "training")) bench_training(rows);
  // "gflops H": that H's update alone (valgrind --tool=callgrind profiles one size).
  if (!*only || !std::strcmp(only, "gflops")) bench_gflops(rows, argc > 2 ? std::atoi(argv[2]) : 0);
  // "fwdbwd TASK H": that forward + backward alone (arith or scratch; perf record profiles it).
  if (!*only || !std::strcmp(only, "fwdbwd"))
    bench_fwd_bwd(rows, argc > 2 ? argv[2] : "", argc > 3 ? std::atoi(argv[3]) : 0);
  if (!*only || !std::strcmp(only, "threads")) bench_threads(rows);
  nlohmann::json out = nlohmann::json::array();
  for (const Row& row : rows)
    out.push_back({{"name", row.name}, {"value", row.value}, {"unit", row.unit}});
  std::printf("%s\n", out.dump().c_str());
  return 0;
}
