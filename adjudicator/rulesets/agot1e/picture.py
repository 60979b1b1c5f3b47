"""The agot1e board picture: the shared AGoT picture (found here by ``reports.py``), drawn from
``games/agot1e/vN/board.yaml``."""

from ..agot.picture import layers, model, png, svg

__all__ = ["layers", "model", "png", "svg"]
