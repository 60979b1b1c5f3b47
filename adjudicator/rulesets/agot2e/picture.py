"""The agot2e board picture: the shared AGoT picture (found here by ``reports.py``), drawn from
``games/agot2e/vN/board.yaml`` (the 2nd-edition board with its ports)."""

from ..agot.picture import layers, model, png, svg

__all__ = ["layers", "model", "png", "svg"]
