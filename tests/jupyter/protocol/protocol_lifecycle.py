"""A cell's life beyond its output: the progress display of a long cell, interrupting it, and
restarting and shutting down the kernel."""
import re
import time

from kernel_session import KernelTestCase

# A cell that runs for about `seconds` on any machine: short loops timed until they add up.
SPIN = "fn spin(n) { s = 0; for i in 1..n { s = s + i }; s }"


def busy_cell(seconds):
    return f"elapsed = 0\nwhile elapsed < {seconds} {{ elapsed = elapsed + time(spin(2000)) }}"


def is_value(plain):
    """A predicate for wait_for_output: the execute_result whose text/plain is `plain`."""
    return lambda msg_type, content: msg_type == "execute_result" and content["data"]["text/plain"] == plain


def page_outputs(run):
    """The cell's outputs as a notebook page keeps them once the messages of `run` have come, built
    as the classic notebook's OutputArea (and nbclient) build them: streams of one name merged,
    update_display_data replacing the outputs of its display_id, clear_output emptying the cell
    (with wait, when the next output comes). Each output as (kind, text): a stream's name and
    text, or a display's, result's or error's text/plain (an error's ename and evalue)."""
    outputs, display_ids, clear_waiting = [], {}, False
    for kind, content in run.messages:
        if kind == "clear_output":
            if content.get("wait"):
                clear_waiting = True
            else:
                outputs, display_ids, clear_waiting = [], {}, False
            continue
        if kind == "update_display_data":
            for index in display_ids.get(content.get("transient", {}).get("display_id"), []):
                outputs[index] = ("display_data", content["data"].get("text/plain"))
            continue
        if kind not in ("stream", "display_data", "execute_result", "error"):
            continue
        if clear_waiting:
            outputs, display_ids, clear_waiting = [], {}, False
        if kind == "stream":
            if outputs and outputs[-1][0] == "stream " + content["name"]:
                outputs[-1] = (outputs[-1][0], outputs[-1][1] + content["text"])
            else:
                outputs.append(("stream " + content["name"], content["text"]))
            continue
        if kind == "error":
            outputs.append(("error", f"{content['ename']}: {content['evalue']}"))
            continue
        display_id = content.get("transient", {}).get("display_id")
        if display_id:
            display_ids.setdefault(display_id, []).append(len(outputs))
        outputs.append((kind, content["data"].get("text/plain")))
    return outputs


