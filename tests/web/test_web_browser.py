"""``judge web`` in a real browser: headless Chromium (Debian's ``chromium``, installed by
``tests/web/install-chromium.sh``) loads the public page and a player's private link from a running
``judge web`` and takes screenshots; the screenshots must show the page with its board picture."""

from __future__ import annotations

import subprocess
import sys
import urllib.request
from collections import Counter
from io import BytesIO
from pathlib import Path

import pytest
from PIL import Image

from adjudicator.judge import Judge
from adjudicator.store import Store
from conftest import FakeClock, subprocess_env

WIDTH, HEIGHT = 1280, 1800
NOTE = (0xFF, 0xF8, 0xD6)  # the background of the "keep this link to yourself" note (templates/web/style.css)
ORDERS = "ORDERS\nWinterfell: march -1\nWhite Harbor: defense +1\nThe Shivering Sea: support\n"


@pytest.fixture
def served(tmp_path):
    """A running ``judge web`` on a game where Stark's orders are on file; its base URL."""
    data = tmp_path / "data"
    judge = Judge(Store(data), now=FakeClock())
    judge.new_game("w", "agot1e", {h: {"address": f"{h}@example.org"} for h in ("stark", "lannister", "baratheon")},
                   seed=11)
    assert judge.submit("w", "stark", ORDERS).applied
    env = subprocess_env(data)
    proc = subprocess.Popen([sys.executable, "-m", "adjudicator", "web", "--listen", "127.0.0.1:0"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    assert line.startswith("judge web on http://127.0.0.1:"), line + proc.stderr.read()
    base = line.split()[3].rstrip("/")
    yield base, env
    proc.terminate()
    assert proc.wait(30) == 0
    log = proc.stderr.read()
    assert "GET /w/ " in log and "/p/" not in log  # requests are logged, private tokens never


def screenshot(url: str, out: Path) -> Image.Image:
    done = subprocess.run(
        ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
         f"--user-data-dir={out.parent / 'chromium-profile'}", "--force-device-scale-factor=1",
         f"--window-size={WIDTH},{HEIGHT}", f"--screenshot={out}", url],
        capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and out.exists(), done.stderr[-2000:]
    return Image.open(out).convert("RGB")


def colours(picture: Image.Image) -> Counter:
    """How many pixels of each colour ``picture`` has."""
    return Counter({colour: n for n, colour in picture.getcolors(maxcolors=picture.width * picture.height)})


def main_colours(picture: Image.Image, share: float) -> dict[tuple, int]:
    """The colours that each cover more than ``share`` of ``picture``, with their pixel counts."""
    return {colour: n for colour, n in colours(picture).items() if n > share * picture.width * picture.height}


def test_the_public_page_and_a_private_link_in_a_real_browser(served, tmp_path):
    base, env = served
    links = subprocess.run([sys.executable, "-m", "adjudicator", "web", "--links", "w", "--base-url", base],
                           env=env, capture_output=True, text=True, timeout=60)
    assert links.returncode == 0, links.stderr
    stark = dict(line.split(": ", 1) for line in links.stdout.splitlines())["stark"]

    board = Image.open(BytesIO(urllib.request.urlopen(f"{base}/w/board.png", timeout=30).read())).convert("RGB")
    public = screenshot(f"{base}/w/", tmp_path / "public.png")
    private = screenshot(stark, tmp_path / "stark.png")

    for shot in (public, private):
        assert shot.size == (WIDTH, HEIGHT)
        assert len(colours(shot)) > 500  # a page with text and a picture, not a blank or an error page
        assert board.width <= WIDTH - 40  # shown at its own size: its flat colours are on screen as they are
        seen = colours(shot)
        for colour, count in main_colours(board, 0.02).items():  # the sea, the land, the panel...
            assert seen[colour] >= 0.9 * count, f"the board's colour {colour} is missing from the screenshot"
    assert len(main_colours(board, 0.02)) >= 3
    assert colours(private)[NOTE] > 2000  # the private note is there, and only there
    assert colours(public)[NOTE] == 0
