"""A cas kernel started through jupyter_client, and the messages one request produces.

Every request returns a record of what came back (the shell reply and the iopub messages
with that request as their parent, in order), whose transcript() a failing assertion prints,
so that a failure shows the whole exchange and not only the value that was wrong.
"""
import json
import queue
import subprocess
import tempfile
import time
import unittest

from jupyter_client import KernelManager

KERNEL_NAME = "cas"
STARTUP_TIMEOUT_S = 30
CELL_TIMEOUT_S = 20

# The path of the cas under test, set by test_kernel.py from its --cas argument.
cas_program = None


def run_cas(*args, cwd=None):
    """Runs the cas under test as a command (not as a kernel); returns the CompletedProcess."""
    return subprocess.run([cas_program, *args], capture_output=True, text=True, timeout=60, cwd=cwd)


def cas_script_output(code):
    """What `cas -e code` prints: the oracle for the text forms the kernel shows."""
    finished = run_cas("-e", code)
    if finished.returncode != 0:
        raise AssertionError(f"cas -e {code!r} failed ({finished.returncode}): {finished.stderr}")
    return finished.stdout


class Exchange:
    """One request: the shell reply's content and the iopub messages it caused."""

    def __init__(self, request, reply, messages):
        self.request = request
        self.reply = reply
        self.messages = messages  # [(msg_type, content)], in the order they arrived

    def contents(self, msg_type):
        return [content for kind, content in self.messages if kind == msg_type]

    def kinds(self):
        return [kind for kind, _ in self.messages]

    def stream(self, name):
        """All the text of stream `name` (stdout or stderr), joined."""
        return "".join(c["text"] for c in self.contents("stream") if c["name"] == name)

    def results(self):
        """The data of each execute_result, in order."""
        return [c["data"] for c in self.contents("execute_result")]

    def plain_results(self):
        return [data["text/plain"] for data in self.results()]

    def displays(self):
        """The display_data messages that are not progress (those carry a transient display_id)."""
        return [c for c in self.contents("display_data") if not c.get("transient", {}).get("display_id")]

    def transcript(self):
        lines = [f"request: {self.request!r}", f"reply: {json.dumps(self.reply, indent=1)[:4000]}"]
        for kind, content in self.messages:
            lines.append(f"iopub {kind}: {json.dumps(content)[:2000]}")
        return "\n".join(lines)


def is_idle_status(msg_type, content):
    return msg_type == "status" and content["execution_state"] == "idle"


class CasKernel:
    """A running cas kernel and a blocking client connected to it."""

    def __init__(self, cwd):
        self.manager = KernelManager(kernel_name=KERNEL_NAME)
        self.manager.start_kernel(cwd=cwd)
        self.client = self.manager.client()
        self.client.start_channels()
        self.client.wait_for_ready(timeout=STARTUP_TIMEOUT_S)

    def stop(self):
        self.client.stop_channels()
        self.client = None  # its zmq context goes now, not at interpreter exit (which logs noise)
        if self.manager.is_alive():
            self.manager.shutdown_kernel(now=True)

    def execute(self, code, timeout=CELL_TIMEOUT_S, **options):
        return self.finish_execute(code, self.client.execute(code, **options), timeout)

    def finish_execute(self, code, msg_id, timeout=CELL_TIMEOUT_S, earlier=()):
        """Collects what an execute_request already sent produced, up to its idle status;
        `earlier` are its iopub messages taken before (by wait_for_output)."""
        deadline = time.monotonic() + timeout
        messages = list(earlier)
        self._iopub_until(msg_id, deadline, code, messages, is_idle_status)
        reply = self._shell_reply(msg_id, deadline, Exchange(code, None, messages))
        return Exchange(code, reply, messages)

    def wait_for_output(self, code, msg_id, is_wanted, timeout=CELL_TIMEOUT_S):
        """The iopub messages of a running execute_request up to the first for which
        is_wanted(msg_type, content) holds."""
        messages = []
        self._iopub_until(msg_id, time.monotonic() + timeout, code, messages, is_wanted)
        return messages

    def request(self, send, description, timeout=CELL_TIMEOUT_S):
        """A shell request other than execute: `send(client)` returns its msg_id."""
        msg_id = send(self.client)
        deadline = time.monotonic() + timeout
        reply = self._shell_reply(msg_id, deadline, Exchange(description, None, []))
        return Exchange(description, reply, [])

    def complete(self, code, cursor_pos=None):
        cursor = len(code) if cursor_pos is None else cursor_pos
        return self.request(lambda c: c.complete(code, cursor), f"complete {code!r} at {cursor}")

    def inspect(self, code, cursor_pos=None):
        cursor = len(code) if cursor_pos is None else cursor_pos
        return self.request(lambda c: c.inspect(code, cursor), f"inspect {code!r} at {cursor}")

    def is_complete(self, code):
        return self.request(lambda c: c.is_complete(code), f"is_complete {code!r}")

    def kernel_info(self):
        return self.request(lambda c: c.kernel_info(), "kernel_info")

    def _iopub_until(self, msg_id, deadline, code, messages, is_last):
        while True:
            try:
                msg = self.client.get_iopub_msg(timeout=max(deadline - time.monotonic(), 0.01))
            except queue.Empty:
                raise AssertionError("no such message before the timeout\n" + Exchange(code, None, messages).transcript())
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            messages.append((msg["msg_type"], msg["content"]))
            if is_last(msg["msg_type"], msg["content"]):
                return

    def _shell_reply(self, msg_id, deadline, so_far):
        while True:
            try:
                msg = self.client.get_shell_msg(timeout=max(deadline - time.monotonic(), 0.01))
            except queue.Empty:
                raise AssertionError("no shell reply before the timeout\n" + so_far.transcript())
            if msg["parent_header"].get("msg_id") == msg_id:
                return msg["content"]


class KernelTestCase(unittest.TestCase):
    """One kernel for the tests of a class, started in a temporary folder (its cwd)."""

    maxDiff = None

    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.TemporaryDirectory(prefix="cas-kernel-")
        cls.kernel = CasKernel(cwd=cls.folder.name)

    @classmethod
    def tearDownClass(cls):
        cls.kernel.stop()
        cls.folder.cleanup()

    def run_ok(self, code, **options):
        """Executes `code` and fails, with the transcript, unless the reply's status is ok."""
        run = self.kernel.execute(code, **options)
        self.assertEqual(run.reply["status"], "ok", run.transcript())
        self.assertEqual(run.contents("error"), [], run.transcript())
        return run

    def assert_plain_results(self, run, expected):
        self.assertEqual(run.plain_results(), expected, run.transcript())
