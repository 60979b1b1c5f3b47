"""``judge web``'s pages over HTTP: what the public page and a player's page show, what they never
show, and the private links (issue 17). The browser's view of them is ``test_web_browser.py``."""

from __future__ import annotations

import html
import random
import re
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from adjudicator import web
from adjudicator.judge import Judge
from adjudicator.ruleset import OBSERVER
from adjudicator.rulesets.agot import bot
from adjudicator.rulesets.agot.context import ctx_of
from adjudicator.store import Store
from conftest import FakeClock
from i18nhelp import untranslated

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "mail"))
from test_mail_secrecy import Watch  # noqa: E402  the mail's secrecy check, applied to the pages

HOUSES = ("stark", "lannister", "baratheon")
ORDERS = "ORDERS\nWinterfell: march -1\nWhite Harbor: defense +1\nThe Shivering Sea: support\n"


@pytest.fixture
def site(tmp_path):
    judge = Judge(Store(tmp_path / "data", fsync=False), now=FakeClock())
    passwords = judge.new_game("w", "agot1e", {h: {"address": f"{h}@example.org"} for h in HOUSES}, seed=11)
    httpd = web.server(web.Site(judge), "127.0.0.1", 0)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    base = "http://127.0.0.1:%d" % httpd.server_address[1]
    yield judge, passwords, base
    httpd.shutdown()
    httpd.server_close()


