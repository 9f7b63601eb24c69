#!/usr/bin/python3
"""A tutorial notebook run in a real notebook page: Jupyter Notebook 6 (the classic UI) serves a
copy of examples/tutorial on 127.0.0.1, headless Chromium opens the notebook, runs all cells on
the cas kernel, and the rendered page is checked: every code cell ran, no error output, the stage
tables as HTML tables, and the butterfly diagram as an inline SVG. A full-page screenshot is saved.

    browser_tutorial.py --tutorial DIR --screenshot FILE.png [--notebook NAME] [--kernel NAME]
                        [--timeout S] [--chromium PATH] [--chromedriver PATH]

Jupyter finds the cas kernel through JUPYTER_PATH (the test's kernelspec fixture sets it).
Needs Debian's jupyter-notebook, python3-selenium, chromium and chromium-driver.
"""

import argparse
import http.client
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service

CHROMIUM_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                  "--no-first-run", "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--window-size=1280,1000"]

# What butterfly_svg (algebra/teaching/teaching_svg.cpp) writes in every diagram: its heading
# and the column title of the last stage, here of the 3 stages of a transform of length 8.
BUTTERFLY_MARKERS = ["butterfly: (a, b)", "FFT, n = 8", "after stage 3"]
MIN_STAGE_TABLES = 3  # chapter 6 traces three transforms with fftsteps


class PageFailure(Exception):
    pass


