"""A player's preferences, set by mail: language, time zone, how often reports come.

``SET LANGUAGE en|cs``, ``SET TIMEZONE Europe/Prague``, ``SET REPORTS DIGEST|EVERY STEP`` (Czech
``NASTAV JAZYK``, ``NASTAV PÁSMO``/``NASTAV ČASOVÉ PÁSMO``, ``NASTAV ZPRÁVY SOUHRN|KAŽDÝ KROK``)
are the mail service's, not a game's: :func:`preference_lines` takes them out of a mail before
the game's grammar reads it (the lines are blanked, so line numbers stay), and the postmaster
stores the changes on the player's seat in ``game.yaml`` under the game lock, with a ``note``
entry in the journal. The reply is already written with the new settings.

The settings of a seat (``game.yaml``: ``players.<name>``): ``language`` (``en``), ``timezone``
(default: the language's, ``localtime.DEFAULT_ZONES``) and ``reports`` (``digest``, the default:
a report when the player must act or a phase ended; ``every-step``: one per adjudicated step).
"""

from __future__ import annotations

import re

from .. import localtime, mailbody
from ..messages import LANGUAGES, Msg
from ..ruleset import LineResult

LANGUAGE_ALIASES = {"en": "en", "english": "en", "eng": "en", "anglicky": "en", "anglictina": "en",
                    "cs": "cs", "cz": "cs", "czech": "cs", "cesky": "cs", "cestina": "cs"}
"""What players may write after SET LANGUAGE (folded: lower case, no diacritics)."""
LANGUAGE_NAMES = {"en": "English", "cs": "čeština"}
REPORTS = {"digest": "digest", "souhrn": "digest", "every step": "every-step", "each step": "every-step",
           "every": "every-step", "kazdy krok": "every-step", "kazdy": "every-step", "vsechny": "every-step",
           "all": "every-step"}
"""What players may write after SET REPORTS (folded) -> the setting."""
REPORT_WORDS = {"digest": {"en": "DIGEST", "cs": "SOUHRN"}, "every-step": {"en": "EVERY STEP", "cs": "KAŽDÝ KROK"}}

_SET = re.compile(r"^\s*(?:set|nastav)\s+(language|jazyk|timezone|time\s+zone|pasmo|casove\s+pasmo|reports|zpravy)"
                  r"\b\s*(.*?)\s*$")
_FIRST_WORDS = ("set", "nastav")  # what _SET's lines start with, folded
_WHAT = {"language": "language", "jazyk": "language", "timezone": "timezone", "time zone": "timezone",
         "pasmo": "timezone", "casove pasmo": "timezone", "reports": "reports", "zpravy": "reports"}
EXAMPLES = {"language": "SET LANGUAGE cs", "timezone": "SET TIMEZONE Europe/Prague", "reports": "SET REPORTS DIGEST"}


def preference_lines(text: str) -> tuple[str, list[LineResult], dict[str, str]]:
    """SET lines taken out of a mail body: (the text with them blanked, their results, the changes
    asked for: ``language``, ``timezone``, ``reports``; the last valid line of each kind wins)."""
    results: list[LineResult] = []
    changes: dict[str, str] = {}
    if not mailbody.may_start_with(text, _FIRST_WORDS):
        return text, [], {}  # (most mails)
    for lineno, raw in mailbody.logical_lines(text):
        body = raw.split("#", 1)[0]
        folded = " ".join(mailbody.strip_accents(body).split())
        match = _SET.match(folded)
        if not match:
            continue
        keyword = " ".join(match.group(1).split())
        skip = 1 + len(keyword.split())  # SET and the setting's words; the value as written follows
        result = _one(lineno, raw, _WHAT[keyword], match.group(2), " ".join(body.split()[skip:]))
        results.append(result)
        if result.ok:
            what, value = _setting(result.canonical)
            changes[what] = value
    if not results:
        return text, [], {}
    return mailbody.blank_lines(text, {r.lineno for r in results}), results, changes


def _setting(canonical: str) -> tuple[str, str]:
    """``SET TIMEZONE Europe/Prague`` -> ("timezone", "Europe/Prague"); reports as stored (``every-step``)."""
    _, what, value = canonical.split(None, 2)
    if what == "REPORTS":
        return "reports", next(k for k, w in REPORT_WORDS.items() if w["en"] == value)
    return what.lower(), value


def _one(lineno: int, raw: str, what: str, value: str, written: str) -> LineResult:
    if what == "language":
        language = LANGUAGE_ALIASES.get(value)
        if language is None:
            return LineResult(lineno, raw, error=Msg("mail.set.language_unknown", wanted=written, known=list(LANGUAGES))
                              if value else Msg("mail.set.language_missing"), example=EXAMPLES[what])
        return LineResult(lineno, raw, canonical=f"SET LANGUAGE {language}")
    if what == "timezone":
        try:
            zone = localtime.canonical_zone(written)
        except localtime.UnknownZone:
            return LineResult(lineno, raw, error=Msg("mail.set.zone_unknown", wanted=written) if value
                              else Msg("mail.set.zone_missing"), example=EXAMPLES[what])
        return LineResult(lineno, raw, canonical=f"SET TIMEZONE {zone}")
    setting = REPORTS.get(value)
    if setting is None:
        return LineResult(lineno, raw, error=Msg("mail.set.reports_unknown", wanted=written), example=EXAMPLES[what])
    return LineResult(lineno, raw, canonical=f"SET REPORTS {REPORT_WORDS[setting]['en']}")


def line(text: str, language: str) -> str:
    """A canonical SET line in ``language``'s words (``SET TIMEZONE X`` -> ``NASTAV PÁSMO X``)."""
    if language != "cs" or not text.startswith("SET "):
        return text
    _, what, value = text.split(None, 2)
    if what == "REPORTS":
        value = next((w["cs"] for w in REPORT_WORDS.values() if w["en"] == value), value)
    return f"NASTAV {({'LANGUAGE': 'JAZYK', 'TIMEZONE': 'PÁSMO', 'REPORTS': 'ZPRÁVY'})[what]} {value}"


def notes(changes: dict[str, str]) -> list[Msg]:
    """What the reply says about the settings a mail changed."""
    out = []
    if "timezone" in changes:
        out.append(Msg("mail.set.zone_done", zone=changes["timezone"]))
    if "reports" in changes:
        out.append(Msg("mail.set.reports_done", reports=changes["reports"]))
    return out