def get(url: str) -> tuple[int, dict, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def text(body: bytes) -> str:
    """The page as a reader reads it: no style, no markup, entities decoded (King&#39;s -> King's),
    runs of blanks as one (lines stay lines: the board's rows are checked line by line)."""
    page = re.sub(r"(?s)<style>.*?</style>", "", body.decode("utf-8"))
    return re.sub(r"[ \t]+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def test_the_public_page_shows_the_game_and_who_has_not_sent_and_nothing_private(site):
    judge, passwords, base = site
    assert judge.submit("w", "stark", ORDERS).applied
    status, headers, body = get(f"{base}/w/")
    page = text(body)
    assert status == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
    assert headers["Referrer-Policy"] == "no-referrer" and "default-src 'none'" in headers["Content-Security-Policy"]
    assert "Game w" in page and "round 1, planning: orders" in page and "Deadline: Mon 23 Nov 2026 12:00 UTC" in page
    assert re.search(r"stark\s+orders\s+sent", page) and re.search(r"lannister\s+orders\s+not sent yet", page)
    assert "Iron Throne: Baratheon, Lannister, Stark" in page  # the tracks
    assert "Game w begins." in page  # the event log
    assert '<img src="board.png?lang=en"' in body.decode()
    assert "Winterfell: march -1" not in page and "White Harbor: defense +1" not in page  # Stark's orders:
    assert "order march" not in page and "order defense" not in page  # not revealed yet
    assert "Eddard Stark" not in page and "Tywin Lannister" not in page  # no house card of any hand
    for house in HOUSES:
        assert passwords[house] not in page
    assert "hmac-sha256" not in page and "seed" not in page.lower()
    tokens = web.private_links(judge, "w", base)
    assert not any(link.rsplit("/", 2)[-2] in body.decode() for link in tokens.values())

    status, headers, png = get(f"{base}/w/board.png")
    assert status == 200 and headers["Content-Type"] == "image/png" and png.startswith(b"\x89PNG")


def test_a_players_link_shows_their_own_view_in_their_language_and_only_theirs(site):
    judge, _, base = site
    judge.replace("w", "lannister", "tywin@example.org")
    present = judge.present("w")
    present.files.write_config({**present.config, "players": {
        **present.config["players"], "lannister": {**present.config["players"]["lannister"], "language": "cs"}}})
    assert judge.submit("w", "stark", ORDERS).applied
    links = web.private_links(judge, "w", base)
    assert len({link.rsplit("/", 2)[-2] for link in links.values()}) == 3
    assert all(re.fullmatch(re.escape(base) + r"/w/p/[0-9a-f]{32}/", link) for link in links.values())

    status, headers, body = get(links["stark"])
    page = text(body)
    assert status == 200 and headers["Cache-Control"] == "no-store"
    assert "The page of stark" in page and "Eddard Stark (3, 2 fortifications)" in page
    assert "Winterfell: march -1" in page and "White Harbor: defense +1" in page  # on file
    assert "Tywin Lannister" not in page  # another house's hand

    status, _, body = get(links["lannister"])
    page = text(body)
    assert status == 200 and "Stránka hráče lannister" in page and "Tywin Lannister" in page
    assert untranslated(page, "cs", ("agot", "agot1e")) == []
    assert "Winterfell: march -1" not in page and "Eddard Stark" not in page
    status, _, body = get(links["lannister"] + "?lang=en")
    assert "The page of lannister" in text(body)


def test_a_link_is_unguessable_and_dies_when_the_player_is_replaced(site):
    judge, _, base = site
    old = web.private_links(judge, "w", base)["baratheon"]
    token = old.rsplit("/", 2)[-2]
    for wrong in (token[:-1] + ("0" if token[-1] != "0" else "1"), token[:16], "0" * 32, "../../secret.key"):
        status, _, body = get(f"{base}/w/p/{wrong}/")
        assert status == 404 and "Not found" in text(body)
    assert get(f"{base}/w/p/{token}/board.png")[0] == 200
    judge.replace("w", "baratheon", "stannis@example.org")
    assert get(old)[0] == 404
    new = web.private_links(judge, "w", base)["baratheon"]
    assert new != old and get(new)[0] == 200
    other = Judge(Store(judge.store.root.parent / "other", fsync=False), now=FakeClock())
    other.new_game("w", "agot1e", {h: {"address": f"{h}@example.org"} for h in HOUSES}, seed=11)
    assert web.private_links(other, "w", base)["stark"] != web.private_links(judge, "w", base)["stark"]  # its own key


def test_the_index_lists_the_games_and_unknown_pages_are_not_found(site):
    judge, _, base = site
    status, _, body = get(f"{base}/")
    assert status == 200 and "w (agot1e), version 1: round 1, planning: orders" in text(body)
    assert get(f"{base}/nosuchgame/")[0] == 404
    assert get(f"{base}/w/other")[0] == 404
    assert get(f"{base}/../data/")[0] == 404
    status, _, body = get(f"{base}/?lang=cs")
    assert status == 200 and "Hry rozhodčího" in text(body) and untranslated(text(body), "cs", ("agot",)) == []
    status, _, body = get(f"{base}/w/?lang=cs")
    assert status == 200 and "Veřejná stránka" in text(body)
    assert untranslated(text(body), "cs", ("agot", "agot1e")) == []


def test_no_page_shows_another_house_s_secrets_over_many_steps_of_a_bot_game(tmp_path):
    """The secrecy check of the mails (tests/mail/test_mail_secrecy.py) on the pages: at every
    step, the public page holds no house's secret and each house's page no other house's."""
    judge = Judge(Store(tmp_path / "data", fsync=False), now=FakeClock())
    passwords = judge.new_game("s", "agot1e", {h: {"address": f"{h}@example.org"} for h in HOUSES}, seed=11)
    site = web.Site(judge)
    watch = Watch(judge, "s")
    links = {h: "/" + link.split("/", 3)[3] for h, link in web.private_links(judge, "s", "http://x").items()}
    rng = random.Random(11)
    leaks, checked, with_secrets = [], 0, 0
    for step in range(45):  # round 1 and into round 2: orders, raids, marches, battles, Westeros bids
        present = judge.present("s")
        for viewer, path in [(OBSERVER, "/s/"), *((h, links[h]) for h in HOUSES)]:
            page = text(site.get(path).body)
            secrets = watch.secrets(viewer)
            checked += 1
            with_secrets += bool(secrets)
            for kind, pattern in secrets:
                if re.search(pattern, page) if kind.endswith("-re") else pattern in page:
                    leaks.append(f"step {step} {viewer}: {kind} {pattern!r}")
            if viewer == OBSERVER:
                assert not any(p in page for p in passwords.values())
        owing = list(dict.fromkeys(o.player for o in present.missing()))
        mails = [(h, bot.mail_for(present.state, ctx_of(present.state), h, rng)) for h in owing]
        mails = [(h, m) for h, m in mails if m is not None]
        if not mails:
            judge.adjudicate("s", force=True, reason="deadline")
        for house, mail in mails:
            assert judge.submit("s", house, mail).applied
    assert leaks == [], leaks[:10]
    assert judge.present("s").state["round"] >= 2 and with_secrets > checked // 2


@pytest.mark.parametrize("ruleset,players", [("claim2", ("alice", "bob")), ("claim", ("ann", "ben", "cid")),
                                             ("oriflamme", ("alice", "bob", "carol")), ("agotccg", ("alice", "bob"))])
def test_every_ruleset_has_its_pages(tmp_path, ruleset, players):
    judge = Judge(Store(tmp_path / "data", fsync=False), now=FakeClock())
    judge.new_game("g", ruleset, {p: {"address": f"{p}@example.org"} for p in players}, seed=3)
    site = web.Site(judge)
    public = site.get("/g/")
    assert public.status == 200 and "Game g" in text(public.body)
    mine = site.get("/" + web.private_links(judge, "g", "http://x")[players[0]].split("/", 3)[3])
    assert mine.status == 200 and f"The page of {players[0]}" in text(mine.body)
    picture = site.get("/g/board.png")
    assert (picture.status, picture.content_type) == ((200, "image/png") if ruleset != "agotccg" else
                                                      (404, "text/html; charset=utf-8"))  # the CCG draws no picture
    assert ('<img src="board.png' in public.body.decode()) == (ruleset != "agotccg")


def test_judge_web_links_prints_each_players_link_and_names_an_unknown_game(tmp_path, cli):
    judge = Judge(Store(tmp_path / "data"), now=FakeClock())
    judge.new_game("w", "agot1e", {h: {"address": f"{h}@example.org"} for h in HOUSES}, seed=11)
    done = cli("web", "--links", "w", "--base-url", "https://judge.example.org/")
    assert done.exit_code == 0
    assert [line.split(": ")[0] for line in done.output.splitlines()] == list(HOUSES)
    assert all(re.fullmatch(r"\w+: https://judge\.example\.org/w/p/[0-9a-f]{32}/", line) for line in done.output.splitlines())
    assert done.output.splitlines() == [f"{h}: {link}" for h, link in
                                        web.private_links(judge, "w", "https://judge.example.org").items()]
    missing = cli("web", "--links", "nope")
    assert missing.exit_code == 1 and "nope" in missing.output
