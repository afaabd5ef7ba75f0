"""The gallery (docs/gallery.md, scripts/gallery.py): it lists every example game with its
picture, and the script photographs the board page in a real browser."""
from __future__ import annotations

import struct
import subprocess
import sys
from pathlib import Path

from web_support import ROOT, playwright_or_skip

GALLERY = [sys.executable, str(ROOT / "scripts" / "gallery.py")]


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", data[16:24])


def test_the_gallery_shows_every_example() -> None:
    done = subprocess.run([*GALLERY, "--check"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    page = (ROOT / "docs" / "gallery.md").read_text(encoding="utf-8")
    for name in ("chess", "go9", "go19", "checkers", "reversi", "connect4", "gomoku", "breakthrough", "tictactoe"):
        assert f"![{name} on the board page](images/gallery/{name}.png)" in page
        width, height = png_size(ROOT / "docs" / "images" / "gallery" / f"{name}.png")
        assert width > 200 and height > 200
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/images/gallery/chess.png" in readme and "docs/images/gallery/go9.png" in readme
    # the whole page: a piece selected (chess) and a chance node's Roll button (einstein)
    assert "docs/images/web-chance.png" in readme
    web = (ROOT / "docs" / "web.md").read_text(encoding="utf-8")
    for image in ("web-board.png", "web-chance.png"):
        assert f"](images/{image})" in web
        width, height = png_size(ROOT / "docs" / "images" / image)
        assert width > 800 and height > 600


def test_a_stale_gallery_is_found(tmp_path) -> None:
    (tmp_path / "gallery.md").write_text("# Gallery\n")
    done = subprocess.run([*GALLERY, "--check", "--out", str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 1
    assert f"{tmp_path / 'gallery.md'} does not follow the examples" in done.stderr
    assert f"{tmp_path / 'images/gallery/chess.png'} is missing" in done.stderr
    assert f"{tmp_path / 'images/web-chance.png'} is missing" in done.stderr


def photographed(out: Path, games: str) -> subprocess.CompletedProcess:
    """scripts/gallery.py run on `games` (names, comma-separated) into `out`, finished
    successfully; skipped where Playwright or Chromium is missing (a failure in CI)."""
    playwright_or_skip()
    done = subprocess.run([*GALLERY, "--out", str(out), "--games", games], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done


def test_the_script_photographs_the_page_in_a_browser(tmp_path) -> None:
    done = photographed(tmp_path, "go9,tictactoe")
    assert done.stdout.splitlines() == ["images/gallery/go9.png: examples/go/go9.gdef",
                                        "images/gallery/tictactoe.png: examples/tictactoe.gdef"]
    # the board of 9 x 9 points with its labels, and of 3 x 3 squares
    go_width, go_height = png_size(tmp_path / "images" / "gallery" / "go9.png")
    small_width, _ = png_size(tmp_path / "images" / "gallery" / "tictactoe.png")
    assert go_width > 400 and go_height > 400 and small_width < go_width
    assert not (tmp_path / "gallery.md").exists()


def test_a_chance_game_is_photographed_waiting_for_its_roll(tmp_path) -> None:
    """einstein's whole page at a chance node: the script waits for the Roll button and the
    status line's "to roll" before it takes the picture, and fails when they do not come."""
    done = photographed(tmp_path, "einstein")
    assert done.stdout.splitlines() == ["images/gallery/einstein.png: examples/einstein.gdef",
                                        "images/web-chance.png: examples/einstein.gdef"]
    width, height = png_size(tmp_path / "images" / "web-chance.png")
    assert (width, height) == (1100, 820)   # the whole viewport
