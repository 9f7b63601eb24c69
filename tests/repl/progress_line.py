#!/usr/bin/env python3
"""The REPL's progress line (interpreter/repl.cpp, ProgressLine): a statement that runs longer than
a second shows on stderr, when stderr is a terminal, a line rewritten in place ("\\r1.2 s  loop
41/100000 (0%)\\x1b[K"), cleared ("\\r\\x1b[K") before the statement's own output; with -q, or with
stderr on a pipe, nothing of it appears.

    progress_line.py CAS MODE      MODE: terminal | quiet | stderr-pipe | load

(load: the long statement runs from a script that `:load` reads, and shows the same line.)

cas runs on a pseudo-terminal (the REPL wants one; piped input runs as a script). The long
statement is a top-level for loop that stops after 1.5 s of integer products, whatever the
machine's speed; the statement after it prints 1337.
"""
import os
import re
import select
import subprocess
import sys
import tempfile
import time

ENTRIES = [
    "a = 3^2000000;",
    "t = 0;",
    "for i in 1..100000 { t = t + time(a * a); if t > 1.5 { break } }",
    "7 * 191",
    ":quit",
]
# The long statement and those before it, as a script for `:load` (mode load).
LOADED = ENTRIES[:3]


def entries_for(mode, work):
    """What is typed at the prompt: ENTRIES, or (mode load) a :load of a script holding the loop."""
    if mode != "load":
        return ENTRIES
    script = os.path.join(work, "long.cas")
    with open(script, "w") as file:
        file.write("\n".join(LOADED) + "\n")
    return [f":load {script}"] + ENTRIES[len(LOADED):]


PROGRESS = re.compile(r"\r(\d+\.\d) s  loop (\d+)/100000 \(\d+%\)\x1b\[K")
CLEAR = "\r\x1b[K"


def read_available(fds, chunks, seconds):
    """Reads whatever the fds give for `seconds`; returns the fds still open."""
    end = time.monotonic() + seconds
    while fds and time.monotonic() < end:
        ready, _, _ = select.select(fds, [], [], 0.05)
        for fd in ready:
            try:
                data = os.read(fd, 65536)
            except OSError:  # the terminal's other side closed
                data = b""
            if data:
                chunks[fd].append(data)
            else:
                fds = [f for f in fds if f != fd]
    return fds


def run(cas, mode):
    """The text cas wrote to the terminal, and to the stderr pipe (in stderr-pipe mode)."""
    master, slave = os.openpty()
    work = tempfile.mkdtemp(prefix="cas-progress-")
    env = dict(os.environ, HOME=work, XDG_STATE_HOME=work, NO_COLOR="1", TERM="dumb")
    args = [cas] + (["-q"] if mode == "quiet" else [])
    stderr = subprocess.PIPE if mode == "stderr-pipe" else slave
    process = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=stderr, env=env, start_new_session=True)
    os.close(slave)
    err = process.stderr.fileno() if mode == "stderr-pipe" else None
    fds = [master] + ([err] if err is not None else [])
    chunks = {fd: [] for fd in fds}
    fds = read_available(fds, chunks, 0.3)
    for entry in entries_for(mode, work):
        os.write(master, (entry + "\n").encode())
        fds = read_available(fds, chunks, 0.1)
    deadline = time.monotonic() + 30
    while process.poll() is None and time.monotonic() < deadline:
        fds = read_available(fds, chunks, 0.2)
    if process.poll() is None:
        process.kill()
        sys.exit("FAIL: cas did not end within 30 s")
    read_available(fds, chunks, 0.2)
    terminal = b"".join(chunks[master]).decode(errors="replace")
    pipe = b"".join(chunks[err]).decode(errors="replace") if err is not None else ""
    return process.returncode, terminal, pipe


def check_terminal(terminal):
    answer = terminal.rfind("1337")
    if answer < 0:
        return "the statement after the loop printed nothing"
    lines = list(PROGRESS.finditer(terminal))
    if not lines:
        return "no progress line on the terminal"
    if float(lines[0].group(1)) < 0.9:
        return "the progress line came before a second had passed"
    last = lines[-1]
    cleared = terminal.find(CLEAR, last.end())
    if cleared < 0 or cleared > answer:
        return "the progress line was not cleared before the next statement's output"
    if any(m.start() > answer for m in lines):
        return "a progress line came after the statement had ended"
    return None


def main():
    cas, mode = sys.argv[1], sys.argv[2]
    status, terminal, pipe = run(cas, mode)
    if status != 0:
        failure = f"cas ended with status {status}"
    elif mode in ("terminal", "load"):
        failure = check_terminal(terminal)
    else:
        shown = terminal + pipe
        failure = None
        if "1337" not in terminal:
            failure = "the statement after the loop printed nothing"
        elif PROGRESS.search(shown) or " s  loop " in shown or "\x1b[K" in shown:
            failure = f"a progress line appeared ({mode})"
        elif mode == "stderr-pipe" and pipe:
            failure = f"stderr, a pipe, received {pipe!r}"
    if failure:
        print(f"FAIL: {failure}\nthe terminal showed:\n{terminal!r}\nstderr:\n{pipe!r}")
        sys.exit(1)
    print(f"ok ({mode})")


if __name__ == "__main__":
    main()
