#!/usr/bin/env bash
# The interpreter's GPU routes on the device machine: the dispatcher's differential tests,
# `cas --calibrate` (its table says how far the dispatcher's choice is from the faster engine at
# every measured length), products and transforms timed in cas with the GPU on and off, fft and
# ifft of packed vectors (gpu/bench/fft-timing.cas), and the REPL's `:timer` naming the engine.
# Logs under $OUT.
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
# best of three, in ms, after one warm-up run
fn best_product_ms(f, g) {
  f * g
  best = time(f * g)
  for r in 1..2 { t = time(f * g); if t < best { best = t } }
  best * 1000
}
fn best_fft_ms(v, w) {
  fft(v, w)
  best = time(fft(v, w))
  for r in 1..2 { t = time(fft(v, w)); if t < best { best = t } }
  best * 1000
}
for p in [998244353, 65537] {
  for k in [10, 12, 14, 16, 18, 20, 22] {
    if p < 2^17 and k > 16 { break }  # 65537 has roots of unity of order up to 2^16
    seed(k)
    f = randpoly(2^(k-1), p); g = randpoly(2^(k-1), p)
    v = coeffs(randpoly(2^k, p)); w = rootofunity(2^k, p)
    for mode in ["off", "on", "auto"] {
      gpu(mode)
      print("p =", p, "log2 n =", k, "gpu", mode, "product ms", best_product_ms(f, g), "fft ms", best_fft_ms(v, w))
    }
  }
}
CAS
timeout 300 "$dir/cas" "$out/engines.cas" 2>&1 | tee "$out/engines.log"

echo "== fft and ifft of packed vectors, best of 5"
timeout 300 "$dir/cas" gpu/bench/fft-timing.cas 2>&1 | tee "$out/fft-timing.log"

echo "== REPL :timer"
printf ':timer on\nf = randpoly(2^22, 998244353);\ng = f * f;\ng = f * f;\nv = coeffs(f);\nu = fft(v, rootofunity(2^22, 998244353));\nb = ifft(u, rootofunity(2^22, 998244353));\nh = f^3;\n:explain\n:gpu off\ng = f * f;\ngpuinfo()\n:quit\n' > "$out/repl.in"
timeout 300 script -qec "$dir/cas -q" /dev/null < "$out/repl.in" > "$out/repl.log" 2>&1; echo "rc=$?"; cat "$out/repl.log"
