"""``judge web``: a read-only web page per game, and per player a private link to their own view.

A small HTTP server (the standard library's ``ThreadingHTTPServer``; GET and HEAD only) that
renders each page when asked, from the game as it stands (``Judge.present``), so that no hook in
the mail path has to write pages after each version. What a page shows comes only from
``ruleset.view(state, viewer)`` and the events that viewer may see, as the mails do:

* the public page (``/GAME/``) is drawn for :data:`~adjudicator.ruleset.OBSERVER`, a viewer with
  no seat: the board picture, the board and tracks as in a report, the deadline, who has sent
  what is owed and who has not, and the public events of every version, newest first. No hand,
  no plan, no order on file, no password ever reaches it;
* a player's page (``/GAME/p/TOKEN/``) is that player's view, in their language: their hand, their
  orders on file and what they still owe. TOKEN is an HMAC-SHA256 of the game, the player and
  their password's stored hash under the data directory's ``secret.key`` (128 bits): unguessable
  without the key, and a new one when the GM replaces the player (``judge replace``), so the
  old link dies with the old password. ``judge web --links GAME`` prints them for the GM to send.

Pages are Jinja templates ``templates/<language>/web/`` (autoescaped HTML); the board as text is
the ruleset's own ``board.txt.j2``, the picture the PNG a report mail carries. ``?lang=cs`` shows
a page in another language. Private pages are sent ``no-store`` and every page with
``Referrer-Policy: no-referrer``, so a private link does not leak to another site.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable
from urllib.parse import parse_qs, quote, urlsplit

from . import reports
from .judge import FIXABLE_GAME, Judge, Present
from .ruleset import OBSERVER, Event
from .store import StoreError, check_game_id
from .yamlio import YamlFileError

log = logging.getLogger("adjudicator.web")

TOKEN_HEX = 32  # 128 bits of the HMAC
MAX_VERSIONS = 200  # versions whose events a page lists (the newest)
PICTURES_KEPT = 64  # PNGs a server keeps (per game version, viewer and language)
SECURITY_HEADERS = {
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'",
}


def token(secret: bytes, present: Present, player: str) -> str:
    """The private link's secret part for ``player``."""
    seat = present.config["players"][player] or {}
    message = "\0".join(("judge-web", present.game_id, player, str(seat.get("password", ""))))
    return hmac.new(secret, message.encode("utf-8"), hashlib.sha256).hexdigest()[:TOKEN_HEX]


def private_links(judge: Judge, game_id: str, base_url: str) -> dict[str, str]:
    """Each player's private page of ``game_id`` under ``base_url``."""
    present = judge.present(game_id, shared=True)
    base = base_url.rstrip("/")
    return {player: f"{base}/{quote(game_id)}/p/{token(judge.store.secret(), present, player)}/"
            for player in present.config["players"]}


@dataclass
class Response:
    status: int
    content_type: str
    body: bytes
    private: bool = False


