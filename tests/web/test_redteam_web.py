"""Red team on ``judge web``: altered and guessed links show no player's page, and what the 2nd
edition and the Russian variant tell one house alone (the card a raven or the Hand looked at, the
Tides of Battle card drawn) never reaches the public page or another house's page at any step."""

from __future__ import annotations

import random

import pytest

from adjudicator import messages, web
from adjudicator.judge import Judge
from adjudicator.ruleset import OBSERVER, Event, get
from adjudicator.store import Store
from conftest import FakeClock
from test_web_pages import text

HOUSES = ("stark", "lannister", "baratheon")


@pytest.fixture
def site(tmp_path):
    judge = Judge(Store(tmp_path / "data", fsync=False), now=FakeClock())
    judge.new_game("w", "agot1e", {h: {"address": f"{h}@example.org"} for h in HOUSES}, seed=11)
    return judge, web.Site(judge)


def test_an_altered_link_shows_no_players_page(site):
    judge, pages = site
    link = "/" + web.private_links(judge, "w", "http://x")["stark"].split("/", 3)[3]
    token = link.split("/")[3]
    assert "The page of stark" in text(pages.get(link).body)
    for altered in (f"/w/p/{token.upper()}/", f"/w/p/{token[:-1]}/", f"/w/p/{token}0/", f"/w/p/{token}/../",
                    f"/w/p/{token}/..%2f", f"/w/p/{token}/board.png/../", f"/w/p%2f{token}/", f"/w//p/{token}/",
                    f"/W/p/{token}/", f"/w/P/{token}/", "/w/p/", "/w/p//", "/w/game.yaml", "/w/states/000001.yaml",
                    "/secret.key", "/%2e%2e/", "/cache/", "/inbox/"):
        answer = pages.get(altered)
        assert answer.status == 404 and "The page of" not in text(answer.body), altered
    for public in ("/w/", f"/w/?lang=en&p={token}", f"/w/?p/{token}"):
        assert not pages.get(public).private and "The page of" not in text(pages.get(public).body)
    assert not pages.get(f"/w/board.png?p/{token}/").private


@pytest.mark.parametrize("ruleset,options,steps,told", [
    ("agot2e-ru", None, 90, {"agot.hand.seen", "agot.raven.seen"}),
    ("agot2e", {"tides-of-battle": "yes"}, 90, {"agot.raven.seen", "agot.tides.your_card"}),
])
def test_what_one_house_alone_is_told_reaches_no_other_page(tmp_path, ruleset, options, steps, told):
    judge = Judge(Store(tmp_path / "data", fsync=False), now=FakeClock())
    rules = get(ruleset)
    houses = rules.default_players(4)
    judge.new_game("s", ruleset, {h: {"address": f"{h}@example.org"} for h in houses}, seed=7, options=options)
    pages = web.Site(judge)
    links = {h: "/" + link.split("/", 3)[3] for h, link in web.private_links(judge, "s", "http://x").items()}
    rng = random.Random(7)
    public, private, keys, leaks, seen = "", [], set(), [], 0
    for step in range(steps):
        present = judge.present("s")
        for number in present.files.version_numbers()[seen:]:
            for data in present.files.read_version(number).get("events") or []:
                event = Event.from_dict(data)
                said = messages.render(event, "en", ruleset)
                if event.to is None:
                    public += "\n" + said
                else:
                    private.append((event.to, said))
                    keys.add(event.key)
        seen = len(present.files.version_numbers())
        for viewer, path in [(OBSERVER, "/s/"), *((h, links[h]) for h in houses)]:
            page = text(pages.get(path).body)
            for to, said in private:
                own = any(viewer in other and said == same for other, same in private)  # the same words told to the viewer
                if viewer not in to and not own and said not in public and said in page:
                    leaks.append(f"step {step}, the page of {viewer}: {said!r} (told {', '.join(to)})")
        owing = list(dict.fromkeys(o.player for o in present.missing()))
        mails = [(h, m) for h in owing if (m := rules.bot_mail(present.state, h, rng))]
        if not mails:
            judge.adjudicate("s", force=True, reason="deadline")
        for house, mail in mails:
            judge.submit("s", house, mail)
    assert leaks == [], leaks[:5]
    assert told <= keys  # the secrets this test is about were told at some step
