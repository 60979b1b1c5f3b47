"""Hidden information over a whole bot game played by mail: no mail to one house ever carries
another house's unrevealed orders, bids, hand or card choice; no report to an observer (OBSERVE)
carries any house's, and no HISTORY mail another house's.

The game runs through the real mail processing layer (an in-process ``Postmaster``: inbox,
sign-on, ``Judge.record``, replies, reports, press, reminders, outbox), with seeded bots
writing every mail. Each time a mail is queued, the secrets of every *other* house are taken
from the state at that moment and searched for in the mail's text:

* the canonical lines of their plans (``on_file``: orders before the reveal, raids and marches
  sent ahead, supports, house cards chosen for a battle, bids, musters, ...);
* the names of house cards in their hands that were never public (a card once played, or named
  in a public event, may be named again);
* their bids not yet resolved, in the form the bid events and tables use (``Stark 3``);
* their orders not yet revealed, in the form of a board row (``Winterfell ... order march +1*``).

A string that is also the recipient's own plan line, or that has already appeared in public
(events everyone sees), is not a secret of that moment.
"""

from __future__ import annotations

import email
import email.policy
import random
import re

from adjudicator import reports, seats
from adjudicator.ruleset import Event
from adjudicator.judge import Judge
from adjudicator.mail.outbox import Outbox
from adjudicator.mail import process
from adjudicator.mail.process import Postmaster
from adjudicator.mail.settings import MailSettings
from adjudicator.rulesets.agot import bot
from adjudicator.rulesets.agot.context import ctx_of
from adjudicator.store import Store

from conftest import FakeClock
from mailhelp import JUDGE, raw_mail, text_of

HOUSES = {"stark": "en", "lannister": "cs", "baratheon": "en"}
SLOT_NAMES = {"iron_throne": ("Iron Throne", "Železný trůn"), "fiefdoms": ("Fiefdoms", "Poddaní"),
              "kings_court": ("King's Court", "Královský dvůr"), "wildlings": ("Night's Watch", "Noční hlídka")}
CZ_ORDER = {"march": "pochod", "support": "podpora", "raid": "nájezd", "consolidate": "konsolidace síly",
            "defense": "obrana"}


def _cz(token: str) -> str:
    kind, _, rest = token.partition(" ")
    star = "*" if kind.endswith("*") else ""
    return CZ_ORDER[kind.rstrip("*")] + star + (" " + rest if rest else "")


class Watch:
    """Collects, at every queued mail, the secrets of the houses it is not addressed to."""

    def __init__(self, judge: Judge, game: str):
        self.judge, self.game = judge, game
        present = judge.present(game)
        # every public event text so far, and the static HELP text (its examples name real areas)
        self.public = "\n".join(reports.render_help(present, "stark", language) for language in reports.LANGUAGES)
        self.public_cards: set[str] = set()
        self.seen_version = 0
        self.checked = 0
        self.with_secrets = 0
        self.leaks: list[str] = []
        self.observed = 0  # reports to the observer, whose secrets are every house's
        self.histories = 0  # HISTORY mails: past versions as one house saw them

    def _catch_up(self, present) -> None:
        files = present.files
        for number in files.version_numbers():
            if number > self.seen_version:
                for event in files.read_version(number).get("events") or []:
                    if event.get("to") is None:
                        self.public += "\n" + Event.from_dict(event).text
                self.seen_version = number
        ctx = ctx_of(present.state)
        for cards in present.state["discards"].values():
            self.public_cards.update(ctx.card(c) for c in cards)
        battle = present.state.get("battle") or {}
        for card in (battle.get("cards") or {}).values():
            self.public_cards.add(ctx.card(card))
        if battle.get("stage") == "cards":  # the house-card question names both sides' hands (issue 11):
            for house in (battle["attacker"], battle["defender"]):  # a hand is the 7 cards less the public discards
                self.public_cards.update(ctx.card(c) for c in present.state["hands"][house])

    def secrets(self, recipient: str) -> list[tuple[str, str]]:
        """(kind, pattern) pairs: a plain string, or a regex when kind ends with ``-re``."""
        present = self.judge.present(self.game)
        self._catch_up(present)
        state, ruleset = present.state, present.ruleset
        ctx = ctx_of(state)
        own = set(ruleset.on_file(state, recipient)) if recipient in state["houses"] else set()  # an observer has none
        found: list[tuple[str, str]] = []
        for house in state["houses"]:
            if house == recipient:
                continue
            for line in ruleset.on_file(state, house):
                if line in ("ORDERS", "RAVEN PASS") or line in own or line in self.public:
                    continue
                found.append(("plan line", line))
            for card_id in state["hands"][house]:
                name = ctx.card(card_id)
                if name not in self.public_cards and name not in self.public:
                    found.append(("card in hand", name))
            plan = state["plans"][house]
            resolved = ((state.get("westeros") or {}).get("bids") or {})
            for slot, bid in (plan.get("bids") or {}).items():
                if slot not in resolved:  # a line naming the track and "House n"
                    track = "|".join(map(re.escape, SLOT_NAMES[slot]))
                    found.append(("bid-re", rf"(?im)^.*({track}).*\b{re.escape(ctx.house(house))} {bid}\b(?!\d)"))
            for area, token in (plan.get("orders") or {}).items():
                if state["orders"].get(area) != token:
                    name = re.escape(ctx.area(area))
                    found.append(("order-re", rf"(?m)^\s+{name}\b.*\b(order {re.escape(token)}|rozkaz {re.escape(_cz(token))})(?![*\w])"))
        return found

    def check(self, name: str, message) -> None:
        header = reports.parse_header(text_of(message))
        assert header is not None and header["game"] == self.game, name
        recipient = message["To"].addresses[0].addr_spec.split("@")[0]
        text = text_of(message)
        self.observed += recipient == "watcher"
        self.histories += name.endswith("-history-all")
        assert "could not format" not in text, f"{name}: a template failed:\n{text}"
        secrets = self.secrets(recipient)
        self.checked += 1
        self.with_secrets += bool(secrets)
        for kind, pattern in secrets:
            hit = re.search(pattern, text) if kind.endswith("-re") else (pattern in text)
            if hit:
                self.leaks.append(f"{name} to {recipient}: {kind} {pattern!r}")


