"""The teaching functions in a notebook: tables as display_data with text/html (and the text
trace the REPL prints as text/plain), pictures as image/svg+xml, each before the value; a
picture given a file name is written there (in the kernel's cwd) and not shown."""
import os
import xml.etree.ElementTree as ElementTree

import kernel_session
from kernel_session import KernelTestCase

V = "[1,2,1,2,1,2,1,2]"
W = "2 mod 17"
FFT_OF_V = "[12, 0, 0, 0, 13, 0, 0, 0] mod 17"


class TeachingDisplaysTest(KernelTestCase):
    def single_display_then_value(self, code, expected_value):
        """The one display of `code`, after checking that it comes before the value."""
        run = self.run_ok(code)
        displays = run.displays()
        self.assertEqual(len(displays), 1, run.transcript())
        self.assert_plain_results(run, [expected_value])
        kinds = run.kinds()
        self.assertLess(kinds.index("display_data"), kinds.index("execute_result"), run.transcript())
        return run, displays[0]["data"]

    def assert_svg_picture(self, run, data):
        svg = data["image/svg+xml"]
        self.assertTrue(svg.lstrip().startswith(("<svg", "<?xml")), run.transcript())
        root = ElementTree.fromstring(svg)
        self.assertEqual(root.tag, "{http://www.w3.org/2000/svg}svg", run.transcript())

    def test_fftsteps_shows_a_table_per_stage_and_the_text_trace(self):
        code = f"fftsteps({V}, {W})"
        run, data = self.single_display_then_value(code, FFT_OF_V)
        # Bit reversal, then log2(8) = 3 stages.
        self.assertGreaterEqual(data["text/html"].count("<table"), 4, run.transcript())
        # `cas -e` prints the same trace as text, then the value.
        self.assertEqual(data["text/plain"] + FFT_OF_V + "\n", kernel_session.cas_script_output(code), run.transcript())

    def test_butterfly_shows_an_svg_picture(self):
        run, data = self.single_display_then_value(f"butterfly({V}, {W})", FFT_OF_V)
        self.assert_svg_picture(run, data)
        self.assertEqual(data["text/plain"], "butterfly diagram of the Cooley-Tukey FFT of length 8", run.transcript())

    def test_dftmatrix_svg_shows_an_svg_picture(self):
        matrix = kernel_session.cas_script_output(f"dftmatrix(8, {W})")
        run = self.run_ok(f'dftmatrix(8, {W}, "svg")')
        displays = run.displays()
        self.assertEqual(len(displays), 1, run.transcript())
        self.assert_svg_picture(run, displays[0]["data"])
        # The value is the matrix, shown as the REPL shows it (an aligned grid).
        self.assertEqual(len(run.results()), 1, run.transcript())
        self.assertEqual(run.plain_results()[0].replace(" ", "").replace("\n", ""),
                         matrix.replace(" ", "").replace("\n", ""), run.transcript())

    def test_sixstep_shows_html_tables(self):
        run, data = self.single_display_then_value(f"sixstep({V}, {W}, 2, 4)", FFT_OF_V)
        self.assertIn("<table", data["text/html"], run.transcript())

    def test_evaltable_shows_an_html_table(self):
        values = [(pow(2, 2 * i, 17) + 1) % 17 for i in range(8)]  # f(w^i) for f = x^2 + 1, w = 2
        expected = "[" + ", ".join(map(str, values)) + "] mod 17"
        run, data = self.single_display_then_value(f"evaltable(x^2 + 1, {W}, 8)", expected)
        self.assertIn("<table", data["text/html"], run.transcript())

    def test_butterfly_with_a_file_name_writes_the_file_and_shows_nothing(self):
        path = os.path.join(self.folder.name, "fft8.svg")
        run = self.run_ok(f'butterfly({V}, {W}, "fft8.svg")')
        self.assertEqual(run.contents("display_data"), [], run.transcript())
        self.assert_plain_results(run, [FFT_OF_V])
        self.assertTrue(os.path.isfile(path), run.transcript())
        with open(path, encoding="utf-8") as picture:
            self.assertTrue(picture.read().lstrip().startswith(("<svg", "<?xml")), path)


AREAS = {"teaching": [TeachingDisplaysTest]}
