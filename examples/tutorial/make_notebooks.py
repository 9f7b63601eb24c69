#!/usr/bin/python3
"""Makes the tutorial notebooks NN_name.ipynb from the chapters NN_name.cas beside this script.

Each chapter becomes a notebook: runs of top-level comment lines become markdown cells, runs of
code become code cells (a block { ... } stays whole, comments and blank lines included; a blank
line or a comment at the top level ends a code cell). The notebook is then run by nbclient on the
cas kernel, in this folder, and saved with its outputs, so that the tables and pictures show on
GitHub without running anything. The files are deterministic (no timings, fixed metadata, fixed
cell ids): making them twice gives the same bytes, which --check relies on.

    make_notebooks.py [--cas PATH] [--out DIR]   write the notebooks (default: beside the chapters)
    make_notebooks.py [--cas PATH] --check       make them in a temporary folder and compare with
                                                 the committed ones; exit 1 naming what differs

--cas PATH installs a kernelspec for that cas in a temporary folder and runs the notebooks on it;
without it, the kernel "cas" that Jupyter finds (cas --install-kernel) runs them.
Needs Debian's python3-nbformat and python3-nbclient (run with /usr/bin/python3).
"""

import argparse
import difflib
import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

TUTORIAL_DIR = Path(__file__).resolve().parent
KERNEL_NAME = "cas"
KERNELSPEC = {"name": "cas", "display_name": "cas", "language": "cas"}
CELL_TIMEOUT_S = 120
STARTUP_TIMEOUT_S = 60


# ---- a chapter as markdown and code blocks ----------------------------------------------------

@dataclass
class Block:
    kind: str  # "markdown" (comment lines, '#' kept) or "code"
    lines: list = field(default_factory=list)


def is_comment(line):
    return line.lstrip().startswith("#")


def is_blank(line):
    return not line.strip()


def bracket_balance(line):
    """Opened minus closed brackets of all kinds on a line of cas, outside strings and comments."""
    balance, in_string, escaped = 0, False, False
    for ch in line:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "#":
            break
        elif ch in "([{":
            balance += 1
        elif ch in ")]}":
            balance -= 1
    return balance


def split_chapter(text):
    """The chapter as alternating blocks. Inside brackets (a block, a call over several lines)
    every line belongs to the code; at the top level comments make markdown and blank lines
    separate cells."""
    blocks, depth = [], 0
    closed = True  # a blank line ended the last block
    for line in text.splitlines():
        if depth > 0:
            blocks[-1].lines.append(line)
            depth += bracket_balance(line)
            continue
        if is_blank(line):
            closed = True
            continue
        kind = "markdown" if is_comment(line) else "code"
        if closed or not blocks or blocks[-1].kind != kind:
            blocks.append(Block(kind))
        closed = False
        blocks[-1].lines.append(line)
        if kind == "code":
            depth = max(0, bracket_balance(line))
    return merge_markdown_blocks(blocks)


def merge_markdown_blocks(blocks):
    """Comment runs separated only by blank lines are one text: one markdown cell, paragraphs
    kept apart by an empty comment line."""
    merged = []
    for block in blocks:
        if merged and block.kind == "markdown" and merged[-1].kind == "markdown":
            merged[-1].lines += ["#"] + block.lines
        else:
            merged.append(block)
    return merged


# ---- comments as markdown ----------------------------------------------------------------------

RUN_LINE = re.compile(r"^Run it with\s+cas\s+(\S+)\s*$")
RULER_HEADING = re.compile(r"^-{2,}\s*(.*?)\s*-{2,}$")
CHAPTER_TITLE = re.compile(r"^Chapter \d+:")
INLINE_CODE = re.compile(r"(`[^`]*`)")


def comment_text(line):
    """The text of a comment line: '#' and the one space after it removed."""
    text = line.lstrip()[1:]
    return text[1:] if text.startswith(" ") else text