def test_no_mail_to_one_house_carries_another_house_s_secrets_over_a_whole_bot_game(tmp_path, monkeypatch):
    clock = FakeClock()
    judge = Judge(Store(tmp_path / "data", fsync=False), now=clock)
    passwords = judge.new_game("s", "agot1e", {h: {"address": f"{h}@example.org", "language": lang,
                                                   "reports": "every-step"}  # every report there is, to check
                                               for h, lang in HOUSES.items()}, seed=11, press="anonymous")
    postmaster = Postmaster(judge, MailSettings(JUDGE, rate_limit=1_000_000))
    seats.observe(judge, "s", "watcher@example.org", "cs", since=1)  # follows the game from its start
    watch = Watch(judge, "s")
    real_queue = Outbox.queue

    def queue(self, name, message):
        watch.check(name, email.message_from_bytes(message.as_bytes(), policy=email.policy.default))  # as sent
        return real_queue(self, name, message)

    monkeypatch.setattr(Outbox, "queue", queue)
    # No board pictures here: one PNG per report would make this whole game slow for nothing the
    # mail text can show; what the pictures show is checked on their SVG in
    # tests/agot1e/test_board_picture.py (nothing secret in another house's picture).
    monkeypatch.setattr(process, "_attach_picture", lambda *args: None)
    rng = random.Random(11)
    statuses: dict[str, int] = {}
    sent = 0
    for step in range(2000):
        present = judge.present("s")
        if present.ruleset.result(present.state) is not None:
            break
        owing = list(dict.fromkeys(o.player for o in present.missing()))
        mails = [(h, bot.mail_for(present.state, ctx_of(present.state), h, rng)) for h in owing]
        mails = [(h, text) for h, text in mails if text is not None]
        if not mails:
            judge.adjudicate("s", force=True, reason="deadline")
            postmaster.sweep()
            continue
        for house, text in mails:
            if rng.random() < 0.1:  # some press, signed or not, and the mail-level queries
                text += "\n" + rng.choice(["PRESS ALL: winter is coming", "PRESS ANON ALL: trust nobody",
                                           "STATUS", "ORDERS?", "HELP"])
            if rng.random() < 0.02:
                text = "SET LANGUAGE " + rng.choice(["cs", "en"]) + "\n" + text
            if step in (40, 90) and house == owing[0]:  # the past as this house saw it, mid-game
                text += "\nHISTORY"
            body = f"JUDGE s {house} {passwords[house]}\n{text}\n"
            sent += 1
            number = postmaster.receive(raw_mail(body, sender=f"{house}@example.org", message_id=f"<m{sent}@example.org>"),
                                        mail_from=f"{house}@example.org")
            handled = postmaster.process(number)
            statuses[handled.status] = statuses.get(handled.status, 0) + 1
        if step % 7 == 0:  # time passes: reminders near deadlines go out too
            clock.advance(hours=23)
            postmaster.remind()
            clock.advance(hours=-23)
    present = judge.present("s")
    assert present.ruleset.result(present.state) is not None, "the bot game did not finish"
    assert watch.leaks == [], watch.leaks[:10]
    assert statuses.get("submitted", 0) == sent, statuses  # every bot mail was accepted
    assert watch.checked > 3 * present.version and watch.with_secrets > watch.checked // 2
    assert watch.observed > 10 and watch.histories == 2


def test_the_secret_check_catches_a_leak(tmp_path):
    """The same check on a mail that does leak (another house's hand shown) finds it."""
    judge = Judge(Store(tmp_path / "data", fsync=False), now=FakeClock())
    judge.new_game("s", "agot1e", {h: {"address": f"{h}@example.org"} for h in HOUSES}, seed=3)
    judge.submit("s", "lannister", "ORDERS\nLannisport: raid\n")
    watch = Watch(judge, "s")
    present = judge.present("s")
    leaky = reports.render_view(present, None, present.ruleset.view(present.state, None))  # the GM's view
    composed = Postmaster(judge, MailSettings(JUDGE)).outbox.compose(
        "stark@example.org", "leak", reports.header(present, "stark", "report") + "\n" + leaky
        + "\nLannisport: raid\n" + "  Lannisport (stronghold)      Lannister: 1 footman, 1 knight; order raid\n")
    message = email.message_from_bytes(composed.as_bytes(), policy=email.policy.default)
    watch.check("leak", message)
    kinds = {leak.split(": ", 1)[1].split(" '")[0] for leak in watch.leaks}
    assert {"plan line", "card in hand", "order-re"} <= kinds, watch.leaks
