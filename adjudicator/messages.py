"""What the judge and its engines say: a key and parameters, rendered per language from catalogues.

An engine never builds an English sentence. It says ``Msg("agot.march.done", house="stark",
units=[...], src="Winterfell", dest="Karhold")`` (an :class:`~adjudicator.ruleset.Event` is a
message with an audience), and the mail a player reads renders it in that player's language.

Keys are namespaced: the part before the first dot names the catalogue. ``judge.*`` and
``mail.*`` live in ``templates/<lang>/messages.yaml``; ``agot.*`` in
``templates/<lang>/agot/messages.yaml`` (which may also use the judge's names and words; a namespace
is a family of rulesets, not one: agot1e speaks ``agot.*``, and so will agot2e)::

    format: 1
    messages:
      agot.march.done: "Rod {{ house | house }} táhne z oblasti {{ src }} do oblasti {{ dest }} ({{ units | units }})."
    names:
      unit:
        footman: {one: pěšák, few: pěšáci, many: pěšáků}
      house:
        stark: Stark
    words:
      and: a

Why YAML with Jinja expressions and not gettext (Babel ``.po`` files): a message needs more than
a translated string with placeholders. Czech counts have three forms (1 pěšák, 2 pěšáci, 5
pěšáků), lists of units are counted per kind, names have cases the phrase asks for ("útočí na
rod Stark", "rozkazy obrany"). Jinja is already the project's template language, and its filters
(:func:`plural`, ``count``, ``units``, ``name``) do that with the names and words kept in the
same file; the catalogue stays data a translator edits, checked for completeness by a test
(:func:`missing`), with no compile step between an edit and a mail.

A ruleset of a family may print some names differently (the 2nd edition's "Ser Rodrick Cassel" for the
card id both editions share): its own catalogue ``templates/<lang>/<ruleset>/messages.yaml`` lies over its
family's when a text is rendered for one of its games (``render(..., ruleset="agot2e")``; the report
templates pass the game's ruleset, ``reports.py``). A ruleset without such a file reads its family's. A
variant's file may name the ruleset it varies (``over: agot2e`` in ``agot2e-ru``'s): that one's lies
between, so the variant reads the 2nd edition's names.

Text that is not a key (it has spaces, or no namespace) is shown as it stands: older games'
stored events, which were English sentences, still read. A key missing from a catalogue shows
as the key (and its parameters): the completeness tests look for exactly that.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping

from . import yamlio
from .paths import TEMPLATES_DIR

if TYPE_CHECKING:
    import jinja2

LANGUAGES = ("en", "cs")
KEY = re.compile(r"^([a-z][a-z0-9_]*)\.[a-z0-9_.-]+$")
"""A message key: ``namespace.name``, lower case, no spaces (anything else is text shown as it stands)."""
SHARED = ("judge", "mail")
"""Namespaces of the judge's own catalogue (``templates/<lang>/messages.yaml``)."""


