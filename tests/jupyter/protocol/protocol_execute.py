"""execute_request with the REPL's semantics: each statement's value as an execute_result
(text/plain exactly as the REPL prints it, text/latex beside it, or text/html for a value too
long to show whole), print() on stdout, ';' silent, `ans`; and errors located in the cell."""
import html
import re

import kernel_session
from kernel_session import KernelTestCase


class ValuesTest(KernelTestCase):
    def assert_value(self, code, plain, latex):
        run = self.run_ok(code)
        self.assertEqual(len(run.results()), 1, run.transcript())
        data = run.results()[0]
        self.assertEqual(data["text/plain"], plain, run.transcript())
        self.assertEqual(data.get("text/latex"), latex, run.transcript())
        self.assertNotIn("text/html", data, run.transcript())

    def test_polynomial_over_z(self):
        self.assert_value("f = 3*x^4 - 4*x^2", "3*x^4 - 4*x^2", "$3x^{4} - 4x^{2}$")

    def test_element_of_z_mod_p(self):
        self.assert_value("16 mod 17", "16 mod 17", r"$16 \bmod 17$")

    def test_polynomial_mod_p(self):
        self.assert_value("(x^2 + 16) mod 17", "(x^2 + 16) mod 17", r"$(x^{2} + 16) \bmod 17$")

    def test_every_statement_of_a_cell_shows_its_value_in_order(self):
        run = self.run_ok("a = 2\na + 1\na * 10")
        self.assert_plain_results(run, ["2", "3", "20"])
        counts = {c["execution_count"] for c in run.contents("execute_result")}
        self.assertEqual(counts, {run.reply["execution_count"]}, run.transcript())

    def test_semicolon_silences_the_value(self):
        run = self.run_ok("quiet = 5;")
        self.assert_plain_results(run, [])
        self.assert_plain_results(self.run_ok("quiet"), ["5"])

    def test_shown_value_becomes_ans(self):
        self.run_ok("6*7")
        self.assert_plain_results(self.run_ok("ans + 1"), ["43"])

    def test_print_goes_to_stdout(self):
        run = self.run_ok('print("hello", 6*7)')
        self.assertEqual(run.stream("stdout"), "hello 42\n", run.transcript())
        self.assertEqual(run.stream("stderr"), "", run.transcript())
        self.assert_plain_results(run, [])

    def test_silent_request_publishes_nothing(self):
        run = self.run_ok('print("hidden")\n1 + 1', silent=True)
        self.assertEqual(run.contents("stream"), [], run.transcript())
        self.assertEqual(run.contents("execute_result"), [], run.transcript())


class LongValuesTest(KernelTestCase):
    """A value the REPL elides: text/plain elided as in the REPL, and text/html whose <details>
    holds the whole value (what `cas -e` prints in full)."""

    def assert_unfoldable(self, code, whole):
        run = self.run_ok(code)
        data = run.results()[-1]
        self.assertLess(len(data["text/plain"]), len(whole), run.transcript())
        self.assertIn("...", data["text/plain"], run.transcript())
        self.assertNotIn("text/latex", data, run.transcript())
        page = data["text/html"]
        self.assertTrue(page.startswith("<details><summary>"), run.transcript())
        summary = re.search(r"<summary><code>(.*?)</code></summary>", page, re.S)
        body = re.search(r"<pre[^>]*>(.*?)</pre>", page, re.S)
        self.assertIsNotNone(summary, run.transcript())
        self.assertIsNotNone(body, run.transcript())
        self.assertEqual(html.unescape(summary.group(1)), data["text/plain"], run.transcript())
        self.assertEqual(html.unescape(body.group(1)), whole, run.transcript())

    def test_long_polynomial(self):
        whole = kernel_session.cas_script_output("(1+x)^100").rstrip("\n")
        self.assert_unfoldable("(1+x)^100", whole)

    def test_long_vector(self):
        code = "v = vector(200)\nfor i in 0..199 { v[i] = i*i }\nv"
        whole = "[" + ", ".join(str(i * i) for i in range(200)) + "]"
        self.assert_unfoldable(code, whole)


class ErrorsTest(KernelTestCase):
    """An error: reply status error, an `error` on iopub with the same fields, evalue
    "line:col: message" with the line within the cell, and a traceback of the located line,
    the source line and a caret under the column."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.kernel.execute("kept = 41")

    def assert_error(self, run, line, column, source_line):
        reply = run.reply
        self.assertEqual(reply["status"], "error", run.transcript())
        self.assertEqual(reply["ename"], "Error", run.transcript())
        published = run.contents("error")
        self.assertEqual(len(published), 1, run.transcript())
        for field in ("ename", "evalue", "traceback"):
            self.assertEqual(published[0][field], reply[field], run.transcript())
        self.assertRegex(reply["evalue"], rf"^{line}:{column}: .", run.transcript())
        message = reply["evalue"].split(": ", 1)[1]
        count = reply["execution_count"]
        self.assertEqual(reply["traceback"], [f"In[{count}]:{line}:{column}: error: {message}",
                                              f"  {source_line}",
                                              "  " + " " * (column - 1) + "^"], run.transcript())
        return message

    def test_evaluation_error_on_line_two(self):
        run = self.kernel.execute("before = 1\nafter = undefined_name + 1\nnever = 3")
        message = self.assert_error(run, 2, 9, "after = undefined_name + 1")
        self.assertIn("undefined_name", message, run.transcript())

    def test_statements_before_the_error_ran_and_those_after_did_not(self):
        self.kernel.execute("ran = 1\nfailing = 1 / 0\nskipped = 3")
        self.assert_plain_results(self.run_ok("ran"), ["1"])
        run = self.kernel.execute("skipped")
        self.assertEqual(run.reply["status"], "error", run.transcript())

    def test_error_at_the_start_of_the_cell_shows_its_source_line(self):
        run = self.kernel.execute("undefined_name\nkept")
        self.assert_error(run, 1, 1, "undefined_name")

    def test_parse_error_on_line_two(self):
        run = self.kernel.execute("fine = 1\nbroken = 2 + * 3")
        self.assert_error(run, 2, 14, "broken = 2 + * 3")

    def test_error_in_a_code_part_after_a_command_is_located_in_the_cell(self):
        run = self.kernel.execute(":timer off\nok = 1\n\nbad = undefined_name")
        self.assert_error(run, 4, 7, "bad = undefined_name")

    def test_error_inside_a_stdlib_function_names_its_file(self):
        # The position is in stdlib/fourier.cas, not in the cell: evalue says which file.
        run = self.kernel.execute("v = 1\ndft([1, 2, 3], 2 mod 17)")
        self.assertEqual(run.reply["status"], "error", run.transcript())
        self.assertRegex(run.reply["evalue"], r"^stdlib/\w+\.cas:\d+:\d+: .*primitive", run.transcript())
        self.assertRegex(run.reply["traceback"][0], r"^stdlib/\w+\.cas:\d+:\d+: error: ", run.transcript())

    def test_the_session_keeps_its_variables_after_an_error(self):
        self.kernel.execute("undefined_name")
        self.assert_plain_results(self.run_ok("kept + 1"), ["42"])


AREAS = {"execute": [ValuesTest, LongValuesTest], "errors": [ErrorsTest]}
