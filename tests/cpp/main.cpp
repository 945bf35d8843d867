// Catch2 entry point for the native and WASM test runs. GRPO_THREADS=N (native) runs every test
// with the core's passes split across N threads: the pins must hold all the same.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <cstdlib>

#include "rl/compute_pool.h"

int main(int argc, char* argv[]) {
  if (const char* threads = std::getenv("GRPO_THREADS")) grpo::set_core_threads(std::atoi(threads));
  return Catch::Session().run(argc, argv);
}