@dataclass(frozen=True)
class Msg:
    """A message: ``key`` in the catalogues and its parameters (plain YAML data)."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __init__(self, key: str, params: Mapping[str, Any] | None = None, **more: Any):
        # The fields of a frozen message, written straight into the instance's dict (engines make thousands
        # a second; ``more`` is the caller's own fresh keyword dict). Event.__init__ does the same.
        fields = self.__dict__
        fields["key"] = key if type(key) is str else str(key)
        fields["params"] = {**params, **more} if params else more

    def __hash__(self):
        return hash((self.key, repr(sorted(self.params.items(), key=lambda kv: kv[0]))))

    def as_dict(self) -> dict:
        """Plain YAML data (a message among the parameters becomes ``{key, params}`` too)."""
        if not self.params:
            return {"key": self.key}
        return {"key": self.key, "params": {k: _plain(v) for k, v in self.params.items()}}

    @classmethod
    def from_dict(cls, data: Mapping) -> "Msg":
        if "key" not in data and "text" in data:  # a version written before messages had keys
            return cls(str(data["text"]))
        return cls(str(data["key"]), dict(data.get("params") or {}))

    def render(self, language: str = "en") -> str:
        return render(self, language)

    def __str__(self) -> str:  # for logs and the GM's English output
        return render(self, "en")


_new = object.__new__


def fast_msg(key: str, /, **params: Any) -> Msg:
    """``Msg(key, **params)``, the same message, made in about half the time: a class call with keywords
    costs CPython twice a function call's (its keywords are packed into a dict twice). For an engine's inner
    loops (a battle reports some 40 messages and events); ``key`` must be a ``str``."""
    made = _new(Msg)
    fields = made.__dict__
    fields["key"] = key
    fields["params"] = params
    return made


def _plain(value: Any) -> Any:
    if isinstance(value, Msg):
        return Msg.as_dict(value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def as_msg(value: "Msg | str") -> Msg:
    return value if isinstance(value, Msg) else Msg(str(value))


# ---------------------------------------------------------------------------------------
# Catalogues
# ---------------------------------------------------------------------------------------


@dataclass
class Catalogue:
    """The merged catalogue of one language for one namespace (the judge's, and a ruleset's on top)."""

    language: str
    namespace: str | None
    messages: dict[str, str]
    names: dict[str, dict]
    words: dict[str, str]
    sources: dict[str, str]  # key -> the file it comes from (for the completeness tests' messages)


def _read(path) -> dict:
    if not path.exists():
        return {}
    data = yamlio.load_mapping(path)
    for section in ("messages", "names", "words"):
        if not isinstance(data.get(section, {}), dict):
            raise yamlio.YamlFileError(path, f"{section} must be a mapping")
    return data


def namespace_of(key: str) -> str | None:
    """The catalogue a key lives in: None for the judge's own, else the ruleset folder's name."""
    match = KEY.match(key)
    if match is None or match.group(1) in SHARED:
        return None
    return match.group(1)


@cache
def catalogue(language: str, namespace: str | None = None, ruleset: str | None = None) -> Catalogue:
    """The judge's catalogue, ``namespace``'s over it, and (for a game of ``ruleset`` of that family)
    the ruleset's own over both, where it has one."""
    if language not in LANGUAGES:
        raise ValueError(f"no catalogue for language {language!r} (have: {', '.join(LANGUAGES)})")
    paths = [TEMPLATES_DIR / language / "messages.yaml"]
    if namespace:
        paths.append(TEMPLATES_DIR / language / namespace / "messages.yaml")
        own: list = []
        while ruleset and ruleset != namespace and len(own) < 4:  # a variant's catalogue may lie over its base's
            path = TEMPLATES_DIR / language / ruleset / "messages.yaml"
            own.insert(0, path)
            ruleset = _read(path).get("over")
        paths += own
    messages: dict[str, str] = {}
    names: dict[str, dict] = {}
    words: dict[str, str] = {}
    sources: dict[str, str] = {}
    for path in paths:
        data = _read(path)
        for key, text in (data.get("messages") or {}).items():
            messages[str(key)] = str(text)
            sources[str(key)] = str(path)
        for kind, table in (data.get("names") or {}).items():
            names.setdefault(str(kind), {}).update(table or {})
        words.update({str(k): str(v) for k, v in (data.get("words") or {}).items()})
    return Catalogue(language, namespace, messages, names, words, sources)


# ---------------------------------------------------------------------------------------
# Plurals and the filters messages use
# ---------------------------------------------------------------------------------------


def plural_form(n: int, language: str) -> str:
    """The CLDR plural category of ``n`` for cardinal numbers: ``one``, ``few`` or ``many``/``other``.

    Czech: 1 -> one (pěšák), 2-4 -> few (pěšáci), else many (0 pěšáků, 5 pěšáků). English: one, other.
    """
    n = abs(int(n))
    if language == "cs":
        return "one" if n == 1 else "few" if 2 <= n <= 4 else "many"
    return "one" if n == 1 else "other"