class Site:
    """The pages of every game in ``judge.store``, rendered on request from the game as it stands.
    One request is rendered at a time (the judge's cache of games is not shared between threads);
    the caches here hold only what never changes, or are keyed by the version."""

    def __init__(self, judge: Judge):
        self.judge = judge
        self._lock = threading.Lock()
        self._events: dict[tuple, list[Event]] = {}  # (game path, created, version) -> its events
        self._pictures: OrderedDict[tuple, bytes | None] = OrderedDict()

    # -- routing --------------------------------------------------------------------------
    def get(self, target: str) -> Response:
        """The answer to ``GET target`` (a path with its query)."""
        with self._lock:
            return self._get(target)

    def _get(self, target: str) -> Response:
        url = urlsplit(target)
        language = (parse_qs(url.query).get("lang") or [None])[0]
        if language is not None and language not in reports.LANGUAGES:
            language = None
        parts = url.path.strip("/").split("/") if url.path.strip("/") else []
        if not parts:
            return self._html(self.index(language or reports.DEFAULT_LANGUAGE))
        try:
            return self._game(parts, language)
        except Exception as exc:  # noqa: BLE001  one broken game must not take the others' pages down
            _log_broken(parts[0], exc, None if isinstance(exc, FIXABLE_GAME) else self.judge.diagnose(parts[0], exc))
            return self._broken(parts[0], language)

    def _game(self, parts: list[str], language: str | None) -> Response:
        """A page of the game ``parts[0]``: its public page, a player's page or a board picture."""
        present = self._present(parts[0])
        if present is None:
            return self._not_found(language)
        rest = parts[1:]
        viewer, private = OBSERVER, False
        if rest[:1] == ["p"] and len(rest) >= 2:
            viewer = self._player_of(present, rest[1])
            if viewer is None:
                return self._not_found(language)
            private, rest = True, rest[2:]
        if language is None:
            language = reports.language_of(present, viewer) if private else reports.DEFAULT_LANGUAGE
        if rest == []:
            response = self._html(self.game_page(present, viewer, language, private=private))
        elif rest == ["board.png"]:
            png = self.picture(present, viewer, language)
            response = Response(200, "image/png", png) if png is not None else self._not_found(language)
        else:
            response = self._not_found(language)
        response.private = private
        return response

    def _present(self, game_id: str) -> Present | None:
        try:
            check_game_id(game_id)
        except StoreError:
            return None
        if not self.judge.store.exists(game_id):
            return None
        return self.judge.present(game_id, shared=True)

    def _player_of(self, present: Present, given: str) -> str | None:
        secret = self.judge.store.secret()
        for player in present.config["players"]:
            if hmac.compare_digest(token(secret, present, player), given):
                return player
        return None

    def _html(self, text: str) -> Response:
        return Response(200, "text/html; charset=utf-8", text.encode("utf-8"))

    def _not_found(self, language: str | None) -> Response:
        page = reports.environment(language or reports.DEFAULT_LANGUAGE, html=True).get_template("web/missing.html.j2")
        return Response(404, "text/html; charset=utf-8", page.render().encode("utf-8"))

    def _broken(self, game_id: str, language: str | None) -> Response:
        """The page of a game that cannot be shown (its files broken, or the judge failing on them):
        it says so, and no more; the why is in the server's log (:func:`_log_broken`). Sent
        ``no-store``: it may answer a player's private link."""
        page = reports.environment(language or reports.DEFAULT_LANGUAGE, html=True).get_template("web/broken.html.j2")
        return Response(500, "text/html; charset=utf-8", page.render(game=game_id).encode("utf-8"), private=True)

    # -- pages ----------------------------------------------------------------------------
    def index(self, language: str) -> str:
        games = []
        for game_id in self.judge.store.game_ids():
            try:
                present = self.judge.present(game_id, shared=True)
                games.append({"id": game_id, "broken": False, "ruleset": present.ruleset.name, "version": present.version,
                              "summary": present.ruleset.summary(present.state),
                              "over": present.ruleset.result(present.state) is not None})
            except Exception as exc:  # noqa: BLE001  listed as broken; the others as ever
                _log_broken(game_id, exc)
                games.append({"id": game_id, "broken": True})
        return reports.environment(language, html=True).get_template("web/index.html.j2").render(
            games=games, language=language, languages=reports.LANGUAGES)

    def game_page(self, present: Present, viewer: str, language: str, *, private: bool) -> str:
        """The page of ``present`` as ``viewer`` (a player, or OBSERVER) may see it."""
        now = self.judge.now()
        values = reports.context(present, viewer, "web", language, (), now)
        board_text = reports.environment(language).from_string(
            '{% include [ruleset ~ "/board.txt.j2", "board.txt.j2"] %}').render(values)
        return reports.environment(language, html=True).get_template("web/game.html.j2").render(
            values,
            private=private,
            board_text=board_text.strip("\n"),
            picture=reports.draws_picture(present),
            versions=self.versions(present, viewer),
            language=language,
            languages=reports.LANGUAGES,
        )

    def versions(self, present: Present, viewer: str) -> list[dict]:
        """The newest :data:`MAX_VERSIONS` versions with the events ``viewer`` may see, newest first."""
        files = present.files
        created = str(present.config.get("created"))
        out = []
        for number in reversed(files.version_numbers()[-MAX_VERSIONS:]):
            key = (str(files.path), created, number)
            if key not in self._events:
                try:
                    data = files.read_version(number)
                except YamlFileError:
                    continue
                self._events[key] = [Event.from_dict(e) for e in data.get("events") or []]
            events = [e for e in self._events[key] if e.visible_to(viewer)]
            if events:
                out.append({"number": number, "events": events})
        return out

    def picture(self, present: Present, viewer: str, language: str) -> bytes | None:
        key = (str(present.files.path), str(present.config.get("created")), present.version, present.journal_seq,
               viewer, language)
        if key in self._pictures:
            self._pictures.move_to_end(key)
            return self._pictures[key]
        png = reports.picture_png_of(present, viewer, language)
        self._pictures[key] = png
        while len(self._pictures) > PICTURES_KEPT:
            self._pictures.popitem(last=False)
        return png


