"""Canonical command lines in a player's language: ``Ruleset.line`` and the ``line`` filter of messages.

A canonical line (``MARCH Winterfell -> Karhold: 1 footman, 1 knight``, ``Winterfell: march +1*``,
``BID 3  # Fiefdoms``) is the grammar's own notation in English words: what the judge echoes, holds
on file (rules cases compare it) and gives as an example. For a reader of another language the line
is read back into its command (:mod:`.grammar`), turned into an ``agot.line.*`` message with plain
parameters (areas as on the board, unit kinds, card ids, house ids, order tokens) and rendered by that
language's catalogue in its command words (``POCHOD Winterfell -> Karhold: 1 pěšák, 1 rytíř``,
``Winterfell: pochod +1*``). The grammar reads every language's words, so each rendering reads back as
the same command (``tests/agot1e/test_agot_lines.py`` proves it for every command form and for every
line the transcript's games echoed, held on file or gave as an example). English lines are returned
as they are: the canonical notation is English already.

A line the grammar cannot read (never one the judge wrote) is returned unchanged.
"""

from __future__ import annotations

from functools import cache

from ...messages import Msg, register_line_hook, render
from . import grammar, say
from .commands import (ALL, Ability, Bid, BidAll, Blade, BuySupply, BuyToken, Card, Casualties, Choose, Clear, Consolidate, Discard, Give, Help, Loan,
                       March, Muster, MusterItem, OrderLine, Orders, OrdersQuery, Penalty, Port, Promote, Raid, Raven,
                       Reclaim, Redraw, Remove, Retreat, Status, Support, Tiebreak, Track)
from .commands import HandLook, Rebel  # agot2e-ru
from .commands import Answer, ExecutionBid, Ransom  # agot2e-ru: hostages
from .commands import Hire, Wages  # agot2e-ru mercenaries
from .edition import every


def _names() -> list[grammar.GameDataNames]:
    """Every house and card of each edition's data, the first edition first: a line on file or an
    example names only those. A line is read with the first edition whose names it fits: an area or
    card both editions name has the same name and id in both, so either reading renders alike."""
    return [_edition_names(rules) for rules in every()]


@cache
def _edition_names(rules) -> grammar.GameDataNames:
    return grammar.GameDataNames(rules.gamedata(), variant=rules.variant is not None)


_SAMPLES = {"shall we talk?": "agot.sample.talk",
            "split a long message over several PRESS lines": "agot.sample.long"}
"""The free texts of the grammar's PRESS examples (``grammar.EXAMPLES``): each catalogue says them."""


def _units(units) -> list[str] | str:
    return "all" if units == ALL else list(units)


