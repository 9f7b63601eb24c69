#!/usr/bin/env bash
# The multi-modular pipeline and the one-transform powers on the device machine (gpu/crt.cu,
# polymul.cu): differential tests against fmpz_poly_mul, fmpz_poly_pow, fmpz_mod_poly_mul,
# nmod_poly_pow and mpz_mul ([multimodular], [dispatch], the GPU engine's [polymul] cases), the
# same under compute-sanitizer memcheck, and cas-bench-crt's table. Logs under $OUT.
# Usage (repository root): gpu/bench/crt-on-device.sh DIR
#   (DIR holds cas_unit_tests, cas_gpu_tests, cas-bench-crt, lib/)
set -u
dir=${1:-build-dev}
export LD_LIBRARY_PATH=$dir/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
out=${OUT:-/tmp/out}; mkdir -p "$out"

echo "== multimodular tests"
timeout 300 "$dir/cas_unit_tests" "[multimodular],[crt]" > "$out/multimodular.log" 2>&1; echo "rc=$?"
grep -E "SKIPPED|FAILED" "$out/multimodular.log" | head -20; tail -3 "$out/multimodular.log"

echo "== dispatcher and GPU product tests"
timeout 300 "$dir/cas_unit_tests" "[dispatch]" > "$out/dispatch.log" 2>&1; echo "rc=$?"; tail -3 "$out/dispatch.log"
timeout 300 "$dir/cas_gpu_tests" "[polymul]" > "$out/polymul.log" 2>&1; echo "rc=$?"; tail -3 "$out/polymul.log"

echo "== memcheck"
CAS_TEST_MULTIPLIER=0.1 timeout 300 compute-sanitizer --tool memcheck --leak-check no \
  "$dir/cas_unit_tests" "[multimodular][gpu]" > "$out/crt-memcheck.log" 2>&1; echo "rc=$?"; tail -6 "$out/crt-memcheck.log"
CAS_TEST_MULTIPLIER=0.1 timeout 200 compute-sanitizer --tool memcheck --leak-check no \
  "$dir/cas_gpu_tests" "powers in one transform agree with FLINT's nmod_poly_pow" > "$out/power-memcheck.log" 2>&1
echo "rc=$?"; tail -4 "$out/power-memcheck.log"

echo "== cas-bench-crt"
timeout 400 "$dir/cas-bench-crt" --reps 5 --flint-max-log 20 2>&1 | tee "$out/bench-crt.log"