def plural(n: int, forms: Mapping[str, str] | str, language: str) -> str:
    """The form of ``forms`` for ``n``; a missing form falls back to ``other``/``many``, then ``one``."""
    if isinstance(forms, str):
        return forms
    category = plural_form(n, language)
    for key in (category, "other", "many", "few", "one"):
        if key in forms:
            return str(forms[key])
    raise ValueError(f"no plural forms in {forms!r}")


def _name(catalogue_: Catalogue, kind: str, ident: Any, form: str | None = None, n: int | None = None) -> str:
    """The name of ``ident`` of ``kind`` (a house, a unit, a card, ...): the catalogue's, else the
    identifier itself (area names are the board's in every language; a house capitalised). A name may have forms: by
    grammatical case (``gen``, ``acc``, ...) and by count (``one``, ``few``, ``many``, ``other``)."""
    entry = (catalogue_.names.get(kind) or {}).get(str(ident))
    if entry is None:  # a player's own name, a house the catalogue does not list: as written, capitalised
        return str(ident)[:1].upper() + str(ident)[1:] if kind == "house" else str(ident)
    if isinstance(entry, Mapping):
        if form and form in entry:
            entry = entry[form]
        elif n is not None:
            return plural(n, entry, catalogue_.language)
        else:
            entry = entry.get("nom", entry.get("one", next(iter(entry.values()))))
        if isinstance(entry, Mapping):
            return plural(1 if n is None else n, entry, catalogue_.language)
    return str(entry)


def name(ident: Any, kind: str, language: str, namespace: str | None = None, form: str | None = None,
         n: int | None = None, ruleset: str | None = None) -> str:
    """The name of ``ident`` of ``kind`` in ``language``'s catalogue of ``namespace`` (a template's
    ``term`` filter: the words a board shows for the ids a view holds), ``ruleset``'s own first."""
    return _name(catalogue(language, namespace, ruleset), kind, ident, form, None if n is None else int(n))


def _join(items: Iterable[str], catalogue_: Catalogue) -> str:
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    conjunction = catalogue_.words.get("and", "and")
    return ", ".join(items[:-1]) + f" {conjunction} " + items[-1]


def _units(units: Iterable[str] | Mapping[str, int], catalogue_: Catalogue, order: Iterable[str] = (),
           joiner: str = ", ") -> str:
    """``["footman", "footman", "knight"]`` -> "2 footmen, 1 knight" / "2 pěšáci, 1 rytíř"."""
    if isinstance(units, Mapping):
        counts = {str(k): int(v) for k, v in units.items()}
    else:
        counts = {}
        for unit in units:
            counts[str(unit)] = counts.get(str(unit), 0) + 1
    rank = {u: i for i, u in enumerate(order or catalogue_.names.get("unit", {}))}
    ordered = sorted(counts, key=lambda u: (rank.get(u, len(rank)), u))
    return joiner.join(f"{counts[u]} {_name(catalogue_, 'unit', u, n=counts[u])}" for u in ordered) or \
        catalogue_.words.get("nothing", "nothing")


_LINE_HOOKS: dict[str, Callable[[str, str], str]] = {}


def register_line_hook(namespace: str, hook: Callable[[str, str], str]) -> None:
    """``hook(text, language)``: a canonical command line of ``namespace``'s ruleset in a language's
    words (``Ruleset.line``), for the ``line`` filter of that namespace's messages (an error that
    quotes a line, "Skipped your instruction ..."). Without a hook a line shows as it stands."""
    _LINE_HOOKS[namespace] = hook


def _line(namespace: str | None, text: Any, language: str) -> str:
    hook = _LINE_HOOKS.get(namespace or "")
    return hook(str(text), language) if hook is not None else str(text)