def message(command, names: grammar.GameDataNames, trade: bool = False) -> Msg | None:
    """The ``agot.line.*`` message of a command read with ``names`` (None for what has no line of its own);
    ``trade``: the line names its Consolidate Power token Trade (agot2e-ru, a game with gold)."""
    area = names.area_name
    if isinstance(command, OrderLine):
        return Msg("agot.line.order", area=area(command.area), token=say.token(command.token.canonical(), trade))
    if isinstance(command, Orders):
        return Msg("agot.line.orders")
    if isinstance(command, Raid):
        return Msg("agot.line.raid", src=area(command.src), targets=[area(t) for t in command.targets])
    if isinstance(command, March):
        moves = [Msg("agot.line.move", dest=area(m.dest), units=_units(m.units)) for m in command.moves]
        return Msg("agot.line.march", src=area(command.src), moves=moves, leave_power=command.leave_power)
    battle = area(command.battle_area) if getattr(command, "battle_area", None) else None
    if isinstance(command, Support):
        return Msg("agot.line.support", src=area(command.src), house=command.house, battle=battle)
    if isinstance(command, Card):
        if command.card_id is None:  # agot2e-ru: CARD NONE
            return Msg("agot.line.no_card", battle=battle)
        return Msg("agot.line.card", card=command.card_id, battle=battle)
    if isinstance(command, Blade):
        return Msg("agot.line.blade", mode=command.mode, area=area(command.area) if command.area else None)
    if isinstance(command, Casualties):
        return Msg("agot.line.casualties", units=list(command.units), battle=battle)
    if isinstance(command, Retreat):
        return Msg("agot.line.retreat", area=area(command.area), battle=battle)
    if isinstance(command, Ability):
        return Msg("agot.line.ability", card=command.card_id, choice=command.choice)
    if isinstance(command, Raven):
        if command.look is not None:
            return Msg("agot.line.raven_look", look=command.look)
        if command.is_pass:
            return Msg("agot.line.raven_pass")
        return Msg("agot.line.raven", area=area(command.area), token=say.token(command.order.canonical()))
    if isinstance(command, BidAll):
        return Msg("agot.line.bid_all", throne=command.throne, fiefdoms=command.fiefdoms, court=command.court)
    if isinstance(command, Bid):
        return Msg("agot.line.bid", n=command.n)
    if isinstance(command, Tiebreak):
        return Msg("agot.line.tiebreak", houses=list(command.houses))
    if isinstance(command, Muster):
        if command.area is None:
            return Msg("agot.line.muster_none")
        return Msg("agot.line.muster", area=area(command.area), items=_items(command.items, names))
    if isinstance(command, Port):
        return Msg("agot.line.port", port=area(command.port), take=command.take)
    if isinstance(command, Consolidate):
        items = None if command.muster is None else _items(command.muster, names)
        return Msg("agot.line.consolidate", area=area(command.area), items=items)
    if isinstance(command, Redraw):
        return Msg("agot.line.redraw", redraw=command.redraw, cards=list(command.cards), battle=battle)
    if isinstance(command, Remove):
        return Msg("agot.line.remove", area=area(command.area), units=list(command.units))
    if isinstance(command, Reclaim):
        return Msg("agot.line.reclaim", card=command.card_id)
    if isinstance(command, Discard):
        return Msg("agot.line.discard", card=command.card_id)
    if isinstance(command, Track):
        return Msg("agot.line.track", track=command.track)
    if isinstance(command, Choose):
        return Msg("agot.line.choose", card=command.card_id, option=command.option)
    if isinstance(command, Promote):
        return Msg("agot.line.promote", demote=command.demote, areas=[[area(a), n] for a, n in command.areas])
    if isinstance(command, Penalty):
        return Msg("agot.line.penalty", choice=command.choice)
    if isinstance(command, BuyToken):  # agot2e-ru: the transactions at any time
        return Msg("agot.line.buy_token", area=area(command.area))
    if isinstance(command, BuySupply):
        return Msg("agot.line.buy_supply")
    if isinstance(command, Give):
        return Msg("agot.line.give", house=command.house, n=command.n)
    if isinstance(command, Loan):
        return Msg("agot.line.loan", n=command.n, repay=command.repay)
    if isinstance(command, Rebel):  # agot2e-ru
        return Msg("agot.line.rebel", area=area(command.area))
    if isinstance(command, HandLook):  # agot2e-ru
        return Msg("agot.line.hand", deck=command.deck)
    if isinstance(command, Ransom):
        return Msg("agot.line.ransom", card=command.card_id, gold=command.gold, cards=list(command.cards))
    if isinstance(command, Answer):
        return Msg("agot.line.hostage_answer", card=command.card_id, choice=command.choice, house=command.house)
    if isinstance(command, ExecutionBid):
        return Msg("agot.line.execution_bid", card=command.card_id, side=command.side, gold=command.gold)
    if isinstance(command, Hire):
        return Msg("agot.line.hire", company=command.company, n=command.bid)
    if isinstance(command, Wages):
        return Msg("agot.line.wages", choice=command.choice)
    if isinstance(command, Clear):
        return Msg("agot.line.clear", kinds=list(command.kinds))
    if isinstance(command, Help):
        return Msg("agot.line.help", topic=command.topic)
    if isinstance(command, Status):
        return Msg("agot.line.status")
    if isinstance(command, OrdersQuery):
        return Msg("agot.line.orders_query")
    return None


def _items(items: tuple[MusterItem, ...], names: grammar.GameDataNames) -> list[Msg]:
    return [Msg("agot.line.item", unit=i.unit, sea=names.area_name(i.sea) if i.sea else None, upgrade=i.upgrade)
            for i in items]


def _comment(text: str) -> Msg | None:
    """The comment of a BID line on file (``# Fiefdoms``, ``# Night's Watch``): the slot it names."""
    from .bidding import SLOT_NAME
    slot = next((s for s, name in SLOT_NAME.items() if name == text.strip()), None)
    return Msg("agot.line.slot", slot=slot) if slot else None


def _one(line: str, language: str, in_block: bool) -> str:
    body, hash_, comment = line.partition("#")
    words = body.strip()
    if not words:
        return line
    if words.split(None, 1)[0].upper() == "PRESS":  # free text: only the command word is the language's
        to, colon, said = words[len("PRESS"):].partition(":")
        if colon and said.strip() in _SAMPLES:  # the grammar's own examples say their text in the language
            said = " " + render(Msg(_SAMPLES[said.strip()]), language)
        if to.strip().upper() == "ALL":
            to = " " + render(Msg("agot.line.press_all"), language)
        return render(Msg("agot.line.press"), language) + to + colon + said
    try:
        command, names = _read(words, in_block)
    except grammar.LineError:
        return line
    msg = message(command, names, trade=isinstance(command, OrderLine) and words.rsplit(":", 1)[-1].strip().startswith("trade"))
    if msg is None:
        return line
    out = render(msg, language)
    if hash_:
        said = _comment(comment)
        out += body[len(body.rstrip()):] + "#" + (" " + render(said, language) if said else comment)
    return out


def _read(words, in_block: bool):
    """The command of ``words`` in the first edition whose names fit it, with those names."""
    *others, last = _names()
    for names in others:
        try:
            return grammar._parse_any(words, names, in_block), names
        except grammar.LineError:
            pass
    return grammar._parse_any(words, last, in_block), last


def in_language(text: str, language: str) -> str:
    """``text`` (one canonical line, or several: an ORDERS block) in ``language``'s words."""
    if language == "en" or not text:
        return text
    out = []
    for line in str(text).split("\n"):  # a line that starts with no command word is an order line
        out.append(_one(line, language, grammar.command_word(line.split("#", 1)[0].strip()) is None))
    return "\n".join(out)


register_line_hook("agot", in_language)