def escape_markdown(text):
    """Text that markdown shows as written: '*' and '_' are not emphasis ('s*3 + t*5' would be),
    '<' before a letter opens no HTML tag; `code` spans stay as they are."""
    pieces = INLINE_CODE.split(text)
    for i in range(0, len(pieces), 2):  # the even pieces are outside `...`
        piece = pieces[i].replace("\\", "\\\\")
        piece = re.sub(r"([*_$])", r"\\\1", piece)
        pieces[i] = re.sub(r"<(?=[A-Za-z/!?])", r"\\<", piece)
    return "".join(pieces)


def run_note(chapter_name):
    return (f"*This notebook is made from the chapter `{chapter_name}` by `make_notebooks.py`: edit the "
            f"chapter, not the notebook. Run all cells on the cas kernel (`cas --install-kernel`, then "
            f"Cell > Run All); the chapter also runs as a script, "
            f"`cas examples/tutorial/{chapter_name}`.*")


def markdown_from_comments(lines, chapter_name):
    """Paragraphs of text; lines indented further than the text (the lecture's formulas) as code
    blocks; '---- Title ----' and the chapter's first line as headings; the 'Run it with' line as
    a note on running the notebook."""
    paragraphs, text, formula = [], [], []

    def end_paragraph():
        if text:
            paragraphs.append("\n".join(text))
            text.clear()
        if formula:
            indent = min(len(l) - len(l.lstrip()) for l in formula)
            paragraphs.append("```\n" + "\n".join(l[indent:] for l in formula) + "\n```")
            formula.clear()

    for line in map(comment_text, lines):
        if line.startswith("  ") and line.strip():
            if text:
                end_paragraph()
            formula.append(line.rstrip())
            continue
        if formula or not line.strip():
            end_paragraph()
        if not line.strip():
            continue
        if RUN_LINE.match(line):
            end_paragraph()
            paragraphs.append(run_note(chapter_name))
        elif RULER_HEADING.match(line):
            end_paragraph()
            paragraphs.append("## " + escape_markdown(RULER_HEADING.match(line).group(1)))
        elif CHAPTER_TITLE.match(line) and not paragraphs and not text:
            paragraphs.append("# " + escape_markdown(line.strip()))
        else:
            text.append(escape_markdown(line.rstrip()))
    end_paragraph()
    return "\n\n".join(paragraphs)


# ---- notebooks ---------------------------------------------------------------------------------

def notebook_from_chapter(chapter):
    """The unexecuted notebook of a chapter, with fixed cell ids and metadata."""
    nb = nbformat.v4.new_notebook()
    nb.metadata = {"kernelspec": dict(KERNELSPEC)}
    for number, block in enumerate(split_chapter(chapter.read_text(encoding="utf-8")), start=1):
        if block.kind == "markdown":
            cell = nbformat.v4.new_markdown_cell(markdown_from_comments(block.lines, chapter.name))
        else:
            cell = nbformat.v4.new_code_cell("\n".join(block.lines))
        cell.id = f"cell-{number:02d}"
        nb.cells.append(cell)
    return nb


def execute_notebook(nb, working_dir):
    """Runs every cell on the cas kernel in `working_dir`; nbclient stops at the first error."""
    client = NotebookClient(nb, kernel_name=KERNEL_NAME, timeout=CELL_TIMEOUT_S,
                            startup_timeout=STARTUP_TIMEOUT_S, record_timing=False, allow_errors=False,
                            resources={"metadata": {"path": str(working_dir)}})
    client.execute()


def merged_streams(outputs):
    """Adjacent text on one stream as one output: the kernel publishes a cell's text in pieces,
    as it comes, and where it cuts depends on timing."""
    merged = []
    for out in outputs:
        if (out.output_type == "stream" and merged and merged[-1].output_type == "stream"
                and merged[-1].name == out.name):
            merged[-1].text += out.text
        else:
            merged.append(out)
    return merged


