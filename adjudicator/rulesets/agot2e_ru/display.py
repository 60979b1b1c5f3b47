"""The board section of an agot2e-ru report: the shared AGoT display (found here by ``reports.py``)."""

from ..agot.display import board

__all__ = ["board"]
