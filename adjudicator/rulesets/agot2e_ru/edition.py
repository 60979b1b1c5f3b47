"""The Russian fan variant as the shared AGoT engine sees it: the 2nd edition (its data, cards, wildlings
and order rules, unchanged) with the variant's options and numbers (:mod:`.variant`).

The data is the 2nd edition's own ``games/agot2e/vN`` (the variant's map and cards are missing from the
seed); only ``games/agot2e-ru/vN/variant-params.yaml`` is the variant's. RULES.md next to this module
says which of the seed's rules are played, by which option, and why the rest is not.
"""

from __future__ import annotations

import dataclasses

from ..agot.edition import register
from ..agot2e.edition import EDITION as SECOND_EDITION
from . import variant

EDITION = register(dataclasses.replace(SECOND_EDITION, name="agot2e-ru", variant=variant))
