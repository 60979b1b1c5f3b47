"""A picture drawn in layers: what never changes is drawn once, what changes as small cached sprites.

Why: drawing a whole report picture with resvg costs about 220 ms (1056 x 1026 px), and almost
none of it depends on the report: resvg spends about 40 ms on a blank canvas of that size (most of
it its PNG encoder) and about half a millisecond per text, and the board's shapes, borders, names
and the panel's headings never change in a game. So a picture is split into

- two **static layers**, drawn once per *key* (the ruleset says what they depend on: data version,
  language, number of houses) and kept in memory: *under* (opaque: the sea, the areas in their
  plain colours) and *over* (transparent: borders, rivers, names, the panel's fixed parts);
- **sprites**, the parts that change: small SVG fragments (a unit, an order token, a house chip, a
  number) with the box around their origin that holds all their ink. A sprite marked *under* goes
  between the two static layers (an area's tint, so that names and borders stay on top of it); the
  others go on top, in their order. Compositing "over" is linear in what lies beneath, so pasting a
  sprite (or an under-sprite with the over layer already composited onto it, masked by its own
  alpha) gives the colours the full SVG would, up to 8-bit rounding.

Sprites are rendered by resvg too, all the ones not yet cached in one call on a small atlas
canvas, each at a whole-pixel offset from where it goes, so anti-aliasing and text look exactly as
in the full picture; each is then cached by its markup (the same chip or unit is drawn once per
process). The PNG is written here with no row filter and fast zlib: flat-coloured boards compress
as well as with resvg's encoder, in about a third of the time.

A picture template draws itself in four layers (:func:`from_template`): ``all`` (the SVG file),
``under`` and ``over`` (given only ``S``, the model of what never changes, so that a static layer
cannot show a player's view) and ``sprites`` (given ``S`` and ``D``, the view's part), where the
macro ``sprite`` of ``templates/pictures/layers.svg.j2`` writes each sprite as (:func:`parse_sprites`)::

    <svg ...root attributes...>
    <!--sprite U X Y LEFT TOP RIGHT BOTTOM-->fragment drawn around the origin<!--/sprite-->

U is 1 for an under-sprite, else 0; X, Y are whole pixels; the box is relative to X, Y.
"""

from __future__ import annotations

import io
import re
import struct
import threading
import zlib
from collections import OrderedDict
from dataclasses import dataclass
from typing import Callable, Hashable, Sequence

import jinja2
from PIL import Image

from .picture import PictureError, png_from_svg

SVG_NS = "http://www.w3.org/2000/svg"
ATLAS_WIDTH = 1024  # pixels; sprites wider than this get a row of their own
GAP = 2  # pixels between sprites on the atlas
STATIC_KEEP = 8  # static layer pairs kept (each about 7 MB at 1056 x 1026)
SPRITES_KEEP = 4096  # sprites kept
ZLIB_LEVEL = 1

_SPRITE = re.compile(r"<!--sprite ([01]) (-?\d+) (-?\d+) (-?\d+) (-?\d+) (-?\d+) (-?\d+)-->(.*?)<!--/sprite-->", re.S)
_ROOT = re.compile(r"<svg\b([^>]*)>")
_SIZE_ATTRIBUTES = re.compile(r'\s(?:xmlns|width|height|viewBox)="[^"]*"')


@dataclass(frozen=True)
class Sprite:
    """An SVG fragment drawn around the origin, put at whole pixels (x, y); box = (left, top,
    right, bottom) around the origin, holding all its ink (what lies outside is cut off)."""

    markup: str
    x: int
    y: int
    box: tuple[int, int, int, int]
    under: bool = False


@dataclass(frozen=True)
class Layers:
    """A picture as static layers and sprites. ``static()`` returns the (under, over) SVG
    documents of ``width`` x ``height``; it is called only when ``key`` is not cached, and must
    draw from what ``key`` names only. ``root`` holds the attributes sprites inherit (the font)."""

    width: int
    height: int
    key: Hashable
    static: Callable[[], tuple[str, str | None]]  # over may be None: nothing is drawn above the tints
    sprites: Sequence[Sprite]
    root: str = ""


