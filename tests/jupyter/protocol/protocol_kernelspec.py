"""`cas --install-kernel`: the kernelspec that the other tests start the kernel from, and the
command's answer to options it does not know."""
import json
import os
import struct
import tempfile
import unittest

from jupyter_client.kernelspec import KernelSpecManager

import kernel_session

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(path):
    """(width, height) from the PNG's IHDR chunk, which follows the signature."""
    with open(path, "rb") as png:
        header = png.read(24)
    if header[:8] != PNG_SIGNATURE or header[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", header[16:24])


class InstalledKernelspecTest(unittest.TestCase):
    """The kernelspec the fixture installed under JUPYTER_PATH."""

    @classmethod
    def setUpClass(cls):
        cls.folder = os.path.join(os.environ["JUPYTER_PATH"].split(os.pathsep)[0], "kernels", "cas")

    def test_jupyter_finds_this_kernelspec(self):
        spec_folder = KernelSpecManager().find_kernel_specs().get("cas")
        self.assertEqual(os.path.realpath(spec_folder), os.path.realpath(self.folder))

    def test_kernel_json_starts_the_cas_under_test(self):
        with open(os.path.join(self.folder, "kernel.json"), encoding="utf-8") as file:
            spec = json.load(file)
        self.assertEqual(spec["argv"], [os.path.realpath(kernel_session.cas_program), "--jupyter-kernel", "-f",
                                        "{connection_file}"])
        self.assertTrue(os.path.isabs(spec["argv"][0]))
        self.assertEqual(spec["display_name"], "cas")
        self.assertEqual(spec["language"], "cas")
        self.assertEqual(spec["interrupt_mode"], "signal")

    def test_logos_are_pngs_of_their_size_and_an_svg(self):
        self.assertEqual(png_size(os.path.join(self.folder, "logo-32x32.png")), (32, 32))
        self.assertEqual(png_size(os.path.join(self.folder, "logo-64x64.png")), (64, 64))
        with open(os.path.join(self.folder, "logo-svg.svg"), encoding="utf-8") as svg:
            self.assertTrue(svg.read().lstrip().startswith(("<svg", "<?xml")))


class InstallCommandTest(unittest.TestCase):
    def test_prefix_gets_the_same_files(self):
        with tempfile.TemporaryDirectory(prefix="cas-kernelspec-") as prefix:
            finished = kernel_session.run_cas("--install-kernel", "--prefix", prefix)
            folder = os.path.join(prefix, "share", "jupyter", "kernels", "cas")
            self.assertEqual(finished.returncode, 0, finished.stderr)
            self.assertEqual(sorted(os.listdir(folder)),
                             ["kernel.json", "logo-32x32.png", "logo-64x64.png", "logo-svg.svg"])
            self.assertIn(folder, finished.stdout)

    def test_unknown_option_exits_2_naming_it(self):
        finished = kernel_session.run_cas("--install-kernel", "--bogus")
        self.assertEqual(finished.returncode, 2, finished.stderr)
        self.assertIn("'--bogus'", finished.stderr)

    def test_prefix_without_a_folder_exits_2(self):
        finished = kernel_session.run_cas("--install-kernel", "--prefix")
        self.assertEqual(finished.returncode, 2, finished.stderr)
        self.assertIn("--prefix needs a folder", finished.stderr)


AREAS = {"kernelspec": [InstalledKernelspecTest, InstallCommandTest]}
