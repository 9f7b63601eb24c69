#!/usr/bin/env bash
# The interpreter's GPU routes on the device machine: the dispatcher's differential tests,
# `cas --calibrate` (its table says how far the dispatcher's choice is from the faster engine at
# every measured length), products and transforms timed in cas with the GPU on and off, and the
# REPL's `:timer` naming the engine. Logs under $OUT.
# Usage (repository root): gpu/bench/dispatch-on-device.sh DIR   (DIR holds cas, cas_unit_tests, lib/)
set -u
dir=${1:-build-dev}
export LD_LIBRARY_PATH=$dir/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
out=${OUT:-/tmp/out}; mkdir -p "$out"
export XDG_CONFIG_HOME=$out/config NO_COLOR=1

echo "== dispatcher tests"
timeout 300 "$dir/cas_unit_tests" "[dispatch]" > "$out/dispatch.log" 2>&1; echo "rc=$?"; tail -3 "$out/dispatch.log"

echo "== calibrate"
timeout 400 "$dir/cas" --calibrate > "$out/calibrate.log" 2>&1; echo "rc=$?"; cat "$out/calibrate.log"

echo "== in cas: gpu on against off"
cat > "$out/engines.cas" <<'CAS'
fn timed(label, mode, k) {
  gpu(mode)
  seed(k)
  p = 998244353
  f = randpoly(2^(k-1), p); g = randpoly(2^(k-1), p)
  t = time(f * g)
  v = coeffs(randpoly(2^k, p)); w = rootofunity(2^k, p)
  s = time(fft(v, w))
  print(label, "log2 n =", k, "product ms", t * 1000, "fft ms", s * 1000)
}
for k in [12, 16, 20, 22] {
  timed("gpu on ", "on", k); timed("gpu off", "off", k); timed("auto   ", "auto", k)
}
CAS
timeout 300 "$dir/cas" "$out/engines.cas" 2>&1 | tee "$out/engines.log"

echo "== REPL :timer"
printf ':timer on\nf = randpoly(2^23, 998244353);\ng = f * f;\nv = coeffs(f);\nu = fft(concat(v, v), rootofunity(2^24, 998244353));\n:gpu off\ng = f * f;\ngpuinfo()\n' > "$out/repl.in"
timeout 300 script -qec "$dir/cas -q" /dev/null < "$out/repl.in" > "$out/repl.log" 2>&1; echo "rc=$?"; cat "$out/repl.log"