class _Lru:
    def __init__(self, keep: int):
        self.keep = keep
        self.items: OrderedDict = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key):
        with self.lock:
            value = self.items.get(key)
            if value is not None:
                self.items.move_to_end(key)
            return value

    def put(self, key, value) -> None:
        with self.lock:
            self.items[key] = value
            self.items.move_to_end(key)
            while len(self.items) > self.keep:
                self.items.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.items.clear()


_static = _Lru(STATIC_KEEP)
_sprites = _Lru(SPRITES_KEEP)


def clear_caches() -> None:
    """Forget every static layer and sprite (tests; a long-running process never needs it)."""
    _static.clear()
    _sprites.clear()


def from_template(template: jinja2.Template, model: dict, key: Hashable) -> Layers:
    """The layers of ``template`` drawn from ``model`` = ``{"S": static, "D": dynamic}``; ``S`` holds
    the picture's ``width`` and ``height``, and ``key`` must name everything ``S`` depends on."""
    static = model["S"]
    root, sprites = parse_sprites(template.render(layer="sprites", **model))
    return Layers(width=round(static["width"]), height=round(static["height"]), key=key,
                  static=lambda: (template.render(layer="under", S=static), template.render(layer="over", S=static)),
                  sprites=sprites, root=root)


def parse_sprites(markup: str) -> tuple[str, list[Sprite]]:
    """The root attributes and the sprites of a template drawn in its ``sprites`` layer."""
    root = _ROOT.search(markup)
    attributes = _SIZE_ATTRIBUTES.sub("", root.group(1)).strip() if root else ""
    sprites = [Sprite(m.group(8), int(m.group(2)), int(m.group(3)),
                      (int(m.group(4)), int(m.group(5)), int(m.group(6)), int(m.group(7))), m.group(1) == "1")
               for m in _SPRITE.finditer(markup)]
    return attributes, sprites


def png(layers: Layers) -> bytes:
    """The PNG of ``layers``: the cached static picture, under-sprites, then the others."""
    return encode_png(image(layers))


def image(layers: Layers) -> Image.Image:
    """The picture of ``layers`` as an RGB image (see :func:`png`)."""
    static, over = _static_layers(layers)
    canvas = static.copy()
    drawn = _drawn_sprites(layers, over)
    for sprite in layers.sprites:
        left, top = sprite.x + sprite.box[0], sprite.y + sprite.box[1]
        value = drawn[_key(layers, sprite)]
        if sprite.under:
            patch, mask = value
            canvas.paste(patch, (left, top), mask)
        else:
            canvas.paste(value, (left, top), value)
    return canvas


def _key(layers: Layers, sprite: Sprite) -> tuple:
    # an under-sprite's patch holds the over layer where it stands: it belongs to its static key and place
    where = (layers.key, sprite.x, sprite.y) if sprite.under else None
    return (where, layers.root, sprite.markup, sprite.box, sprite.under)


def _static_layers(layers: Layers) -> tuple[Image.Image, Image.Image]:
    cached = _static.get(layers.key)
    if cached is None:
        under_svg, over_svg = layers.static()
        under = _decode(png_from_svg(under_svg), (layers.width, layers.height))
        if over_svg is None:
            over = Image.new("RGBA", under.size, (0, 0, 0, 0))
            cached = (under.convert("RGB"), over)
        else:
            over = _decode(png_from_svg(over_svg), (layers.width, layers.height))
            cached = (Image.alpha_composite(under, over).convert("RGB"), over)
        _static.put(layers.key, cached)
    return cached