def wait_until(condition, timeout, what, interval=0.2):
    """Polls `condition` until it returns a true value, which is returned; PageFailure naming
    `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise PageFailure(f"timed out after {timeout} s waiting for {what}")
        time.sleep(interval)


# ---- the notebook server -------------------------------------------------------------------------

# What a port without a notebook server behind it gives: nothing, or something that is not HTTP
# (a kernel's ZeroMQ socket, whose greeting starts with 0xFF).
NOT_ANSWERING = (urllib.error.URLError, ConnectionError, OSError, http.client.HTTPException)


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class NotebookServer:
    """`jupyter notebook` on 127.0.0.1 at a free port with a random token, in its own process
    group, its log in a file."""

    def __init__(self, notebook_dir, log_path):
        self.port = free_port()
        self.token = secrets.token_hex(24)
        self.log_path = log_path
        self.log = open(log_path, "wb")
        command = [sys.executable, "-m", "notebook", "--no-browser", "--allow-root", "--ip=127.0.0.1",
                   f"--port={self.port}", "--port-retries=0", f"--notebook-dir={notebook_dir}",
                   f"--NotebookApp.token={self.token}", "--NotebookApp.password="]
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT,
                                        stdin=subprocess.DEVNULL, start_new_session=True)

    def url(self, path):
        separator = "&" if "?" in path else "?"
        return f"http://127.0.0.1:{self.port}/{path}{separator}token={self.token}"

    def request(self, path, method="GET"):
        with urllib.request.urlopen(urllib.request.Request(self.url(path), method=method), timeout=5) as reply:
            body = reply.read()
            return json.loads(body) if body else None

    def wait_ready(self, timeout):
        def answers():
            if self.process.poll() is not None:
                raise PageFailure(f"jupyter notebook exited with status {self.process.returncode}:\n"
                                  + self.log_text())
            try:
                return self.request("api/status") is not None
            except NOT_ANSWERING:
                return False
        wait_until(answers, timeout, "jupyter notebook to answer")

    def log_text(self):
        self.log.flush()
        return Path(self.log_path).read_text(errors="replace")

    def stop(self):
        """Shuts the kernels down through the server, then the server: SIGTERM to its process
        group, SIGKILL to what is left after 10 s. The kernels run in sessions of their own, so
        they are asked first."""
        if self.process.poll() is None:
            try:
                for kernel in self.request("api/kernels") or []:
                    self.request(f"api/kernels/{kernel['id']}", method="DELETE")
            except NOT_ANSWERING:
                pass
            signal_group(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
        signal_group(self.process.pid, signal.SIGKILL)
        self.process.wait()
        self.log.close()


def signal_group(pid, sig):
    try:
        os.killpg(pid, sig)
    except ProcessLookupError:
        pass


# ---- the browser ---------------------------------------------------------------------------------

def start_chromium(chromium, chromedriver, profile_dir):
    options = webdriver.ChromeOptions()
    options.binary_location = str(chromium)
    for flag in CHROMIUM_FLAGS + [f"--user-data-dir={profile_dir}"]:
        options.add_argument(flag)
    # The driver named explicitly: Selenium 4 would otherwise ask selenium-manager to fetch one.
    return webdriver.Chrome(service=Service(executable_path=str(chromedriver)), options=options)


KERNEL_READY_JS = """
const nb = window.Jupyter && Jupyter.notebook;
if (!nb || !nb._fully_loaded || !nb.kernel || !nb.kernel.is_connected()) return null;
const icon = document.querySelector('#kernel_indicator_icon');
if (!icon || !icon.classList.contains('kernel_idle_icon')) return null;
return nb.kernel.name;
"""

# Counts the code cells that finish from now on, then runs them all.
RUN_ALL_JS = """
const nb = Jupyter.notebook;
window.casFinishedCells = 0;
nb.events.on('finished_execute.CodeCell', function () { window.casFinishedCells += 1; });
nb.clear_all_output();
nb.execute_all_cells();
return nb.get_cells().filter(c => c.cell_type === 'code' && c.get_text().trim().length > 0).length;
"""

RUN_STATE_JS = """
const nb = Jupyter.notebook;
const code = nb.get_cells().filter(c => c.cell_type === 'code');
const icon = document.querySelector('#kernel_indicator_icon');
return {
  finished: window.casFinishedCells,
  running: code.filter(c => c.input_prompt_number === '*').length,
  idle: !!icon && icon.classList.contains('kernel_idle_icon'),
  errors: document.querySelectorAll('.output_error').length,
};
"""


def open_notebook(driver, server, name, kernel_name, timeout):
    driver.get(server.url(f"notebooks/{name}"))
    kernel = wait_until(lambda: driver.execute_script(KERNEL_READY_JS), timeout, "the kernel to be ready")
    if kernel != kernel_name:
        raise PageFailure(f"the notebook runs on kernel {kernel!r}, not {kernel_name!r}")


def run_all_cells(driver, timeout):
    """Runs every cell and waits until all have finished and the kernel is idle, or an error shows."""
    cells = driver.execute_script(RUN_ALL_JS)

    def settled():
        state = driver.execute_script(RUN_STATE_JS)
        done = state["finished"] >= cells and state["running"] == 0 and state["idle"]
        return state if done or state["errors"] else None

    state = wait_until(settled, timeout, f"the {cells} code cells to run")
    print(f"ran {state['finished']} of {cells} code cells")
    return cells


def save_full_page_screenshot(driver, path):
    """The classic UI scrolls inside #site, not the window: the viewport is made as tall as the
    notebook, so that one screenshot holds every cell."""
    height = driver.execute_script(
        "return document.querySelector('#header').offsetHeight + "
        "document.querySelector('#notebook').scrollHeight + 40;")
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 1280, "height": min(int(height), 16000), "deviceScaleFactor": 1,
                            "mobile": False})
    time.sleep(0.5)  # the page lays #site out again on resize
    driver.save_screenshot(str(path))
    print(f"screenshot: {path}")


def try_screenshot(driver, path):
    """A screenshot of a page that failed, where one can be taken."""
    try:
        save_full_page_screenshot(driver, path)
    except Exception as error:  # the page may be anywhere: a screenshot is a help, not the test
        print(f"no screenshot: {error}")


# ---- what the page must show ---------------------------------------------------------------------

PAGE_FACTS_JS = """
const texts = sel => Array.from(document.querySelectorAll(sel)).map(e => e.textContent);
const code = Jupyter.notebook.get_cells().filter(c => c.cell_type === 'code' && c.get_text().trim().length > 0);
return {
  errors: texts('.output_area .output_error'),
  stderr: texts('.output_area .output_stderr'),
  not_run: code.filter(c => typeof c.input_prompt_number !== 'number').map(c => c.get_text().split('\\n')[0]),
  svgs: texts('.output_area .output_svg svg'),
  tables: document.querySelectorAll('.output_area .output_html table').length,
};
"""


def page_problems(facts, expected_cells):
    problems = []
    if facts["errors"]:
        problems.append("error output: " + " | ".join(facts["errors"]))
    if facts["stderr"]:
        problems.append("output on stderr: " + " | ".join(facts["stderr"]))
    if facts["not_run"]:
        problems.append(f"{len(facts['not_run'])} of {expected_cells} code cells did not run, the first: "
                        f"{facts['not_run'][0]!r}")
    if not any(all(marker in svg for marker in BUTTERFLY_MARKERS) for svg in facts["svgs"]):
        problems.append(f"no butterfly diagram among the {len(facts['svgs'])} SVG outputs "
                        f"(an svg with the texts {BUTTERFLY_MARKERS})")
    if facts["tables"] < MIN_STAGE_TABLES:
        problems.append(f"{facts['tables']} HTML tables in the outputs, expected at least {MIN_STAGE_TABLES}")
    return problems


def check_page(driver, expected_cells):
    facts = driver.execute_script(PAGE_FACTS_JS)
    print(f"page: {len(facts['svgs'])} SVG outputs, {facts['tables']} HTML tables, "
          f"{len(facts['errors'])} errors")
    return page_problems(facts, expected_cells)


# ---- the test ------------------------------------------------------------------------------------

def start_server(notebook_dir, scratch, attempts=3):
    """A notebook server that answers. free_port() gives a port that was free a moment before: a
    test running beside this one (a kernel's ZeroMQ sockets) may take it before the server binds
    it, and the server, which does not move to another port, exits; then another port is tried."""
    for attempt in range(1, attempts + 1):
        server = NotebookServer(notebook_dir, scratch / f"notebook-server-{attempt}.log")
        try:
            server.wait_ready(timeout=30)
            return server
        except PageFailure as failure:
            log = server.log_text()
            server.stop()
            if attempt == attempts:
                raise PageFailure(f"{failure}\nthe notebook server's log:\n{log}") from None


def run_in_browser(args, notebook_dir, scratch):
    server = None
    driver = None
    try:
        server = start_server(notebook_dir, scratch)
        driver = start_chromium(args.chromium, args.chromedriver, scratch / "chromium-profile")
        open_notebook(driver, server, args.notebook, args.kernel, timeout=30)
        cells = run_all_cells(driver, args.timeout)
        save_full_page_screenshot(driver, args.screenshot)
        return check_page(driver, cells)
    except (PageFailure, WebDriverException) as failure:
        if driver:
            try_screenshot(driver, args.screenshot)
        return [str(failure)] + (["the notebook server's log:\n" + server.log_text()] if server else [])
    finally:
        if driver:
            driver.quit()
        if server:
            server.stop()


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tutorial", type=Path, required=True, help="the folder of the notebooks (copied)")
    parser.add_argument("--notebook", default="06_fft_stage_by_stage.ipynb")
    parser.add_argument("--kernel", default="cas", help="the kernel the notebook must run on")
    parser.add_argument("--screenshot", type=Path, required=True, help="where the PNG goes")
    parser.add_argument("--timeout", type=float, default=60, help="seconds for all cells to run")
    parser.add_argument("--chromium", type=Path, default=Path("/usr/bin/chromium"))
    parser.add_argument("--chromedriver", type=Path, default=Path("/usr/bin/chromedriver"))
    return parser.parse_args()


def main():
    args = parse_arguments()
    args.screenshot = args.screenshot.resolve()
    args.screenshot.parent.mkdir(parents=True, exist_ok=True)
    args.screenshot.unlink(missing_ok=True)  # not last run's page
    with tempfile.TemporaryDirectory(prefix="cas-browser-") as scratch:
        scratch = Path(scratch)
        notebooks = scratch / "tutorial"
        shutil.copytree(args.tutorial, notebooks)
        problems = run_in_browser(args, notebooks, scratch)
    for problem in problems:
        print(f"FAILED: {problem}")
    if not problems:
        print(f"{args.notebook} ran in the browser: the stage tables and the butterfly diagram are in the page")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
