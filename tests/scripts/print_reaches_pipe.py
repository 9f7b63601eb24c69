#!/usr/bin/env python3
"""A script's output reaches a pipe while the script runs on (`cas long.cas | tee log`): print's
lines and the values of statements come through within a fraction of a second, not when the script
ends (interpreter/stdout_flush.hpp).

    print_reaches_pipe.py CAS

The script prints a line and a value, then runs a loop that prints a step and works 0.6 s, twice;
each line must arrive well before the next one is printed, and before cas exits.
"""
import os
import select
import subprocess
import sys
import tempfile
import time

SCRIPT = """\
print("first")
7 * 191
a = 3^2000000;
for i in 1..2 {
  print("step", i)
  t = 0
  while t < 0.6 { t = t + time(a * a) }
}
print("end")
"""
# Each line and the least time cas spends after printing it (the work that follows it).
EXPECTED = [("first", 1.2), ("1337", 1.2), ("step 1", 1.2), ("step 2", 0.6), ("end", 0.0)]
# How late a line may come after cas printed it: the flush delay (50 ms) and a loaded machine.
LATE = 0.35


def main():
    cas = sys.argv[1]
    with tempfile.NamedTemporaryFile("w", suffix=".cas", delete=False) as f:
        f.write(SCRIPT)
    start = time.monotonic()
    process = subprocess.Popen([cas, f.name], stdout=subprocess.PIPE)
    arrivals, pending = [], b""
    fd = process.stdout.fileno()
    while time.monotonic() - start < 30:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if not ready:
            continue
        data = os.read(fd, 65536)
        if not data:
            break
        pending += data
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            arrivals.append((line.decode(), time.monotonic() - start))
    status = process.wait()
    ended = time.monotonic() - start
    os.unlink(f.name)
    lines = [line for line, _ in arrivals]
    if status != 0 or lines != [line for line, _ in EXPECTED]:
        sys.exit(f"FAIL: status {status}, lines {lines}")
    for (line, arrived), (_, work_after) in zip(arrivals, EXPECTED):
        # Printed at the latest when the work after it began: `ended - work_after`.
        if arrived > ended - work_after + LATE:
            sys.exit(f"FAIL: {line!r} arrived at {arrived:.2f} s, cas ended at {ended:.2f} s: held back "
                     f"until the work after it ({work_after} s) was done\n{arrivals}")
    print("ok: " + ", ".join(f"{line!r} at {t:.2f} s" for line, t in arrivals) + f"; cas ended at {ended:.2f} s")


if __name__ == "__main__":
    main()