def _decode(data: bytes, size: tuple[int, int]) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    image = image.convert("RGBA")
    if image.size != size:
        raise PictureError(f"a layer drawn {image.size[0]} x {image.size[1]}, not {size[0]} x {size[1]}")
    return image


def _drawn_sprites(layers: Layers, over: Image.Image) -> dict:
    """Every sprite of ``layers`` drawn, by key: from the cache, the others rendered all on one
    atlas (and cached)."""
    drawn: dict[tuple, object] = {}
    missing: dict[tuple, Sprite] = {}
    for sprite in layers.sprites:
        key = _key(layers, sprite)
        if key in drawn or key in missing:
            continue
        value = _sprites.get(key)
        if value is None:
            missing[key] = sprite
        else:
            drawn[key] = value
    if not missing:
        return drawn
    places, width, height = _pack([s.box for s in missing.values()])
    parts = [f'<svg xmlns="{SVG_NS}" width="{width}" height="{height}" viewBox="0 0 {width} {height}" {layers.root}>']
    for i, (sprite, (ax, ay)) in enumerate(zip(missing.values(), places)):
        # clipped to its box: ink beyond it must not spill onto a neighbour, which would be cached so
        w, h = sprite.box[2] - sprite.box[0], sprite.box[3] - sprite.box[1]
        parts.append(f'<clipPath id="s{i}"><rect x="{ax}" y="{ay}" width="{w}" height="{h}"/></clipPath>'
                     f'<g clip-path="url(#s{i})"><g transform="translate({ax - sprite.box[0]},{ay - sprite.box[1]})">'
                     f'{sprite.markup}</g></g>')
    parts.append("</svg>")
    atlas = _decode(png_from_svg("\n".join(parts)), (width, height))
    for (key, sprite), (ax, ay) in zip(missing.items(), places):
        left, top, right, bottom = sprite.box
        piece = atlas.crop((ax, ay, ax + right - left, ay + bottom - top))
        if sprite.under:
            x0, y0 = sprite.x + left, sprite.y + top
            opaque = piece.copy()
            opaque.putalpha(255)
            patch = Image.alpha_composite(opaque, over.crop((x0, y0, x0 + right - left, y0 + bottom - top)))
            value = (patch.convert("RGB"), piece.getchannel("A"))
        else:
            value = piece
        _sprites.put(key, value)
        drawn[key] = value
    return drawn


def _pack(boxes: list[tuple[int, int, int, int]]) -> tuple[list[tuple[int, int]], int, int]:
    """Shelf packing: the tallest first, rows of at most ATLAS_WIDTH pixels. Returns each box's
    top-left corner on the atlas (in the order given) and the atlas size."""
    order = sorted(range(len(boxes)), key=lambda i: -(boxes[i][3] - boxes[i][1]))
    places: list[tuple[int, int]] = [(0, 0)] * len(boxes)
    x = y = row = width = 0
    for i in order:
        w, h = boxes[i][2] - boxes[i][0], boxes[i][3] - boxes[i][1]
        if x and x + w > ATLAS_WIDTH:
            x, y, row = 0, y + row + GAP, 0
        places[i] = (x, y)
        x += w + GAP
        row = max(row, h)
        width = max(width, x)
    return places, max(width, 1), max(y + row, 1)


def encode_png(image: Image.Image) -> bytes:
    """``image`` (RGB) as a PNG: no row filter and zlib level 1, which for a board of flat colours
    is as small as resvg's PNG and much faster than Pillow's adaptive filtering."""
    image = image.convert("RGB") if image.mode != "RGB" else image
    width, height = image.size
    raw = image.tobytes()
    stride = width * 3
    rows = b"".join(b"\x00" + raw[i:i + stride] for i in range(0, stride * height, stride))
    return b"".join((
        b"\x89PNG\r\n\x1a\n",
        _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)),
        _chunk(b"IDAT", zlib.compress(rows, ZLIB_LEVEL)),
        _chunk(b"IEND", b""),
    ))


def _chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))
