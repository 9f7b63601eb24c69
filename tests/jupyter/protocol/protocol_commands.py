"""Session commands in cells (`:timer`, `:explain`, `:gpu`, `:vars`, `:help`, an unknown one,
`?name`): results on stdout, complaints and timings on stderr, as in the REPL."""

import kernel_session
from kernel_session import KernelTestCase


class SessionCommandsTest(KernelTestCase):
    def test_timer_prints_one_line_per_statement_on_stderr(self):
        run = self.run_ok(":timer on\n1 + 1\n2 + 2\n:timer off")
        self.assert_plain_results(run, ["2", "4"])
        timing = r"\d+(\.\d+)?(e[-+]\d+)? ms \[cpu\]\n"
        self.assertRegex(run.stream("stderr"), rf"^{timing}{timing}$", run.transcript())

    def test_timer_off_prints_nothing(self):
        run = self.run_ok(":timer off\n1 + 1")
        self.assertEqual(run.stream("stderr"), "", run.transcript())

    def test_explain_names_the_previous_statement_and_what_ran(self):
        self.run_ok("dft([1,2,1,2,1,2,1,2], 2 mod 17);")
        run = self.run_ok(":explain")
        lines = run.stream("stdout").splitlines()
        self.assertGreaterEqual(len(lines), 2, run.transcript())
        self.assertEqual(lines[0], "the last statement: dft([1,2,1,2,1,2,1,2], 2 mod 17);", run.transcript())
        self.assertIn("dft (stdlib, written in cas; source(dft) shows it) on a vector of length 8 over Z/17Z",
                      run.stream("stdout"), run.transcript())

    def test_gpu_reports_the_device_and_the_mode(self):
        run = self.run_ok(":gpu")
        lines = run.stream("stdout").splitlines()
        self.assertGreaterEqual(len(lines), 3, run.transcript())
        self.assertRegex(lines[0], r"^device: ", run.transcript())
        # with several GPUs, one line each ("  GPU 1: ...") between the device and the mode
        mode = next(line for line in lines[1:] if not line.startswith("  GPU "))
        self.assertRegex(mode, r"^mode: (auto|on|off)", run.transcript())
        if lines[0].startswith("device: no CUDA device"):
            self.assertIn("(no usable GPU: everything runs on the CPU)", lines[1], run.transcript())

    def test_vars_lists_the_variables_with_their_kinds(self):
        self.run_ok("listed_number = 12345\nlisted_poly = (x + 1) mod 5")
        stdout = self.run_ok(":vars").stream("stdout")
        self.assertIn("  listed_number = 12345   (int)\n", stdout)
        self.assertIn("  listed_poly = (x + 1) mod 5   (modpoly)\n", stdout)

    def test_help_lists_the_commands(self):
        run = self.run_ok(":help")
        for command in (":timer on|off", ":explain", ":gpu auto|on|off", ":vars"):
            self.assertIn(command, run.stream("stdout"), run.transcript())

    def test_a_refused_command_is_an_error_that_stops_the_cell(self):
        # "Run all" must stop at a refused command as at an error, not run on past it.
        run = self.kernel.execute(":bogus\nnot_reached = 1")
        self.assertEqual(run.reply["status"], "error", run.transcript())
        self.assertEqual(run.reply["evalue"], "1:1: unknown command ':bogus' (try :help)", run.transcript())
        self.assertEqual(run.reply["traceback"], ["error: unknown command ':bogus' (try :help)"], run.transcript())
        self.assertEqual(run.stream("stdout") + run.stream("stderr"), "", run.transcript())
        self.assertEqual(self.kernel.execute("not_reached").reply["status"], "error")

    def test_load_of_a_missing_file_is_an_error(self):
        run = self.kernel.execute("1\n:load no_such_file.cas")
        self.assertEqual(run.reply["status"], "error", run.transcript())
        self.assertRegex(run.reply["evalue"], r"^2:1: .*no_such_file\.cas", run.transcript())
        self.assertEqual(run.plain_results(), ["1"], run.transcript())

    def test_quit_leaves_the_kernel_running_and_says_why(self):
        run = self.run_ok(":quit")
        self.assertRegex(run.stream("stderr"), r"^notice: :quit leaves a terminal session", run.transcript())
        self.assert_plain_results(self.run_ok("1 + 1"), ["2"])

    def test_question_mark_shows_the_help_of_a_function(self):
        run = self.run_ok("?gcd")
        self.assertEqual(run.stream("stdout"), kernel_session.cas_script_output("help(gcd)"), run.transcript())
        self.assertRegex(run.stream("stdout"), r"^gcd\(", run.transcript())


AREAS = {"commands": [SessionCommandsTest]}
