"""``python -m adjudicator`` is the ``judge`` command."""

from .cli import main

main(prog_name="judge")
