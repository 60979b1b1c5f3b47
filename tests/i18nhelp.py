"""Checks that a mail is wholly in its reader's language (issue 11).

``untranslated(text, language, namespaces)`` lists what betrays a missing translation in a
rendered mail: message keys shown as keys, and English words of the English catalogues (the
judge's and the given rulesets') that the reader's catalogue does not use too. Names (houses,
areas, cards where a language keeps the board's name) are in both catalogues or in none, so
they never count.
"""

from __future__ import annotations

import re
from functools import cache

from adjudicator import messages

_WORD = re.compile(r"[A-Za-zÀ-ž]{4,}")
_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)


def _words(catalogue: messages.Catalogue) -> set[str]:
    found: set[str] = set()
    for text in catalogue.messages.values():
        found |= {w.lower() for w in _WORD.findall(_JINJA.sub(" ", text))}
    for table in catalogue.names.values():
        for entry in table.values():
            for value in (entry.values() if isinstance(entry, dict) else [entry]):
                for inner in (value.values() if isinstance(value, dict) else [value]):
                    found |= {w.lower() for w in _WORD.findall(str(inner))}
    found |= {w.lower() for v in catalogue.words.values() for w in _WORD.findall(v)}
    return found


@cache
def english_only(language: str, namespaces: tuple[str, ...]) -> frozenset[str]:
    """Words of the English catalogues that ``language``'s catalogues never use."""
    english: set[str] = set()
    theirs: set[str] = set()
    for namespace in (None, *namespaces):
        english |= _words(messages.catalogue("en", namespace))
        theirs |= _words(messages.catalogue(language, namespace))
    return frozenset(english - theirs)


def untranslated(text: str, language: str, namespaces: tuple[str, ...]) -> list[str]:
    """Keys and English words in ``text`` that a ``language`` reader should never see."""
    leaks = messages.keys_in(text, ("judge", "mail", *namespaces))
    if language != "en":
        foreign = english_only(language, namespaces)
        leaks += sorted({w for w in _WORD.findall(text) if w.lower() in foreign})
    return leaks