@cache
def _environment(language: str, namespace: str | None, ruleset: str | None) -> "jinja2.Environment":
    import jinja2  # here, not at the top: `judge ingest` handing a mail to the server renders nothing

    cat = catalogue(language, namespace, ruleset)
    env = jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False, keep_trailing_newline=False)
    env.filters["name"] = lambda ident, kind, form=None: _name(cat, kind, ident, form)
    env.filters["house"] = lambda ident, form=None: _name(cat, "house", ident, form)
    env.filters["unit"] = lambda ident, n=1: _name(cat, "unit", ident, n=n)
    env.filters["units"] = lambda units, joiner=", ": _units(units, cat, joiner=joiner)
    env.filters["plural"] = lambda n, forms: plural(n, forms, language)
    env.filters["count"] = lambda n, kind, ident: f"{n} {_name(cat, kind, ident, n=int(n))}"
    env.filters["join_and"] = lambda items: _join(items, cat)
    env.filters["say"] = lambda value: render(value, language, ruleset)
    env.filters["line"] = lambda text: _line(namespace, text, language)
    env.globals["word"] = lambda key: cat.words.get(key, key)
    return env


@cache
def _compiled(language: str, key: str, ruleset: str | None) -> "jinja2.Template | None":
    namespace = namespace_of(key)
    text = catalogue(language, namespace, ruleset).messages.get(key)
    if text is None:
        return None
    return _environment(language, namespace, ruleset).from_string(text)


def render(message: "Msg | str | Any", language: str = "en", ruleset: str | None = None) -> str:
    """``message`` in ``language`` (for a game of ``ruleset``: its own names first, see the module's
    docstring): its catalogue entry with its parameters. A value that is not a
    message, or whose key is no key (a sentence), is shown as it stands; a key the catalogue lacks
    is shown as the key and its parameters (the completeness tests catch it). Parameters that are
    messages themselves (``{"reason": Msg(...)}``) are rendered first, lists of them too."""
    if isinstance(message, Mapping) and "key" in message:  # a message stored as data
        message = Msg.from_dict(message)
    if not isinstance(message, Msg):
        if getattr(message, "key", None) is None:
            return str(message)
        message = Msg(message.key, getattr(message, "params", None))
    if not KEY.match(message.key):
        return message.key
    template = _compiled(language, message.key, ruleset)
    if template is None:
        return message.key if not message.params else f"{message.key} {dict(message.params)}"
    return template.render({k: _rendered(v, language, ruleset) for k, v in message.params.items()})


def _is_message(value: Any) -> bool:
    return isinstance(value, Msg) or (isinstance(value, Mapping) and "key" in value)


def _rendered(value: Any, language: str, ruleset: str | None) -> Any:
    if _is_message(value):
        return render(value, language, ruleset)
    if isinstance(value, list) and value and all(_is_message(v) for v in value):
        return [render(v, language, ruleset) for v in value]
    return value


# ---------------------------------------------------------------------------------------
# Completeness (the tests use it)
# ---------------------------------------------------------------------------------------


def missing(namespace: str | None, languages: Iterable[str] = LANGUAGES) -> list[str]:
    """Keys one language's catalogue has and another's lacks, for ``namespace`` (and the judge)."""
    catalogues = {lang: catalogue(lang, namespace) for lang in languages}
    every = set().union(*(set(c.messages) for c in catalogues.values()))
    return sorted(f"{lang}: {key}" for key in every for lang, c in catalogues.items() if key not in c.messages)


def keys_in(text: str, namespaces: Iterable[str]) -> list[str]:
    """Message keys of ``namespaces`` that a rendered text shows unrendered."""
    names = "|".join(re.escape(n) for n in namespaces)
    return re.findall(rf"(?<![\w@/.-])((?:{names})\.[a-z0-9_][a-z0-9_.-]*[a-z0-9_])", text)
