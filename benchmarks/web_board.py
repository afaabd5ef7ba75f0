"""How quickly the board page of `gdef-run --web` opens and answers a click, by board size.

For each game: a real `gdef-run --web` process; the time of `GET /api/legal` (every legal move
of the start position); Playwright opening the page in Debian's Chromium until the legal moves
are listed; then one click on the middle square (empty, legal) until the move is listed as played.
Games: examples/gomoku.gdef (15x15) and generated one-object placement games of 19x19 and
100x100 (any empty square).

Run: python benchmarks/web_board.py   (needs the playwright package and /usr/bin/chromium)
The figures go into docs/web.md ("Large boards").
"""
from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
PLACEMENT = """name: place{n}
players: 2
size: {n} x {n}
obj S

define isMoveLegal() -> bool {{
  return operationsNum() == 1
      && CurrentPosition[OperationList[0][0]][OperationList[0][1]] == empty;
}}

define end() -> bool {{ return moveNumber() == 10; }}
"""


def measure(browser, game: Path, folder: str) -> dict:
    record = str(Path(folder) / f"{game.stem}.json")  # where the stopped game is saved
    process = subprocess.Popen([str(Path(sys.executable).with_name("gdef-run")), "--web", "--no-browser", str(game),
                                "--record", record],
                               stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        line = process.stdout.readline()
        url = re.search(r"http://\S+", line).group(0)  # with the run's token, which the API needs
        base, token = url.split("?token=")
        started = time.perf_counter()
        legal = urllib.request.urlopen(urllib.request.Request(base + "api/legal", headers={"X-Gdef-Token": token})).read()
        figures = {"legal_s": time.perf_counter() - started, "legal_kb": len(legal) / 1000}
        # bypass_csp: wait_for_function evaluates its text, which the page's policy forbids;
        # it polls on every animation frame (expect() polls at 100 ms to 1 s, too coarse here)
        page = browser.new_page(viewport={"width": 1200, "height": 800}, bypass_csp=True)
        started = time.perf_counter()
        page.goto(url)
        page.wait_for_function("document.getElementById('legal-count').textContent !== ''", polling="raf",
                               timeout=60_000)
        figures["ready_s"] = time.perf_counter() - started
        figures["squares"] = page.locator(".sq").count()
        middle = int(page.evaluate("page.game.width")) // 2  # an empty square in every game here
        square = page.locator(f'.sq[data-x="{middle}"][data-y="{middle}"]')
        started = time.perf_counter()
        square.click()
        page.wait_for_function("document.querySelectorAll('#moves li').length === 1", polling="raf", timeout=60_000)
        figures["click_s"] = time.perf_counter() - started
        page.close()
        return figures
    finally:
        process.terminate()
        process.communicate(timeout=30)  # (its "Stopped ..." line goes to stderr)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        games = [ROOT / "examples" / "gomoku.gdef"]
        for n in (19, 100):
            path = Path(folder) / f"place{n}.gdef"
            path.write_text(PLACEMENT.format(n=n))
            games.append(path)
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        print("game                squares  /api/legal        page ready  one click")
        for game in games:
            f = measure(browser, game, folder)
            print(f"{game.name:18} {f['squares']:8}  {f['legal_s']:5.2f} s {f['legal_kb']:6.0f} kB  "
                  f"{f['ready_s']:6.2f} s  {f['click_s']:6.2f} s")
        browser.close()


if __name__ == "__main__":
    main()
