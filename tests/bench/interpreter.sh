#!/bin/sh
# Interpreter speed against PARI/GP, measured in the same run: each loop runs
# in cas and in gp (best of 3 wall-clock runs, start-up included), then a table.
# usage: tests/bench/interpreter.sh [path/to/cas]     (needs gp: apt-get install pari-gp)
set -e
cas=${1:-build/interpreter/cas}
here=$(dirname "$0")
command -v gp >/dev/null || { echo "gp not found: apt-get install pari-gp" >&2; exit 1; }

best_of_3() {  # prints the smallest wall time in seconds of three runs of "$@"
  best=""
  for run in 1 2 3; do
    start=$(date +%s.%N)
    "$@" >/dev/null
    end=$(date +%s.%N)
    t=$(echo "$end - $start" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
  done
  printf '%.3f' "$best"
}

# read_back: a printed polynomial of 5000 terms (60-bit coefficients) read back as input, the
# way a saved result is loaded; both languages write it the same way. (gp's reader refuses
# 20000 terms: "expression nested too deeply".)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printed=$("$cas" -e 'seed(1); randzpoly(5000, 60)')
printf 'f = %s\nprint(deg(f))\n' "$printed" > "$work/read_back.cas"
printf 'default(parisize, 10^8);\nf = %s;\nprint(poldegree(f))\n' "$printed" > "$work/read_back.gp"

printf '%-34s %9s %9s %8s\n' benchmark "cas s" "gp s" "gp/cas"
for name in int_loop mod_loop poly_loop call_loop startup read_back; do
  dir=$here
  [ "$name" = read_back ] && dir=$work
  c=$(best_of_3 "$cas" "$dir/$name.cas")
  g=$(best_of_3 sh -c "gp -q -f < '$dir/$name.gp' 2>/dev/null")
  printf '%-34s %9s %9s %8.2f\n' "$name" "$c" "$g" "$(echo "$g / $c" | bc -l)"
done
