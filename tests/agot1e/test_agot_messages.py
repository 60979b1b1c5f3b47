"""agot1e speaks in ``agot.*`` message keys (issue 11): English as before, Czech complete, lines in Czech.

* the English rendering of everything the ruleset says (seeded games with 3, 4 and 5 houses, a bank of
  wrong mails, every rules case) is exactly the transcript recorded from the engine before the
  conversion (``expected/transcript-en.txt``);
* every key the engine emitted there exists in both catalogues, and renders in Czech without a key,
  a raw parameter dump or an English word of the catalogue;
* the house-card question of a battle names the opponent's cards still in hand.
"""

from __future__ import annotations

import re

import pytest

from adjudicator import messages, ruleset as rulesets
from adjudicator.ruleset import Event
from tests.agot1e import agottranscript
from tests.i18nhelp import untranslated


QUOTED = re.compile(r"„[^“]*“")
"""What the player wrote, quoted in an error („attack“): the player's words, not the catalogue's."""


@pytest.fixture(scope="module")
def emitted():
    return agottranscript.emitted()


HOLDS = re.compile(r"^(owed \w+(?: \(done\))?: house card for the battle at .*?) \(\w+ holds: [^()]*\)$")
"""The one deliberate change of English: the house-card question names the opponent's cards in hand."""


def test_english_is_the_engine_english_before_the_conversion():
    now = [HOLDS.sub(r"\1", line) for line in agottranscript.transcript("en")]
    before = agottranscript.EXPECTED.read_text(encoding="utf-8").splitlines()
    for i, (a, b) in enumerate(zip(before, now)):
        assert a == b, f"line {i + 1} of {agottranscript.EXPECTED.name} differs"
    assert len(now) == len(before)


def test_the_catalogues_have_the_same_keys():
    assert messages.missing("agot") == []


def _keys(value, out: set[str]) -> None:
    if isinstance(value, messages.Msg):
        out.add(value.key)
        for v in value.params.values():
            _keys(v, out)
    elif isinstance(value, dict):
        for v in value.values():
            _keys(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _keys(v, out)


def test_every_emitted_key_is_in_both_catalogues(emitted):
    said, _ = emitted
    keys: set[str] = set()
    for value in said:
        assert isinstance(value, (messages.Msg, dict)), f"not a message: {value!r}"
        _keys(value, keys)
    assert len(keys) > 200
    for language in messages.LANGUAGES:
        known = messages.catalogue(language, "agot").messages
        assert sorted(k for k in keys if k.startswith("agot.") and k not in known) == [], language


def test_every_emitted_message_reads_in_czech(emitted):
    said, _ = emitted
    seen = set()
    for value in said:
        if not isinstance(value, messages.Msg) or value in seen:
            continue
        seen.add(value)
        text = messages.render(value, "cs")
        assert "{" not in text and "Msg(" not in text, text
        assert untranslated(QUOTED.sub("", text), "cs", ("agot", "agot1e")) == [], text


def test_events_and_errors_are_plain_data(emitted):
    """A message's parameters are YAML data (states store events, the journal stores nothing else):
    a round trip through YAML renders the same in both languages."""
    import yaml
    said, _ = emitted
    for value in said:
        if isinstance(value, messages.Msg):
            again = Event.from_dict(yaml.safe_load(yaml.safe_dump(Msg_dict(value))))
            assert again.text == messages.render(value, "en")
            assert messages.render(again, "cs") == messages.render(value, "cs")


def Msg_dict(value: messages.Msg) -> dict:  # noqa: N802
    return value.as_dict() if isinstance(value, Event) else messages.Msg.as_dict(value)


def test_the_house_card_question_names_the_opponents_cards():
    ruleset = rulesets.get("agot1e")
    state = ruleset.case_state({
        "players": ["stark", "lannister", "baratheon"], "round": 2, "step": "action",
        "areas": {"Winterfell": {"stark": ["footman", "knight"]}, "Karhold": {"lannister": ["footman"]}},
        "orders": {"Winterfell": "march 0"},
        "discards": {"lannister": ["Ser Jaime Lannister", "Tyrion Lannister", "Ser Kevan Lannister", "Lannister Captain",
                                   "Vargo Hoat"]},  # the hand: the other two
    })
    sub = ruleset.submit(state, "stark", "MARCH Winterfell -> Karhold: ALL")
    assert sub.applied
    state = sub.state
    for _ in range(5):  # the raid step, the march, the battle's supports
        if state["battle"] and state["battle"]["stage"] == "cards":
            break
        state, _ = ruleset.advance(state, force=True)
    assert state["battle"]["stage"] == "cards"
    owed = {o.player: o.what for o in ruleset.pending(state)}
    assert owed["stark"].params["cards"] == ["tywin-lannister", "cersei-lannister"]
    assert messages.render(owed["stark"], "en") == \
        "house card for the battle at Karhold (Lannister holds: Tywin Lannister, Cersei Lannister)"
    czech = messages.render(owed["stark"], "cs")
    assert "Tywin Lannister" in czech and "Cersei Lannister" in czech and "Lannister" in czech
    assert untranslated(czech, "cs", ("agot", "agot1e")) == []
    assert re.search(r"Eddard Stark|Robb Stark", messages.render(owed["lannister"], "cs"))
    # the board of a report shows both hands too (public: the seven cards less the face-up discards)
    from adjudicator import reports
    view = ruleset.view(state, "baratheon")
    board = reports.board_of(ruleset, view, "baratheon")
    assert board["battle"]["hands"]["Lannister"] == ["Tywin Lannister", "Cersei Lannister"]
    for language, word in (("en", "Lannister holds: Tywin Lannister, Cersei Lannister"),
                           ("cs", "Lannister má v ruce: Tywin Lannister, Cersei Lannister")):
        text = reports.environment(language).get_template("agot1e/board.txt.j2").render(
            board=board, player="baratheon", ruleset="agot1e")
        assert word in text


def test_czech_counts_cases_and_names():
    cs = lambda key, **params: messages.render(messages.Msg(key, params), "cs")  # noqa: E731
    assert cs("agot.march.done", house="stark", units={"footman": 1}, src="Winterfell", dest="Karhold", neutral=None,
              token=None) == "Rod Stark táhne z oblasti Winterfell do oblasti Karhold (1 pěšák)."
    assert "(2 pěšáci, 5 rytířů)" in cs("agot.march.done", house="stark", units={"footman": 2, "knight": 5},
                                          src="Winterfell", dest="Karhold", neutral=None, token=None)
    assert "5 pěšáků" in cs("agot.battle.loses", house="stark", units=["footman"] * 5, area="Karhold",
                            why=messages.Msg("agot.battle.swords", swords=2, win_card="tywin-lannister",
                                             fortifications=0, lose_card="eddard-stark"))
    assert "útočí na rod Stark" in cs("agot.owed.support", src="Lannisport", area="Riverrun", attacker="lannister",
                                      defender="stark")
    assert "rozkaz obrany" in cs("agot.ability.no_defense", card="catelyn-stark", house="stark", area="Winterfell")
    assert cs("agot.westeros.nothing", card="last-days-of-summer") == "Poslední dny léta: nic se neděje."
    assert cs("agot.clash.track", slot="fiefdoms", houses=["stark", "lannister"]).endswith(
        "rod Stark drží Valyrijský ocelový meč.")
