"""adjudicator/layered.py: a picture composed of cached static layers and sprites equals the picture
drawn whole (up to 8-bit rounding), sprites marked "under" stay beneath the static overlay, and
the PNG it writes decodes to exactly the image composed.
"""

from __future__ import annotations

import io

from PIL import Image, ImageChops

from adjudicator import layered
from adjudicator.picture import png_from_svg

W, H = 240, 160
ROOT = 'font-family="DejaVu Sans" font-stretch="condensed"'
UNDER = f'<rect width="{W}" height="{H}" fill="#a9c9de"/><path d="M20.3,20 L200.7,30.2 L180,140.5 L30,120 Z" fill="#ece3c6"/>'
OVER = ('<path d="M20.3,20 L200.7,30.2 L180,140.5 L30,120 Z" fill="none" stroke="#6e5f48" stroke-width="1.4"/>'
        '<text x="110" y="84" font-size="10" font-weight="bold" text-anchor="middle" fill="#2b2418">Harrenhal</text>')
TINT = '<path d="M20.3,20 L200.7,30.2 L180,140.5 L30,120 Z" fill="#f0b8ad" shape-rendering="crispEdges"/>'
UNIT = '<circle r="5" fill="#c0392b" stroke="#111111" stroke-width="1.3"/>'
LABEL = '<text font-size="11" font-weight="bold" fill="#2b2418">Kolo 4 z 10 · Železný trůn</text>'


def _doc(body: str) -> str:
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" {ROOT}>{body}</svg>'


def _layers(sprites) -> layered.Layers:
    return layered.Layers(W, H, ("test", len(sprites)), lambda: (_doc(UNDER), _doc(OVER)), sprites, ROOT)


def _rgb(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def test_layers_compose_to_the_whole_picture():
    layered.clear_caches()
    sprites = [layered.Sprite(TINT, 0, 0, (19, 19, 202, 142), under=True),
               layered.Sprite(UNIT, 100, 70, (-8, -8, 8, 8)),
               layered.Sprite(UNIT, 108, 72, (-8, -8, 8, 8)),  # overlaps the first: drawn in order
               layered.Sprite(LABEL, 30, 150, (-2, -14, 200, 5))]
    whole = _doc(UNDER + TINT + OVER + '<g transform="translate(100,70)">' + UNIT + '</g>'
                 + '<g transform="translate(108,72)">' + UNIT + '</g><g transform="translate(30,150)">' + LABEL + "</g>")
    expected = _rgb(png_from_svg(whole))
    for _ in range(2):  # drawn, then from the caches
        got = _rgb(layered.png(_layers(sprites)))
        diff = ImageChops.difference(got, expected)
        assert max(high for _, high in diff.getextrema()) <= 4
    # the name of the area is not hidden by its tint, the unit is there
    assert got.getpixel((100, 70)) != got.getpixel((60, 100))


def test_sprites_are_parsed_from_a_templates_markup():
    markup = ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10" font-family="X">'
              '<!--sprite 1 0 0 -1 -2 30 40--><path d="M0,0"/><!--/sprite-->\n'
              '<!--sprite 0 12 -3 -8 -8 8 8--><g><circle r="5"/></g><!--/sprite--></svg>')
    root, sprites = layered.parse_sprites(markup)
    assert root == 'font-family="X"'
    assert sprites == [layered.Sprite('<path d="M0,0"/>', 0, 0, (-1, -2, 30, 40), True),
                       layered.Sprite('<g><circle r="5"/></g>', 12, -3, (-8, -8, 8, 8), False)]


def test_the_png_written_decodes_to_the_image():
    image = Image.new("RGB", (37, 11), "#a9c9de")
    image.putpixel((3, 4), (1, 2, 3))
    image.putpixel((36, 10), (255, 0, 128))
    assert _rgb(layered.encode_png(image)).tobytes() == image.tobytes()


def test_packing_never_overlaps():
    boxes = [(-8, -8, 8, 8)] * 200 + [(0, 0, 1500, 20), (-3, -14, 90, 5), (0, 0, 300, 300)]
    places, width, height = layered._pack(boxes)
    rects = [(x, y, x + b[2] - b[0], y + b[3] - b[1]) for (x, y), b in zip(places, boxes)]
    for r in rects:
        assert r[2] <= width and r[3] <= height
    for i, a in enumerate(rects):
        for b in rects[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def test_a_sprite_spilling_out_of_its_box_does_not_spoil_its_neighbours():
    """Ink beyond a sprite's box is cut off; the sprites beside it on the atlas stay as drawn alone."""
    layered.clear_caches()
    long = '<text font-size="11" fill="#2b2418">a line far too long for its little box</text>'
    small = '<text font-size="12" font-weight="bold" fill="#2b2418">2</text>'
    together = layered.image(_layers([layered.Sprite(long, 20, 40, (-2, -14, 30, 5)),
                                      layered.Sprite(small, 60, 80, (-2, -14, 12, 5))]))
    layered.clear_caches()
    alone = layered.image(_layers([layered.Sprite(small, 60, 80, (-2, -14, 12, 5))]))
    assert together.crop((50, 60, 80, 90)).tobytes() == alone.crop((50, 60, 80, 90)).tobytes()


def test_the_same_under_sprite_in_two_places_keeps_what_lies_over_each():
    """A tint's patch holds the over layer where it stands: the same tint elsewhere is another patch."""
    layered.clear_caches()
    square = '<rect width="40" height="30" fill="#f0b8ad" shape-rendering="crispEdges"/>'
    sprites = [layered.Sprite(square, 90, 70, (-1, -1, 41, 31), under=True),
               layered.Sprite(square, 150, 100, (-1, -1, 41, 31), under=True)]
    got = _rgb(layered.png(_layers(sprites)))
    whole = _doc(UNDER + '<g transform="translate(90,70)">' + square + '</g><g transform="translate(150,100)">'
                 + square + "</g>" + OVER)
    diff = ImageChops.difference(got, _rgb(png_from_svg(whole)))
    assert max(high for _, high in diff.getextrema()) <= 4
