#!/usr/bin/env python3
"""Ctrl-C while the REPL's progress line shows (interpreter/progress_line.cpp, repl.cpp's
on_interrupt): what the terminal shows afterwards holds no progress text and no echoed ^C, and
each message about the interrupt starts a line of its own.

    progress_interrupt.py CAS MODE      MODE: stop | quit

cas runs on a pseudo-terminal that is its controlling terminal, so Ctrl-C is typed (the byte
0x03): the terminal echoes ^C and sends SIGINT, as a person's terminal does. The statement is one
powmod, a single FLINT operation that cannot stop midway, so that a second Ctrl-C during it gets
the REPL's explanation. Once the progress line shows, Ctrl-C is pressed twice; then
  stop: the operation returns, the statement reports "interrupted", and 7 * 191 prints 1337;
  quit: once the line shows again under the explanation, a third Ctrl-C quits cas (status 130).
The bytes cas wrote are played on a model of the terminal's screen (carriage return, newline,
erase to the end of the line), and the screen's lines are checked.
"""
import fcntl
import os
import re
import subprocess
import sys
import tempfile
import termios
import time

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
from progress_line import read_available  # noqa: E402 (after the line above)

# A powmod of 2^k squarings modulo a number of 10^5 bits: about 0.45 ms a squaring on a 2020s
# core. A larger k is tried when the statement ended before its second Ctrl-C.
EXPONENTS = [12000, 36000, 108000]
PROGRESS = re.compile(r"\r\d+\.\d s  ")
SHOWN_PROGRESS = re.compile(r"\d+\.\d s  ")  # progress text left on a line of the screen
EXPLANATION = "cas: one operation of FLINT or the GPU is running and cannot stop midway"
QUIT = "cas: quit on Ctrl-C"
INTERRUPTED = re.compile(r"^<repl>:1:\d+: error: interrupted$")


def screen_lines(output):
    """The lines of a terminal's screen after `output`: \\r returns to the start of the line,
    \\n goes to the next, ESC [ K erases to the end of the line, other text overwrites."""
    lines, row, column = [""], 0, 0
    for token in re.findall(r"\x1b\[[0-9;?]*[A-Za-z]|.", output, re.S):
        if token == "\r":
            column = 0
        elif token == "\n":
            row += 1
            if row == len(lines):
                lines.append("")
        elif token == "\x1b[K":
            lines[row] = lines[row][:column]
        elif token == "\b":
            column = max(column - 1, 0)
        elif token.startswith("\x1b") or token == "\x07":
            continue
        else:
            line = lines[row].ljust(column)
            lines[row] = line[:column] + token + line[column + 1:]
            column += 1
    return lines


def make_controlling_terminal():
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Terminal:
    """cas on a pseudo-terminal, and all it wrote there."""

    def __init__(self, cas):
        self.master, slave = os.openpty()
        self.home = tempfile.TemporaryDirectory(prefix="cas-interrupt-")  # removed with the Terminal
        env = dict(os.environ, HOME=self.home.name, XDG_STATE_HOME=self.home.name, NO_COLOR="1", TERM="dumb")
        self.process = subprocess.Popen([cas], stdin=slave, stdout=slave, stderr=slave, env=env,
                                        start_new_session=True, preexec_fn=make_controlling_terminal)
        os.close(slave)
        self.chunks = {self.master: []}
        self.fds = [self.master]

    def text(self):
        return b"".join(self.chunks[self.master]).decode(errors="replace")

    def type(self, data):
        os.write(self.master, data.encode())

    def wait_for(self, pattern, after, seconds):
        """The end of the first match of `pattern` in the output past `after`; None after `seconds`."""
        deadline = time.monotonic() + seconds
        while True:
            match = re.compile(pattern).search(self.text(), after)
            if match:
                return match.end()
            if time.monotonic() > deadline or not self.fds:
                return None
            self.fds = read_available(self.fds, self.chunks, 0.05)

    def finish(self, seconds):
        deadline = time.monotonic() + seconds
        while self.process.poll() is None and time.monotonic() < deadline:
            self.fds = read_available(self.fds, self.chunks, 0.1)
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
            return None
        read_available(self.fds, self.chunks, 0.2)
        return self.process.returncode


def interrupt_twice(cas, exponent):
    """cas with the powmod interrupted twice while its progress line shows; None when the statement
    ended before the second Ctrl-C (a machine too fast for this exponent)."""
    terminal = Terminal(cas)
    terminal.wait_for(r"cas> ", 0, 5)
    terminal.type(f"r = powmod(3, 2^{exponent}, 10^30000 + 1);\n")
    shown = terminal.wait_for(PROGRESS.pattern, 0, 10)
    if shown is None:
        terminal.process.kill()
        sys.exit(f"FAIL: no progress line within 10 s\n{terminal.text()!r}")
    terminal.type("\x03")
    time.sleep(0.2)
    terminal.type("\x03")
    if terminal.wait_for(re.escape(EXPLANATION), shown, 3) is None:
        terminal.process.kill()
        terminal.process.wait()
        return None
    return terminal


def check_screen(lines, final_line):
    """A failure, or None: no progress text, no ^C, the explanation and `final_line` (a pattern)
    each at the start of a line of their own."""
    shown = "\n".join(lines)
    if any(SHOWN_PROGRESS.search(line) for line in lines):
        return "progress text is left on the screen"
    if "^C" in shown:
        return "an echoed ^C is left on the screen"
    if not any(line.startswith(EXPLANATION) for line in lines):
        return "the explanation of the second Ctrl-C does not start a line"
    if not any(re.match(final_line, line) for line in lines):
        return f"no line is {final_line!r}"
    return None


def run(cas, mode):
    for exponent in EXPONENTS:
        terminal = interrupt_twice(cas, exponent)
        if terminal:
            break
    else:
        sys.exit("FAIL: each powmod ended before its second Ctrl-C")
    if mode == "stop":
        ended = terminal.wait_for(r"error: interrupted[^\n]*\n(.*\n)*?cas> ", 0, 120)
        if ended is None:
            terminal.process.kill()
            sys.exit(f"FAIL: the statement did not stop\n{terminal.text()!r}")
        terminal.type("7 * 191\n:quit\n")
        expected_status, final_line = 0, INTERRUPTED.pattern
    else:
        explained = terminal.text().find(EXPLANATION)
        if terminal.wait_for(PROGRESS.pattern, explained, 3) is None:
            terminal.process.kill()
            sys.exit(f"FAIL: the progress line did not come back under the explanation\n{terminal.text()!r}")
        terminal.type("\x03")
        expected_status, final_line = 130, "^" + re.escape(QUIT) + "$"
    status = terminal.finish(30)
    lines = screen_lines(terminal.text())
    failure = check_screen(lines, final_line)
    if status != expected_status:
        failure = f"cas ended with status {status}, not {expected_status}"
    elif mode == "stop" and "1337" not in lines:
        failure = "the statement after the interrupted one printed nothing"
    if failure:
        print(f"FAIL: {failure}\nthe screen:\n" + "\n".join(lines) + f"\nthe bytes:\n{terminal.text()!r}")
        sys.exit(1)
    print(f"ok ({mode})")


if __name__ == "__main__":
    run(sys.argv[1], sys.argv[2])