def _log_broken(game_id: str, exc: Exception, damaged: Exception | None = None) -> None:
    """Why a game's page said it is broken, for the GM: a file they can mend in one line (as the
    command line says it), anything else with its traceback and the version file it was met in
    (``Judge.diagnose``)."""
    if isinstance(exc, FIXABLE_GAME):
        log.error("game %s: shown as broken: %s", game_id, exc)
    else:
        log.error("game %s: shown as broken: %s: %s%s", game_id, type(exc).__name__, exc,
                  f" ({damaged})" if damaged is not None else "", exc_info=exc)


class _Handler(BaseHTTPRequestHandler):
    site: Site  # set on the class made by :func:`server`
    server_version = "throne-judge"
    sys_version = ""

    def do_GET(self) -> None:  # noqa: N802  (http.server's naming)
        self._answer(body=True)

    def do_HEAD(self) -> None:  # noqa: N802
        self._answer(body=False)

    def _answer(self, *, body: bool) -> None:
        try:
            response = self.site.get(self.path)
        except Exception:  # noqa: BLE001  a page that fails says so, without a traceback on the wire
            log.exception("GET %s failed", self.path.split("/p/")[0])
            response = Response(500, "text/plain; charset=utf-8", b"The judge could not draw this page; the GM can see why in its log.\n")
        self.send_response(response.status)
        self.send_header("Content-Type", response.content_type)
        self.send_header("Content-Length", str(len(response.body)))
        self.send_header("Cache-Control", "no-store" if response.private else "no-cache")
        for name, value in SECURITY_HEADERS.items():
            self.send_header(name, value)
        self.end_headers()
        if body:
            self.wfile.write(response.body)

    def log_message(self, format: str, *args) -> None:  # noqa: A002  (http.server's signature)
        # never the private token of a request line in the log
        log.info("%s %s", self.address_string(), (format % args).split("/p/")[0])


def server(site: Site, host: str, port: int) -> ThreadingHTTPServer:
    handler = type("Handler", (_Handler,), {"site": site})
    httpd = ThreadingHTTPServer((host, port), handler)
    httpd.daemon_threads = True
    return httpd


def serve(judge: Judge, host: str, port: int, announce: Callable[[str], None]) -> None:
    """Serve every game's pages until SIGINT or SIGTERM."""
    import signal

    httpd = server(Site(judge), host, port)
    bound_host, bound_port = httpd.server_address[:2]
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=httpd.shutdown).start())
    announce(f"judge web on http://{bound_host}:{bound_port}/ (read-only; Ctrl-C stops it)")
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()
