"""The trick rules as pure functions of cards: who may play what, who wins, who leads next.

Everything here takes card ids and the game data and returns plain values; the state machine
(``engine.py``) decides when to call what. The rules and where each comes from (S002 = the
Czech Claim 2 rulebook, OG = shared/reference/other-games.md section 2):

* Follow faction (S002 "ctít barvu"): a player holding a card of the led faction plays one of
  them or a Doppelganger; a player holding none plays anything. A Doppelganger is an option,
  never an obligation (OG 2.4; Board Game Arena: "a card of the same faction, a Doppelganger,
  or any card if they don't hold a card of the same faction").
* Ranking (S002, 3-4 players "Výhru si nejdříve vybírají ..."): the cards counting as the led
  faction by value, highest first, then every other card by value whatever its faction; equal
  values go to the player who played earlier. With two players this is "the higher card of the
  led faction wins, the leader wins ties, an off-faction card loses".
* Doppelgangers count as the led faction (S002 3-4 players; OG 2.4 for 2 players), without any
  of its powers (OG 2.7.7). A led Doppelganger makes Doppelgangers the led faction.
* Knights (S002 3-4 players; OG 2.4): when a Goblin is led, every Knight in the trick ranks above
  it, the highest Knight first; then the other Goblins (and Doppelgangers counting as Goblins);
  then the rest (decision OG 2.7.5).
* Dragons (S002): the last player to play a Dragon leads the next trick, whoever won it; in both
  phases (decision OG 2.7.3). A Doppelganger following a Dragon is no Dragon.
"""

from __future__ import annotations

from .gamedata import GameData

DOPPELGANGERS, GOBLINS, KNIGHTS = "doppelgangers", "goblins", "knights"


def led_faction(gd: GameData, plays: list[dict]) -> str | None:
    return gd.faction_of(plays[0]["card"]) if plays else None


def legal_plays(gd: GameData, hand: list[str], plays: list[dict]) -> list[str]:
    """The cards of ``hand`` that may be played to a trick where ``plays`` were made already."""
    led = led_faction(gd, plays)
    if led is None:
        return list(hand)
    same = [c for c in hand if gd.faction_of(c) == led]
    if not same:
        return list(hand)
    return [c for c in hand if gd.faction_of(c) in (led, DOPPELGANGERS)]


def must_follow(gd: GameData, hand: list[str], plays: list[dict]) -> bool:
    """True when the follow obligation restricts ``hand`` (it holds the led faction)."""
    led = led_faction(gd, plays)
    return led is not None and any(gd.faction_of(c) == led for c in hand)


def counts_as_led(gd: GameData, card: str, led: str) -> bool:
    return gd.faction_of(card) in (led, DOPPELGANGERS)


def ranking(gd: GameData, plays: list[dict]) -> list[int]:
    """Indices into ``plays`` (in play order), best first: the trick's winner is the first."""
    led = led_faction(gd, plays)
    knights = led == GOBLINS and any(gd.faction_of(p["card"]) == KNIGHTS for p in plays)

    def key(i: int) -> tuple:
        card = plays[i]["card"]
        faction = gd.faction_of(card)
        if knights and faction == KNIGHTS:
            tier = 0
        elif counts_as_led(gd, card, led):
            tier = 1
        else:
            tier = 2
        return (tier, -gd.value_of(card), i)

    return sorted(range(len(plays)), key=key)


def next_leader(gd: GameData, plays: list[dict], winner: str) -> str:
    """Who leads the next trick: the last player to play a real Dragon, else the winner."""
    dragons = [p["player"] for p in plays if gd.faction_of(p["card"]) == "dragons"]
    return dragons[-1] if dragons else winner


def lowest(gd: GameData, cards: list[str]) -> str:
    """The lowest card; equal values: the faction listed first in the data, then the id."""
    return min(cards, key=lambda c: (gd.value_of(c), gd.faction_order(gd.faction_of(c)), c))


def highest(gd: GameData, cards: list[str]) -> str:
    """The highest card; equal values: the faction listed first in the data, then the id."""
    return min(cards, key=lambda c: (-gd.value_of(c), gd.faction_order(gd.faction_of(c)), c))


def lowest_player(gd: GameData, plays: list[dict]) -> str:
    """3-4 players, Dwarves: who played the lowest card, any faction; equal values: the later
    player (S002 "V případě shody vítězí hráč, který zahrál svou kartu jako poslední")."""
    best = min(range(len(plays)), key=lambda i: (gd.value_of(plays[i]["card"]), -i))
    return plays[best]["player"]


def find(gd: GameData, cards: list[str], faction: str, value: int) -> str | None:
    """A card of ``faction`` and ``value`` among ``cards`` (the first copy), or None."""
    for c in cards:
        card = gd.cards[c]
        if card.faction == faction and card.value == value:
            return c
    return None


def best_prize(gd: GameData, prizes: list[str]) -> str:
    """The prize of highest value; equal values: the one revealed first."""
    return prizes[min(range(len(prizes)), key=lambda i: (-gd.value_of(prizes[i]), i))]


def worst_prize(gd: GameData, prizes: list[str]) -> str:
    """The prize of lowest value; equal values: the one revealed first."""
    return prizes[min(range(len(prizes)), key=lambda i: (gd.value_of(prizes[i]), i))]
