// Catch2 entry point for the native and WASM test runs.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
