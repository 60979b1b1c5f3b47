"""Where the project's data lives.

The judge runs from its checkout (installed with ``pip install -e .``): game data (``games/``)
and templates (``templates/``) are top-level folders of the repository, next to the package,
so that a data fix is a plain YAML or Jinja edit with no rebuild.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES_DIR = ROOT / "games"
TEMPLATES_DIR = ROOT / "templates"
DEFAULT_DATA = "judge-data"  # the data directory when neither --data nor $JUDGE_DATA says
