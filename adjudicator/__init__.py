"""throne judge: a play-by-email adjudicator for throne games.

Layers (data flows down, never back up): mail -> journal -> grammar -> judge -> engine
(pure) -> store -> reports. See README.md, section "Architecture".
"""

__version__ = "0.1.0"