class ProgressTest(KernelTestCase):
    """A cell running past a second shows one display (display_data with a transient
    display_id), updated in place with the elapsed time. When the cell ends the display goes:
    Jupyter has no message that takes one output away, so the cell's outputs are cleared
    (clear_output, wait) and published again without it, and the page keeps no empty output."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.kernel.execute(SPIN)

    @staticmethod
    def progress_messages(run):
        return [(kind, content) for kind, content in run.messages
                if kind in ("display_data", "update_display_data") and content.get("transient", {}).get("display_id")]

    def test_long_cell_shows_progress_updated_in_place(self):
        started = time.monotonic()
        run = self.run_ok(busy_cell(2.5))
        self.assertGreaterEqual(time.monotonic() - started, 2.5, run.transcript())
        progress = self.progress_messages(run)
        kinds = [kind for kind, _ in progress]
        self.assertGreaterEqual(len(progress), 3, run.transcript())
        self.assertEqual(kinds[0], "display_data", run.transcript())
        self.assertEqual(set(kinds[1:]), {"update_display_data"}, run.transcript())
        display_ids = {content["transient"]["display_id"] for _, content in progress}
        self.assertEqual(len(display_ids), 1, run.transcript())

        shown = [content["data"]["text/plain"] for _, content in progress]
        seconds = [self.elapsed_seconds(run, text) for text in shown]
        self.assertGreaterEqual(seconds[0], 1.0, run.transcript())  # not before a second has passed
        self.assertEqual(seconds, sorted(seconds), run.transcript())
        self.assertGreater(seconds[-1], seconds[0], run.transcript())

    def elapsed_seconds(self, run, text):
        match = re.match(r"^(\d+\.\d) s( |$)", text)
        self.assertIsNotNone(match, f"progress text {text!r}\n" + run.transcript())
        return float(match.group(1))

    def test_long_cell_leaves_the_outputs_of_a_quick_one(self):
        # Output before, during and after the progress display: the page ends with the outputs
        # the same cell leaves when it is quick, in their order, and nothing else.
        cell = 'print("before")\n{}\nprint("after")\n6 * 7'
        quick = page_outputs(self.run_ok(cell.format(busy_cell(0))))
        self.assertEqual(quick, [("stream stdout", "before\n"), ("execute_result", "0"),
                                 ("stream stdout", "after\n"), ("execute_result", "42")])
        run = self.run_ok(cell.format(busy_cell(2.5)))
        self.assertNotEqual(self.progress_messages(run), [], run.transcript())
        self.assertEqual(page_outputs(run), quick, run.transcript())
        last_progress = max(i for i, (kind, content) in enumerate(run.messages)
                            if (kind, content) in self.progress_messages(run))
        self.assertIn("clear_output", run.kinds()[last_progress:], run.transcript())

    def test_long_cell_without_output_leaves_none(self):
        run = self.run_ok(busy_cell(1.5) + ";")
        self.assertNotEqual(self.progress_messages(run), [], run.transcript())
        self.assertEqual(page_outputs(run), [("execute_result", "0")], run.transcript())
        run = self.run_ok("spin(2000);\n" + busy_cell(1.5).replace("\n", ";\n") + ";")
        self.assertNotEqual(self.progress_messages(run), [], run.transcript())
        self.assertEqual(page_outputs(run), [], run.transcript())
        self.assertEqual(run.contents("clear_output"), [{"wait": False}], run.transcript())

    def test_interrupted_long_cell_leaves_its_outputs_and_the_error(self):
        code = "before = 7\nwhile true { 1 }"
        msg_id = self.kernel.client.execute(code)
        started = self.kernel.wait_for_output(
            code, msg_id, lambda kind, content: kind == "display_data" and "transient" in content)
        time.sleep(0.5)
        self.kernel.manager.interrupt_kernel()
        run = self.kernel.finish_execute(code, msg_id, timeout=10, earlier=started)
        self.assertEqual(run.reply["status"], "error", run.transcript())
        self.assertEqual(page_outputs(run), [("execute_result", "7"), ("error", "Interrupted: 2:1: interrupted")],
                         run.transcript())

    def test_quick_cell_shows_no_progress(self):
        run = self.run_ok("1 + 1")
        self.assertEqual(self.progress_messages(run), [], run.transcript())
        self.assertEqual(run.contents("update_display_data"), [], run.transcript())
        self.assertEqual(run.contents("clear_output"), [], run.transcript())


class InterruptTest(KernelTestCase):
    def test_interrupt_stops_a_running_cell_and_keeps_the_session(self):
        self.run_ok("kept = 41")
        code = "before = 7\ncounter = 0\nwhile true { counter = counter + 1 }"
        msg_id = self.kernel.client.execute(code)
        # The value of `counter = 0` shows that the cell runs (an interrupt between cells is
        # ignored); the loop then runs a while before it is interrupted.
        started = self.kernel.wait_for_output(code, msg_id, is_value("0"))
        time.sleep(1.0)
        interrupted_at = time.monotonic()
        self.kernel.manager.interrupt_kernel()
        run = self.kernel.finish_execute(code, msg_id, timeout=10, earlier=started)
        self.assertLess(time.monotonic() - interrupted_at, 5, run.transcript())
        self.assertEqual(run.reply["status"], "error", run.transcript())
        self.assertEqual(run.reply["ename"], "Interrupted", run.transcript())
        self.assertRegex(run.reply["evalue"], r"^3:\d+: interrupted$", run.transcript())
        self.assertEqual([e["ename"] for e in run.contents("error")], ["Interrupted"], run.transcript())

        self.assert_plain_results(self.run_ok("kept + 1\nbefore\ncounter > 0"), ["42", "7", "true"])

    def test_interrupt_between_cells_changes_nothing(self):
        self.kernel.manager.interrupt_kernel()
        time.sleep(0.3)
        self.assert_plain_results(self.run_ok("n = 0\nfor i in 1..1000 { n = n + i }\nn"), ["0", "500500"])


class RestartTest(KernelTestCase):
    def test_restart_forgets_the_variables_and_answers(self):
        self.run_ok("forgotten = 1")
        old_pid = self.kernel.manager.provisioner.pid
        self.kernel.manager.restart_kernel()
        self.kernel.client.wait_for_ready(timeout=30)
        self.assertNotEqual(self.kernel.manager.provisioner.pid, old_pid)
        run = self.kernel.execute("forgotten")
        self.assertEqual(run.reply["status"], "error", run.transcript())
        self.assertIn("forgotten", run.reply["evalue"], run.transcript())
        self.assert_plain_results(self.run_ok("1 + 1"), ["2"])


class ShutdownTest(KernelTestCase):
    def test_shutdown_request_ends_the_process_by_itself(self):
        self.run_ok("1 + 1")
        process = self.kernel.manager.provisioner.process
        # now=False: a shutdown_request, then a wait; a kernel still running after the wait
        # would be killed, and its exit status would say so.
        self.kernel.manager.shutdown_kernel(now=False)
        self.assertFalse(self.kernel.manager.is_alive())
        self.assertEqual(process.poll(), 0)


class ShutdownDuringCellTest(KernelTestCase):
    """A notebook shuts down a kernel that is stuck in a cell: it must still exit by itself."""

    def test_shutdown_request_ends_a_kernel_whose_cell_is_running(self):
        code = "started = 1\nwhile true { 1 }"
        self.kernel.wait_for_output(code, self.kernel.client.execute(code), is_value("1"))
        time.sleep(0.5)
        process = self.kernel.manager.provisioner.process
        self.kernel.manager.shutdown_kernel(now=False)
        self.assertFalse(self.kernel.manager.is_alive())
        self.assertEqual(process.poll(), 0)


AREAS = {
    "progress": [ProgressTest],
    "interrupt": [InterruptTest],
    "lifecycle": [RestartTest, ShutdownTest, ShutdownDuringCellTest],
}
