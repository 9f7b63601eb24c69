#!/usr/bin/env bash
# Runs the GPU tests, the sanitizers and the benchmark on the device machine, logs under $OUT.
# Usage (from the repository root): gpu/bench/run-on-device.sh BUILD_DIR [tests] [memcheck] [racecheck] [bench ARGS...]
set -u
build=$1; shift
export LD_LIBRARY_PATH=$build/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export PATH=/usr/local/cuda/bin:$PATH
out=${OUT:-/tmp/out}; mkdir -p "$out"
nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.mem --format=csv | tee "$out/device.txt"
tests=$build/tests/gpu/cas_gpu_tests
while [ $# -gt 0 ]; do
  case $1 in
    tests) shift; echo "== tests"; (time timeout 300 $tests ${TEST_ARGS:-}) > "$out/tests.log" 2>&1; echo "rc=$?"; tail -4 "$out/tests.log"; grep -B3 -A12 "FAILED\|failed" "$out/tests.log" | head -60;;
    memcheck) shift; echo "== memcheck"; CAS_TEST_MULTIPLIER=0.1 timeout 240 compute-sanitizer --tool memcheck --leak-check no $tests > "$out/memcheck.log" 2>&1; echo "rc=$?"; tail -6 "$out/memcheck.log";;
    racecheck) shift; echo "== racecheck"; CAS_TEST_MULTIPLIER=0.1 timeout 240 compute-sanitizer --tool racecheck $tests "[ntt]" > "$out/racecheck.log" 2>&1; echo "rc=$?"; tail -6 "$out/racecheck.log";;
    tune) shift; echo "== tune"; for cfg in $TUNE; do echo "-- $cfg"; timeout 60 $build/gpu/cas-bench --ntt-only 1 --min 20 --max 24 --reps 11 --tune ${cfg%/*} --tune ${cfg#*/}; done 2>&1 | tee "$out/tune.log";;
    bench) shift; echo "== bench"; timeout 400 $build/gpu/cas-bench "$@" 2>&1 | tee "$out/bench.log"; shift $#;;
    *) echo "unknown step $1"; shift;;
  esac
done
