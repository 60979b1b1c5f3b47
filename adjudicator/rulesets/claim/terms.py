"""The pieces claim messages are made of: cards, plan alternatives and command lines, as data.

The claim rulesets never write a sentence (issue 11): they emit :class:`~adjudicator.messages.Msg`
keys in the ``claim.`` namespace, rendered per language from ``templates/<lang>/claim/messages.yaml``.
What a message says about cards must therefore be language-neutral data:

* a card is ``{"faction": "gnomes", "value": 5}``: the catalogue names it in the form its phrase
  needs (``Gnome 5``; Czech ``gnóm 5``, ``gnóma 5``, ``gnómem 5``), which a ready-made name could
  not give;
* a command line (an echo, a plan on file quoted in an event) is a message ``claim.line.<command>``
  whose alternatives are messages too (``claim.card``, ``claim.alt.lowest``): rendered in English
  it is the canonical line, in Czech the same command in the grammar's Czech words
  (``HRAJ gnóm 5 NEBO NEJNIŽŠÍ``), which the grammar reads back as the same command.

A message among the parameters is stored as ``{key, params}``, so events stay plain YAML.
"""

from __future__ import annotations

from ...messages import Msg
from .gamedata import GameData

WORD_ALTS = ("lowest", "highest", "deck", "prize")
"""Plan alternatives that are words, not cards (see ``position.py``)."""


def card(gd: GameData, card_id: str) -> dict:
    """A card as message data: its faction and value (copies of one value are alike to players)."""
    c = gd.card(card_id)
    return {"faction": c.faction, "value": c.value}


def cards(gd: GameData, ids) -> list[dict]:
    """Cards as message data, in the order hands and piles are listed (faction order, value)."""
    return [card(gd, c) for c in sorted(ids, key=gd.sort_key)]


def in_order(gd: GameData, ids) -> list[dict]:
    """Cards as message data, in the order given (prizes as revealed, options as offered)."""
    return [card(gd, c) for c in ids]


def card_msg(faction: str, value: int) -> Msg:
    """A card named on its own, as a command line writes it (``Gnome 5`` / ``gnóm 5``)."""
    return Msg("claim.card", faction=faction, value=int(value))


def faction_msg(faction: str) -> Msg:
    """A faction's name as a heading or list item (``Gnomes`` / ``Gnómové``)."""
    return Msg("claim.faction", faction=faction)


def alt_msg(alt: str) -> Msg:
    """A plan alternative (``gnomes 5``, ``lowest``, ``deck``, ...) as a command line writes it."""
    parts = alt.split()
    if len(parts) == 2 and parts[1].isdigit():
        return card_msg(parts[0], int(parts[1]))
    if alt in WORD_ALTS:
        return Msg(f"claim.alt.{alt}")
    raise ValueError(f"not a plan alternative: {alt!r}")


def line_msg(command: str, alts=()) -> Msg:
    """A PLAY or TAKE line of plan alternatives (``command`` ``play`` | ``take``) as a message."""
    return Msg(f"claim.line.{command}", alts=[alt_msg(a) for a in alts])
