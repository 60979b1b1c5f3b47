"""The writing of a ruleset's transcript (``tests/agot1e/agottranscript.py``,
``tests/oriflamme/oriflammetranscript.py``): what a player reads of each mail, event and owed
decision, in one language, line by line, with a recorder of every message and canonical line
rendered (the catalogue tests check each has its key in every catalogue).

The transcript formats are fixed by the expected files they are compared with: a change here is a
change of every transcript."""

from __future__ import annotations

import copy
from typing import Callable

from adjudicator import messages


class Recorder:
    """Renders for a transcript; while :meth:`emitted` runs, also keeps what it rendered."""

    def __init__(self):
        self.said: list | None = None  # every message rendered (and what :meth:`keep` is given)
        self.lines: list[str] | None = None  # every canonical line (echo, example, on file)

    def keep(self, value) -> None:
        if self.said is not None and value is not None:
            self.said.append(value)

    def say(self, value, language: str) -> str:
        self.keep(value)
        return messages.render(value, language) if value is not None else ""

    def line(self, ruleset, text: str | None, language: str) -> str:
        if text is None:
            return ""
        if self.lines is not None:
            self.lines.append(text)
        hook = getattr(ruleset, "line", None)
        return hook(text, language) if hook is not None else text

    def mail(self, ruleset, state: dict, player: str, text: str, language: str, out: list[str], label: str):
        """The judge's reading of one mail: each line's echo or error and example, notes, what is on file."""
        sub = ruleset.submit(copy.deepcopy(state), player, text)
        out.append(f"{label} {player} ({'applied' if sub.applied else 'refused'}):")
        for ln in sub.parsed.lines:
            if ln.ok:
                out.append(f"  {ln.lineno} ok {self.line(ruleset, ln.canonical, language)}")
            else:
                out.append(f"  {ln.lineno} error {self.say(ln.error, language)}")
                for i, example in enumerate(self.line(ruleset, ln.example, language).split("\n")):
                    out.append(f"    {'example' if i == 0 else '       '} {example}")
        for note in sub.notes:
            out.append(f"  note {self.say(note, language)}")
        if sub.applied:
            for line in ruleset.on_file(sub.state, player):
                out.append(f"  on file {self.line(ruleset, line, language)}")
        return sub

    def events(self, events, language: str, out: list[str]) -> None:
        for e in events:
            out.append(f"event {'all' if e.to is None else ','.join(e.to)}: {self.say(e, language)}")

    def owed(self, ruleset, state: dict, language: str, out: list[str]) -> None:
        for owed in ruleset.pending(state):
            out.append(f"owed {owed.player}{' (done)' if owed.done else ''}: {self.say(owed.what, language)}")

    def emitted(self, write: Callable[[], object]) -> tuple[list, list[str]]:
        """Every message and every canonical line that ``write`` (a whole transcript) renders."""
        self.said, self.lines = [], []
        try:
            write()
            return self.said, self.lines
        finally:
            self.said = self.lines = None
