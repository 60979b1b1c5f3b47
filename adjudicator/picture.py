"""Pictures of a game: a ruleset's SVG, and that SVG as PNG with the project's own font.

A ruleset that can draw itself ships a module ``picture`` next to its ruleset module with
``svg(view, player, language) -> str``, drawn from ``ruleset.view(state, player)`` only (see
:func:`adjudicator.reports.picture_of`, which finds it the way it finds ``display``), and
optionally ``png(...) -> bytes``, the same picture drawn fast in layers (:mod:`.layered`). Its
template lives in ``templates/pictures/<ruleset>/`` (:func:`template`).

PNG comes from resvg (the ``resvg-py`` wheel: a self-contained Rust renderer, no system cairo or
fonts needed). System fonts are never loaded: the SVG names the family ``DejaVu Sans`` and the
renderer is handed the TTF files in ``adjudicator/fonts/`` (DejaVu Sans Condensed, with its
licence), so a fresh CI machine draws the same letters, Czech diacritics included, as a
developer's machine.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import jinja2

from .paths import TEMPLATES_DIR

FONTS_DIR = Path(__file__).resolve().parent / "fonts"
FONT_FAMILY = "DejaVu Sans"
FONT_FILES = ("DejaVuSansCondensed.ttf", "DejaVuSansCondensed-Bold.ttf")


class PictureError(Exception):
    """The SVG could not be turned into a PNG (bad SVG, renderer missing)."""


@cache
def template(name: str) -> jinja2.Template:
    """A picture template of ``templates/pictures/`` (StrictUndefined: a missing value is an error,
    never a blank; autoescaped: names and words are text in the SVG)."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES_DIR / "pictures"),
                             undefined=jinja2.StrictUndefined, autoescape=True, trim_blocks=True, lstrip_blocks=True)
    return env.get_template(name)


def font_files() -> list[str]:
    return [str(FONTS_DIR / name) for name in FONT_FILES]


def png_from_svg(svg: str, *, zoom: float = 1.0) -> bytes:
    """The PNG of ``svg``, drawn with the project's font only."""
    try:
        import resvg_py
    except ImportError as exc:  # pragma: no cover - a dependency of the project
        raise PictureError(f"the SVG renderer is not installed: {exc}") from None
    try:
        data = resvg_py.svg_to_bytes(
            svg_string=svg,
            skip_system_fonts=True,
            font_files=font_files(),
            font_family=FONT_FAMILY,
            sans_serif_family=FONT_FAMILY,
            zoom=zoom,
        )
    except (ValueError, RuntimeError) as exc:
        raise PictureError(f"the picture could not be drawn: {exc}") from None
    return bytes(data)
