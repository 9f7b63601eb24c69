"""The cas Jupyter kernel driven through jupyter_client, one area of the protocol per run:

    test_kernel.py --cas PATH AREA [AREA ...]

PATH is the cas under test (its kernelspec must be on JUPYTER_PATH); AREA one of the names
below. Each area's tests share one kernel; a failing test prints the messages it received.
"""
import argparse
import sys
import unittest

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__

import kernel_session  # noqa: E402 (after the line above)
import protocol_commands  # noqa: E402
import protocol_execute  # noqa: E402
import protocol_introspection  # noqa: E402
import protocol_kernelspec  # noqa: E402
import protocol_lifecycle  # noqa: E402
import protocol_teaching  # noqa: E402

AREAS = {}
for module in (protocol_kernelspec, protocol_introspection, protocol_execute, protocol_commands, protocol_teaching,
               protocol_lifecycle):
    AREAS.update(module.AREAS)


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cas", required=True, help="the cas program under test")
    parser.add_argument("areas", nargs="+", choices=sorted(AREAS), metavar="AREA",
                        help="one of: " + ", ".join(sorted(AREAS)))
    return parser.parse_args()


def main():
    arguments = parse_arguments()
    kernel_session.cas_program = arguments.cas
    loader = unittest.TestLoader()
    suite = unittest.TestSuite(loader.loadTestsFromTestCase(case) for area in arguments.areas for case in AREAS[area])
    result = unittest.TextTestRunner(verbosity=2, stream=sys.stdout).run(suite)
    return 0 if result.wasSuccessful() and result.testsRun > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
