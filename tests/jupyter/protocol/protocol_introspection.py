"""kernel_info, complete, inspect and is_complete requests: what a notebook asks the kernel
without running a cell."""
import kernel_session
from kernel_session import KernelTestCase


class KernelInfoTest(KernelTestCase):
    def test_language_info_names_cas_and_borrows_python_highlighting(self):
        info = self.kernel.kernel_info()
        language = info.reply["language_info"]
        self.assertEqual(info.reply["status"], "ok", info.transcript())
        self.assertEqual(language["name"], "cas", info.transcript())
        self.assertEqual(language["file_extension"], ".cas", info.transcript())
        self.assertEqual(language["mimetype"], "text/x-cas", info.transcript())
        self.assertEqual(language["codemirror_mode"], "python", info.transcript())
        self.assertEqual(language["pygments_lexer"], "python", info.transcript())

    def test_implementation_and_versions_are_those_of_the_cas_under_test(self):
        info = self.kernel.kernel_info()
        version = kernel_session.run_cas("--version").stdout.split()[-1]  # "cas 1.2.3"
        self.assertEqual(info.reply["implementation"], "cas", info.transcript())
        self.assertEqual(info.reply["implementation_version"], version, info.transcript())
        self.assertEqual(info.reply["language_info"]["version"], version, info.transcript())
        self.assertRegex(info.reply["protocol_version"], r"^5\.\d+$", info.transcript())

    def test_banner_names_cas(self):
        info = self.kernel.kernel_info()
        self.assertRegex(info.reply["banner"], r"^cas \S+: polynomial algebra", info.transcript())


class CompleteTest(KernelTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.kernel.execute("my_long_variable = 3")

    def assert_completes(self, code, cursor, expected_match, start, end):
        """`expected_match` among the matches, every match extending the typed prefix, and the
        span [start, end) that a match replaces."""
        answer = self.kernel.complete(code, cursor)
        matches = answer.reply["matches"]
        self.assertEqual(answer.reply["status"], "ok", answer.transcript())
        self.assertIn(expected_match, matches, answer.transcript())
        prefix = code[start:end]
        self.assertTrue(all(m.startswith(prefix) for m in matches), answer.transcript())
        self.assertEqual((answer.reply["cursor_start"], answer.reply["cursor_end"]), (start, end), answer.transcript())

    def test_builtin(self):
        self.assert_completes("gc", 2, "gcd", 0, 2)

    def test_stdlib_function_after_an_assignment(self):
        self.assert_completes("y = dftm", 8, "dftmatrix", 4, 8)

    def test_variable_of_the_session(self):
        self.assert_completes("1 + my_lo", 9, "my_long_variable", 4, 9)

    def test_cursor_inside_the_line_completes_the_name_before_it(self):
        self.assert_completes("gc + 1", 2, "gcd", 0, 2)

    def test_session_command_after_a_colon(self):
        answer = self.kernel.complete(":ti", 3)
        self.assertEqual(answer.reply["matches"], ["timer"], answer.transcript())
        self.assertEqual((answer.reply["cursor_start"], answer.reply["cursor_end"]), (1, 3), answer.transcript())

    def test_nothing_matches_an_unknown_prefix(self):
        answer = self.kernel.complete("zzqq", 4)
        self.assertEqual(answer.reply["matches"], [], answer.transcript())


class InspectTest(KernelTestCase):
    def assert_found(self, answer):
        self.assertEqual(answer.reply["status"], "ok", answer.transcript())
        self.assertTrue(answer.reply["found"], answer.transcript())
        return answer.reply["data"]["text/plain"]

    def test_builtin_shows_its_help(self):
        help_text = kernel_session.cas_script_output("help(gcd)").rstrip("\n")
        answer = self.kernel.inspect("gcd", 3)
        self.assertEqual(self.assert_found(answer), help_text, answer.transcript())

    def test_name_before_an_open_parenthesis(self):
        help_text = kernel_session.cas_script_output("help(gcd)").rstrip("\n")
        answer = self.kernel.inspect("gcd(", 4)
        self.assertEqual(self.assert_found(answer), help_text, answer.transcript())

    def test_stdlib_function_shows_its_help_and_its_cas_source(self):
        # help(dft) prints the signature and the comment above it; source(dft) prints that comment
        # as '#' lines and then the code, which the inspection shows after the help.
        help_text = kernel_session.cas_script_output("help(dft)").strip()
        source_lines = kernel_session.cas_script_output("source(dft)").splitlines()
        code = "\n".join(line for line in source_lines if not line.startswith("#"))
        answer = self.kernel.inspect("X = dft(v, w)", 6)
        text = self.assert_found(answer)
        self.assertTrue(text.startswith(help_text), answer.transcript())
        self.assertTrue(code.startswith("fn dft(v, w) {"), code)
        self.assertIn(code, text, answer.transcript())

    def test_stdlib_function_with_a_builtin_extension_shows_both_helps(self):
        # dftmatrix(n, w) is written in cas; its third argument is a builtin with its own help.
        extension_help = kernel_session.cas_script_output("help(dftmatrix)").strip()
        answer = self.kernel.inspect("dftmatrix", 9)
        text = self.assert_found(answer)
        self.assertIn(extension_help, text, answer.transcript())
        self.assertIn("fn dftmatrix(n, w) {", text, answer.transcript())

    def test_unknown_name_is_not_found(self):
        answer = self.kernel.inspect("no_such_name", 5)
        self.assertEqual(answer.reply["status"], "ok", answer.transcript())
        self.assertFalse(answer.reply["found"], answer.transcript())


class IsCompleteTest(KernelTestCase):
    def assert_status(self, code, expected):
        answer = self.kernel.is_complete(code)
        self.assertEqual(answer.reply["status"], expected, answer.transcript())

    def test_open_block_is_incomplete(self):
        self.assert_status("for i in [1,2] {", "incomplete")

    def test_open_call_is_incomplete(self):
        self.assert_status("f(1,", "incomplete")

    def test_trailing_operator_is_incomplete(self):
        self.assert_status("1 +", "incomplete")

    def test_expression_is_complete(self):
        self.assert_status("1 + 2", "complete")

    def test_closed_block_is_complete(self):
        self.assert_status("for i in [1,2] {\n  print(i)\n}", "complete")

    def test_command_after_complete_code_is_complete(self):
        self.assert_status("1 + 2\n:timer on", "complete")

    def test_code_that_can_no_longer_parse_is_invalid(self):
        self.assert_status("1 + * 2", "invalid")


AREAS = {"introspection": [KernelInfoTest, CompleteTest, InspectTest, IsCompleteTest]}