def is_finished_progress(out):
    """The progress line of a cell that ran more than a second, emptied when it ended."""
    return out.output_type == "display_data" and dict(out.data) == {"text/plain": ""}


def normalize(nb):
    """What depends on the run, not the chapter, taken out: the kernel's progress lines, how the
    text was cut, cell metadata nbclient adds; the kernelspec fixed."""
    nb.metadata = {"kernelspec": dict(KERNELSPEC), "language_info": nb.metadata.get("language_info", {})}
    for cell in nb.cells:
        cell.metadata = {}
        if cell.cell_type == "code":
            cell.outputs = merged_streams([o for o in cell.outputs if not is_finished_progress(o)])


def error_outputs(nb):
    """(cell number, text) of every error output and every text on stderr."""
    found = []
    for number, cell in enumerate(nb.cells, start=1):
        for out in cell.get("outputs", []):
            if out.output_type == "error":
                found.append((number, f"{out.ename}: {out.evalue}"))
            elif out.output_type == "stream" and out.name == "stderr":
                found.append((number, "stderr: " + out.text.strip()))
    return found


def notebook_text(nb):
    nbformat.validate(nb)
    text = nbformat.writes(nb)
    return text if text.endswith("\n") else text + "\n"


class NotebookFailure(Exception):
    pass


def make_notebook(chapter):
    """The executed notebook of a chapter as the text of its file."""
    nb = notebook_from_chapter(chapter)
    try:
        execute_notebook(nb, chapter.parent)
    except CellExecutionError as error:
        raise NotebookFailure(f"{chapter.name}: a cell failed:\n{error}") from None
    normalize(nb)
    errors = error_outputs(nb)
    if errors:
        raise NotebookFailure(f"{chapter.name}: error output in " +
                              "; ".join(f"cell {number}: {text}" for number, text in errors))
    return notebook_text(nb)


def chapters():
    return sorted(TUTORIAL_DIR.glob("[0-9][0-9]_*.cas"))


