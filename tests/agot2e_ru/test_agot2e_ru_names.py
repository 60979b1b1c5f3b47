"""The variant reads the 2nd edition's own names (templates/<lang>/agot2e-ru/messages.yaml lies over
agot2e's, which lies over the family's): a variant game never shows a 1st-edition spelling."""

from __future__ import annotations

from adjudicator import messages
from adjudicator.messages import Msg


def test_a_variant_game_names_cards_as_the_second_edition_prints_them():
    played = Msg("agot.battle.plays", house="stark", card="rodrik-cassel", strength=1, swords=0, fortifications=2)
    assert messages.render(played, "en", "agot2e-ru") == messages.render(played, "en", "agot2e") \
        == "Stark plays Ser Rodrick Cassel (strength 1, 2 fortifications)."
    assert "Ser Rodrik Cassel" in messages.render(played, "en", "agot1e")
    assert messages.render(played, "cs", "agot2e-ru") == messages.render(played, "cs", "agot2e")
