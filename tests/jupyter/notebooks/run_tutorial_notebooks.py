#!/usr/bin/python3
"""Runs every committed tutorial notebook (examples/tutorial/NN_name.ipynb) with nbclient on the
cas kernel, in the tutorial's folder, as a reader would: every chapter must have its notebook,
no cell may end in an error or write to stderr, and the notebooks with tables and pictures must
show them (the stage tables as HTML tables, the butterfly diagram and the DFT matrix as SVG).

    run_tutorial_notebooks.py --tutorial DIR

Jupyter finds the cas kernel through JUPYTER_PATH (the test's kernelspec fixture sets it).
"""

import argparse
import sys
import time
from pathlib import Path

import nbformat
from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel
from nbclient import NotebookClient
from nbclient.exceptions import CellTimeoutError, DeadKernelError

# notebook: [(MIME type, a text every such display holds, how many at least)]. The SVG texts are
# what algebra/teaching/teaching_svg.cpp always draws: the butterfly diagram's heading, the DFT
# matrix's title.
EXPECTED_DISPLAYS = {
    "04_dft_matrix.ipynb": [("image/svg+xml", "DFT matrix", 1)],
    "05_evaluation_interpolation.ipynb": [("text/html", "<table", 1)],
    "06_fft_stage_by_stage.ipynb": [("image/svg+xml", "butterfly: (a, b)", 1), ("text/html", "<table", 3)],
    "09_six_step.ipynb": [("text/html", "<table", 4)],
}


def run(path):
    """The notebook executed afresh (the committed outputs cleared first); [] or the problems."""
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    client = NotebookClient(nb, kernel_name="cas", timeout=120, startup_timeout=60, allow_errors=True,
                            resources={"metadata": {"path": str(path.parent)}})
    try:
        client.execute()
    except (CellTimeoutError, DeadKernelError) as error:  # errors in cells are outputs (allow_errors)
        return [f"execution stopped: {type(error).__name__}: {error}"]
    return error_outputs(nb) + missing_displays(path.name, nb)


def error_outputs(nb):
    problems = []
    for number, cell in enumerate(nb.cells, start=1):
        for out in cell.get("outputs", []):
            if out.output_type == "error":
                problems.append(f"cell {number}: error {out.ename}: {out.evalue}")
            elif out.output_type == "stream" and out.name == "stderr":
                problems.append(f"cell {number}: on stderr: {out.text.strip()}")
    return problems


def displays(nb, mime):
    return [out.data[mime] for cell in nb.cells for out in cell.get("outputs", [])
            if out.output_type in ("display_data", "execute_result") and mime in out.data]


def missing_displays(name, nb):
    problems = []
    for mime, text, at_least in EXPECTED_DISPLAYS.get(name, []):
        found = sum(text in shown for shown in displays(nb, mime))
        if found < at_least:
            problems.append(f"{found} {mime} outputs with {text!r}, expected at least {at_least}")
    return problems


def notebooks(tutorial):
    """The notebooks of the chapters; a chapter without one is a problem."""
    chapters = sorted(tutorial.glob("[0-9][0-9]_*.cas"))
    missing = [c.name for c in chapters if not c.with_suffix(".ipynb").exists()]
    return [c.with_suffix(".ipynb") for c in chapters if c.with_suffix(".ipynb").exists()], missing


def kernel_missing():
    try:
        KernelSpecManager().get_kernel_spec("cas")
        return None
    except NoSuchKernel:
        return "Jupyter finds no kernel named cas (JUPYTER_PATH should hold its kernelspec)"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tutorial", type=Path, required=True, help="examples/tutorial")
    tutorial = parser.parse_args().tutorial.resolve()
    no_kernel = kernel_missing()
    if no_kernel:
        print(f"FAILED: {no_kernel}")
        return 1
    paths, missing = notebooks(tutorial)
    failures = [f"{name} has no notebook (make_notebooks.py makes it)" for name in missing]
    if not paths:
        failures.append(f"no tutorial notebooks in {tutorial}")
    for path in paths:
        started = time.monotonic()
        problems = run(path)
        print(f"{path.name}: {'ok' if not problems else 'FAILED'} ({time.monotonic() - started:.1f} s)")
        failures += [f"{path.name}: {problem}" for problem in problems]
    for failure in failures:
        print(f"FAILED: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