def write_notebooks(out_dir):
    """Makes every chapter's notebook in out_dir; returns their paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for chapter in chapters():
        target = out_dir / chapter.with_suffix(".ipynb").name
        target.write_text(make_notebook(chapter), encoding="utf-8", newline="\n")
        written.append(target)
    return written


# ---- --check: the committed notebooks against fresh ones ---------------------------------------

def cell_label(cell, number):
    """'cell 9 (code: 'Y = fftsteps(v, w, "stockham");')': the first line that tells the cell
    apart (the chapters start their sections with print("") for a blank line)."""
    lines = [l for l in cell.get("source", "").splitlines() if l.strip() not in ("", 'print("")')]
    return f"cell {number} ({cell.get('cell_type')}: {lines[0][:60] if lines else ''!r})"


def text_diff(expected, actual, name, limit=30):
    lines = list(difflib.unified_diff(expected.splitlines(), actual.splitlines(),
                                      f"committed/{name}", f"generated/{name}", lineterm="", n=1))
    more = [f"... ({len(lines) - limit} more lines)"] if len(lines) > limit else []
    return "\n".join(lines[:limit] + more)


def as_text(value):
    return value if isinstance(value, str) else json.dumps(value, indent=1, sort_keys=True, ensure_ascii=False)


def cell_differences(name, old_cells, new_cells):
    report = []
    if len(old_cells) != len(new_cells):
        report.append(f"  {len(old_cells)} cells committed, {len(new_cells)} generated")
    for number, (old, new) in enumerate(zip(old_cells, new_cells), start=1):
        for part in ("cell_type", "id", "source", "outputs", "execution_count", "metadata"):
            if old.get(part) != new.get(part):
                report.append(f"  {cell_label(new, number)}, {part}:\n" +
                              text_diff(as_text(old.get(part)), as_text(new.get(part)), name))
    return report


def describe_difference(name, committed_text, generated_text):
    """Which parts of the two versions of a notebook differ: the metadata, the number of cells,
    and each differing cell, with a short diff of its source or its outputs."""
    try:
        committed = nbformat.reads(committed_text, as_version=4)
    except Exception as error:  # nbformat raises several kinds for a broken file
        return f"{name} is not a readable notebook: {error}"
    generated = nbformat.reads(generated_text, as_version=4)
    report = []
    if committed.metadata != generated.metadata:
        report.append("  the notebook's metadata differs\n" +
                      text_diff(as_text(committed.metadata), as_text(generated.metadata), name))
    report += cell_differences(name, committed.cells, generated.cells)
    if not report:
        report.append("  the same content, written differently:\n" + text_diff(committed_text, generated_text, name))
    return f"{name} differs from its chapter:\n" + "\n".join(report)


def check_notebooks(scratch):
    """Prints what differs; returns the number of notebooks that do."""
    write_notebooks(scratch)
    stale = 0
    expected = {chapter.with_suffix(".ipynb").name for chapter in chapters()}
    for name in sorted(expected):
        committed = TUTORIAL_DIR / name
        generated = (scratch / name).read_text(encoding="utf-8")
        if not committed.exists():
            print(f"{name} is missing: the chapter has no notebook")
            stale += 1
        elif committed.read_text(encoding="utf-8") != generated:
            print(describe_difference(name, committed.read_text(encoding="utf-8"), generated))
            stale += 1
    for orphan in sorted({p.name for p in TUTORIAL_DIR.glob("[0-9][0-9]_*.ipynb")} - expected):
        print(f"{orphan} has no chapter {Path(orphan).with_suffix('.cas').name}")
        stale += 1
    return stale


# ---- the kernel ----------------------------------------------------------------------------------

def install_kernelspec(cas, prefix):
    """A kernelspec for `cas` under prefix, put first on Jupyter's search path."""
    try:
        subprocess.run([str(cas), "--install-kernel", "--prefix", str(prefix)], check=True,
                       stdout=subprocess.DEVNULL)
    except (OSError, subprocess.CalledProcessError) as error:
        sys.exit(f"make_notebooks.py: cannot install the kernelspec of {cas}: {error}")
    data = str(Path(prefix) / "share" / "jupyter")
    os.environ["JUPYTER_PATH"] = os.pathsep.join(p for p in (data, os.environ.get("JUPYTER_PATH")) if p)


def require_kernel():
    try:
        KernelSpecManager().get_kernel_spec(KERNEL_NAME)
    except NoSuchKernel:
        sys.exit("make_notebooks.py: Jupyter finds no kernel named cas: run cas --install-kernel, "
                 "or pass --cas PATH")


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cas", type=Path, help="the cas binary whose kernel runs the notebooks")
    parser.add_argument("--out", type=Path, default=TUTORIAL_DIR, help="where the notebooks go")
    parser.add_argument("--check", action="store_true",
                        help="compare freshly made notebooks with the committed ones; exit 1 if they differ")
    return parser.parse_args()


def main():
    args = parse_arguments()
    with tempfile.TemporaryDirectory(prefix="cas-notebooks-") as scratch:
        scratch = Path(scratch)
        if args.cas:
            install_kernelspec(args.cas.resolve(), scratch / "kernel")
        require_kernel()
        try:
            if not args.check:
                for path in write_notebooks(args.out):
                    print(f"wrote {path}")
                return 0
            stale = check_notebooks(scratch / "notebooks")
        except NotebookFailure as failure:
            print(f"make_notebooks.py: {failure}", file=sys.stderr)
            return 1
    if stale:
        print(f"{stale} notebook(s) differ from their chapters: run examples/tutorial/make_notebooks.py "
              "--cas build/interpreter/cas and commit the notebooks")
        return 1
    print(f"all {len(chapters())} notebooks match their chapters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
