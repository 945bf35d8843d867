#!/usr/bin/env bash
# Builds the libFuzzer targets (preset fuzz: clang, ASan + UBSan) and runs each one in turn over
# its committed seed corpus (fuzz/corpus/<target>) with -timeout=1 and -rss_limit_mb=2048.
#   bash tools/fuzz.sh [target ...]      FUZZ_SECONDS per target (default 600): the long run
#   FUZZ_RUNS=5000 bash tools/fuzz.sh   a fixed number of inputs per target (npm test)
# New inputs of long runs collect in build/fuzz/corpus/<target>; crashes, leaks, OOMs and
# timeouts are written to build/fuzz/artifacts/ and fail the run. Logs: build/fuzz/<target>.log.
#
# libFuzzer's -timeout is wall-clock time, and the fuzzers run at nice 19 on a shared machine,
# so a busy machine can stall one input past 1 s. A timeout input is therefore run again alone:
# if it takes under 1 s there, the timeout was the scheduler's (noted, the input moved to
# build/fuzz/artifacts/stalled/) and fuzzing resumes for the time or runs still left.
set -euo pipefail
cd "$(dirname "$0")/.."

ALL=(fuzz_verifier fuzz_config fuzz_checkpoint fuzz_run_import fuzz_api)
targets=("$@")
((${#targets[@]})) || targets=("${ALL[@]}")

bash tools/build.sh fuzz
mkdir -p build/fuzz/artifacts/stalled

# Prints "ok" when every timeout artifact of $1 runs in under a second alone (moving it away).
stalled_only() {
  local target=$1 artifact ms
  for artifact in build/fuzz/artifacts/"$target"-*; do
    [[ -e $artifact ]] || continue
    [[ $artifact == *-timeout-* ]] || return 0
    ms=$("build/fuzz/$target" -runs=3 "$artifact" 2>&1 | sed -n 's/^Executed .* in \([0-9]*\) ms$/\1/p' |
      sort -n | tail -1)
    [[ -n $ms ]] && ((ms < 1000)) || return 0
    mv "$artifact" build/fuzz/artifacts/stalled/
  done
  echo ok
}

passed=0
failed=0
for target in "${targets[@]}"; do
  dict=fuzz/json.dict
  [[ $target == fuzz_verifier ]] && dict=fuzz/verifier.dict
  if [[ -n ${FUZZ_RUNS:-} ]]; then
    work=$(mktemp -d)  # short CI run: new inputs are thrown away, every run starts from the seeds
  else
    work=build/fuzz/corpus/$target
    mkdir -p "$work"
  fi
  log=build/fuzz/$target.log
  : >"$log"
  budget_seconds=${FUZZ_SECONDS:-600}
  budget_runs=${FUZZ_RUNS:-0}
  seconds=0
  runs=0
  stalls=0
  status=0
  while :; do
    if ((budget_runs > 0)); then limit=(-runs=$((budget_runs - runs))); else limit=(-max_total_time=$((budget_seconds - seconds))); fi
    started=$(date +%s)
    status=0
    segment_log=$(mktemp)
    nice -n 19 "build/fuzz/$target" "${limit[@]}" -timeout=1 -rss_limit_mb=2048 \
      -dict="$dict" -artifact_prefix="build/fuzz/artifacts/$target-" -print_final_stats=1 \
      "$work" "fuzz/corpus/$target" >"$segment_log" 2>&1 || status=$?
    seconds=$((seconds + $(date +%s) - started))
    segment=$(sed -n 's/^stat::number_of_executed_units: *//p' "$segment_log" | tail -1)
    runs=$((runs + ${segment:-0}))
    cat "$segment_log" >>"$log"
    timed_out=$(grep -c "ERROR: libFuzzer: timeout" "$segment_log" || true)
    rm -f "$segment_log"
    ((status != 0)) || break
    if ((timed_out > 0)) && [[ $(stalled_only "$target") == ok ]]; then
      stalls=$((stalls + 1))
      echo "fuzz: $target: a timeout after ${seconds} s, but the input takes < 1 s alone (machine busy); resuming"
      if ((budget_runs > 0 ? runs < budget_runs : seconds < budget_seconds)) && ((stalls <= 20)); then continue; fi
      status=0
    fi
    break
  done
  [[ -n ${FUZZ_RUNS:-} ]] && rm -rf "$work"
  if ((status == 0)); then
    passed=$((passed + 1))
    echo "fuzz: ok   $target: $runs inputs in $seconds s, no crash, no timeout, no leak" \
      "(stalls resumed: $stalls)"
  else
    failed=$((failed + 1))
    echo "fuzz: FAIL $target (exit $status after $seconds s); the end of $log:"
    tail -n 40 "$log"
  fi
done
# node:test-style counts, read by tools/run-tests.mjs
echo "# pass $passed"
echo "# fail $failed"
((failed == 0))
