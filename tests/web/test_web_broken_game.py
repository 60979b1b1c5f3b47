"""``judge web`` with a game whose files are broken (a version edited by hand with a wrong type, a
game.yaml that does not read): that game's pages say it is broken, in the reader's language, with no
traceback; the server's log has the why; every other game's pages are served as before."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

import pytest

from adjudicator import web
from adjudicator.judge import Judge
from adjudicator.store import Store
from conftest import FakeClock
from i18nhelp import untranslated
from test_web_pages import get, text

HOUSES = ("stark", "lannister", "baratheon")


def _round_one(data: Path) -> Path:
    path = data / "a" / "states" / "000001.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("\n  round: 1\n", "\n  round: one\n"), encoding="utf-8")
    return path


def _no_game_yaml(data: Path) -> Path:
    path = data / "a" / "game.yaml"
    path.write_text("format: 1\nruleset: [agot1e\n", encoding="utf-8")
    return path


def _no_winner(data: Path) -> Path:
    path = data / "a" / "states" / "000001.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("\n  winner: null\n", "\n"), encoding="utf-8")
    return path


@pytest.mark.parametrize("damage,logged,listed", [
    (_round_one, "000001.yaml: this version file is damaged: state.round", "a (agot1e), version 1: round one"),  # its summary still reads; its page does not
    (_no_game_yaml, "game.yaml", "a: broken (cannot be shown now)"),
    (_no_winner, "KeyError", "a: broken (cannot be shown now)"),  # the index asked who won: the whole index failed
])
def test_a_broken_game_has_a_page_saying_so_and_the_other_games_keep_working(tmp_path, caplog, damage, logged, listed):
    judge = Judge(Store(tmp_path / "data", fsync=False), now=FakeClock())
    for game in ("a", "b"):
        judge.new_game(game, "agot1e", {h: {"address": f"{h}@example.org"} for h in HOUSES}, seed=11)
    links = web.private_links(judge, "a", "")
    damage(tmp_path / "data")
    httpd = web.server(web.Site(judge), "127.0.0.1", 0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = "http://127.0.0.1:%d" % httpd.server_address[1]
    try:
        with caplog.at_level(logging.INFO, logger="adjudicator.web"):
            for path in ("/a/", links["stark"], *(["/a/board.png"] if damage is not _no_winner else [])):  # (drawn without)
                status, headers, body = get(base + path)
                assert status == 500 and headers["Content-Type"] == "text/html; charset=utf-8", (path, status)
                page = text(body)
                assert "The game a cannot be shown" in page and "broken" in page, (path, page)
                assert "Traceback" not in page and "Error" not in page and str(tmp_path) not in page, page
            status, _, body = get(f"{base}/a/?lang=cs")
            assert status == 500 and "Hru a teď nelze ukázat" in text(body) and untranslated(text(body), "cs", ()) == []
            status, _, body = get(f"{base}/")
            assert status == 200 and listed in text(body) and "b (agot1e), version 1: round 1" in text(body)
            assert get(f"{base}/b/")[0] == 200 and get(f"{base}/b/board.png")[0] == 200
        assert any(record.levelno >= logging.ERROR and "game a" in record.getMessage() and logged in
                   (record.getMessage() + (record.exc_text or "") + str(record.exc_info)) for record in caplog.records)
    finally:
        httpd.shutdown()
        httpd.server_close()
