"""``Ruleset.line``: a canonical agot1e line in a language's command words reads back as the same command.

Checked for every command form (a fixed list below, multi-line ORDERS blocks included) and for every
line the transcript's games, probes and rules cases echoed, held on file or gave as an example
(``agottranscript.emitted``). The English catalogue's ``agot.line.*`` messages write exactly the
canonical notation, so that the two catalogues describe the same lines.
"""

from __future__ import annotations

import pytest

from adjudicator import messages
from adjudicator import ruleset as rulesets
from adjudicator.rulesets.agot import grammar, lines
from adjudicator.rulesets.agot1e.edition import load_gamedata
from tests.agot1e import agottranscript

RULESET = rulesets.get("agot1e")
NAMES = grammar.GameDataNames(load_gamedata())

FORMS = [
    "ORDERS\nWinterfell: march -1\nWhite Harbor: march 0\nKarhold: march +1*\nThe Shivering Sea: support\n"
    "Castle Black: support +1*\nMoat Cailin: raid\nThe Narrow Sea: raid*\nLannisport: consolidate\n"
    "Riverrun: consolidate*\nSeagard: defense +1\nThe Twins: defense +2*",
    "Winterfell: march +1*", "Bay of Ice: defense +2*",
    "RAID The Golden Sound -> Lannisport", "RAID The Golden Sound -> Lannisport, Searoad Marches",
    "RAID The Golden Sound -> NONE",
    "MARCH Winterfell -> Castle Black: 1 footman", "MARCH Winterfell -> Karhold: 2 footmen, 1 knight; Castle Black: 5 footmen",
    "MARCH Winterfell -> Karhold: ALL", "MARCH Winterfell -> Karhold: 1 knight LEAVE POWER", "MARCH Winterfell -> NONE",
    "MARCH Bay of Ice -> The Shivering Sea: 3 ships",
    "SUPPORT Stoney Sept -> Lannister", "SUPPORT Stoney Sept -> NONE", "SUPPORT Stoney Sept -> Lannister IN Riverrun",
    "CARD Tywin Lannister", "CARD Ser Loras Tyrell IN The Reach", "BLADE AUTO", "BLADE NEVER", "BLADE AT Riverrun",
    "CASUALTIES 1 footman", "CASUALTIES 2 footmen, 2 knights, 1 ship IN Riverrun", "RETREAT Seagard",
    "RETREAT Seagard FROM Riverrun", "ABILITY Maester Luwin: Eddard Stark", "ABILITY Renly Baratheon: yes",
    "RAVEN Lannisport: support +1*", "RAVEN PASS", "BID 3", "BID 0  # Night's Watch", "BID 2  # Fiefdoms",
    "BID THRONE 3 FIEFDOMS 1 COURT 0", "TIEBREAK Stark, Lannister, Baratheon",
    "MUSTER Winterfell: footman, knight, ship -> Bay of Ice, upgrade", "MUSTER Lannisport: footman", "MUSTER NONE",
    "REMOVE Winterfell: 1 footman", "REMOVE Winterfell: 5 knights, 2 ships", "RECLAIM Eddard Stark", "CLEAR",
    "CLEAR ORDERS, RAVEN, MARCHES, RAIDS, SUPPORTS, CARDS, CASUALTIES, RETREATS, ABILITIES, BLADE, BIDS, MUSTERS, "
    "REMOVES, TIEBREAKS, RECLAIMS", "HELP", "STATUS", "ORDERS?", "PRESS Lannister: shall we talk?",
    "PRESS ALL: split a long message over several PRESS lines",
]


def _commands(text: str) -> list:
    """What the grammar reads in ``text`` (order lines without a header read as a block of their own)."""
    head = grammar._head(text.split("\n", 1)[0].split("#", 1)[0].strip())[0]
    body = text if grammar.COMMAND_WORDS.get(head) else "ORDERS\n" + text
    mail = grammar.parse_mail(body, NAMES)
    assert mail.ok, (text, [str(r.error) for r in mail.errors])
    # a PRESS line's text is the player's (the grammar's own samples are said in the language)
    return [("PRESS", c.to, c.anonymous) if isinstance(c, grammar.Press) else c for c in mail.commands]


def _same(text: str, language: str) -> None:
    said = RULESET.line(text, language)
    assert _commands(said) == _commands(text), (text, said)


@pytest.mark.parametrize("text", FORMS)
def test_every_command_form_reads_back_in_czech(text):
    _same(text, "cs")
    assert RULESET.line(text, "en") == text


def test_czech_lines_use_the_rulebook_words():
    cs = lambda text: RULESET.line(text, "cs")  # noqa: E731
    assert cs("MARCH Winterfell -> Karhold: 1 footman, 1 knight") == "POCHOD Winterfell -> Karhold: 1 pěšák, 1 rytíř"
    assert cs("Winterfell: march +1*") == "Winterfell: pochod +1*"
    assert cs("ORDERS\nLannisport: consolidate*") == "ROZKAZY\nLannisport: konsolidace síly*"
    assert cs("CASUALTIES 2 footmen, 5 knights IN Riverrun") == "ZTRÁTY 2 pěšáci, 5 rytířů V Riverrun"
    assert cs("BID 2  # Fiefdoms") == "SÁZKA 2  # Poddaní"
    assert cs("SUPPORT Stoney Sept -> Lannister") == "PODPORA Stoney Sept -> Lannister"


@pytest.mark.parametrize("text", [t for t in FORMS if "\n" not in t and not t.startswith(("PRESS", "BID 0", "BID 2"))])
def test_the_english_catalogue_writes_the_canonical_notation(text):
    single = grammar._parse_any(text, NAMES, True)
    assert messages.render(lines.message(single, NAMES), "en") == text


def test_every_line_of_the_transcript_reads_back_in_czech():
    _, said = agottranscript.emitted()
    checked = 0
    for text in sorted(set(said)):
        if text == "HELP" or not text.strip():
            continue
        _same(text, "cs")
        checked += 1
    assert checked > 500
