"""``judge``: the game master's command line.

Every command works on the data directory given by ``--data``, else ``$JUDGE_DATA``, else
``./judge-data``. Errors the GM can fix (unknown game, bad duration, broken file) are printed as
one line naming the problem, exit status 1; bad arguments are click usage errors, exit status 2.
``--now`` (or ``$JUDGE_NOW``) sets the judge's clock, for tests and for repairing a game "as of"
a moment; it is never needed in normal use.
"""

from __future__ import annotations

import secrets
import sys
from functools import wraps
from pathlib import Path

import click

from typing import TYPE_CHECKING

from . import clock
from .absences import DEFAULT_ABSENCE_CAP
from .messages import LANGUAGES
from .paths import DEFAULT_DATA

if TYPE_CHECKING:
    from .judge import Judge

# The judge, the reports, the rulesets and the pictures are imported by the commands that use
# them: `judge ingest` handing a mail to a running server needs none of them, and must start fast.


def _fixable() -> tuple[type[Exception], ...]:
    """The judge's own errors: a GM can fix them (unknown game, bad duration, broken file)."""
    from .judge import FIXABLE_GAME

    return FIXABLE_GAME


def _errors_as_messages(func):
    """Turn the judge's own errors into a one-line message and exit status 1; so too an unexpected
    error of a command on a game that had read a version (``Judge.diagnose``: the version file
    named, a value of the wrong type in its state if one is found)."""

    @wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except Exception as exc:
            if isinstance(exc, _fixable()):
                raise click.ClickException(str(exc)) from None
            if kwargs.get("game") and not isinstance(exc, (click.ClickException, click.exceptions.Exit, click.Abort)):
                damaged = _judge(click.get_current_context()).diagnose(kwargs["game"], exc)
                if damaged is not None:
                    raise click.ClickException(str(damaged)) from None
            raise

    return wrapper


def _judge(ctx: click.Context) -> Judge:
    return ctx.obj["judge"]()


class _Duration(click.ParamType):
    name = "DURATION"

    def convert(self, value, param, ctx):
        try:
            clock.parse_duration(value)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)
        return value


DURATION = _Duration()


def _key_value(option: str, example: str):
    def convert(ctx, param, values):
        out = {}
        for value in values:
            key, sep, rest = value.partition("=")
            if not sep or not key.strip() or not rest.strip():
                raise click.BadParameter(f"{value!r} is not KEY=VALUE (example: {option} {example})", ctx, param)
            out[key.strip().lower()] = rest.strip()
        return out

    return convert


def _mail_option(func):
    return click.option("--mail/--no-mail", default=True, show_default=True,
                        help="Queue the welcome mails (game, house, password, how to play) for the players.")(func)


def _say_queued(names, what: str) -> None:
    count = sum(1 for name in names if name)
    if count:
        click.echo(f"{count} {what}{'s' if count > 1 else ''} queued (sent by the running `judge serve` or the next "
                   "`judge deliver`).")


class _Group(click.Group):
    """``judge``, with commands that pull in much (``demo``: the SMTP client, the whole judge)
    imported only when they run or are listed (click's documented lazy-loading pattern)."""

    lazy = {"demo": ("adjudicator.mail.demo", "demo")}

    def list_commands(self, ctx):
        return sorted([*super().list_commands(ctx), *self.lazy])

    def get_command(self, ctx, name):
        if name in self.lazy:
            import importlib

            module, attribute = self.lazy[name]
            return getattr(importlib.import_module(module), attribute)
        return super().get_command(ctx, name)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--data", "data_dir", type=click.Path(file_okay=False, path_type=Path), envvar="JUDGE_DATA",
              default=DEFAULT_DATA, show_default=True, help="Directory holding the games ($JUDGE_DATA).")
@click.option("--now", envvar="JUDGE_NOW", default=None, hidden=True, help="Pretend it is this UTC time (ISO).")
@click.option("--no-fsync", is_flag=True, hidden=True, help="Skip fsync (benchmarks, throwaway data only).")
@click.pass_context
def main(ctx: click.Context, data_dir: Path, now: str | None, no_fsync: bool) -> None:
    """A play-by-email judge for throne games: the game master's commands."""
    if now is not None:
        try:
            fixed = clock.from_text(now)
        except ValueError:
            raise click.BadParameter(f"{now!r} is not an ISO time (example: 2026-11-21T10:00:00Z)", param_hint="--now")
        now_fn = lambda: fixed  # noqa: E731
    else:
        now_fn = clock.utcnow
    made: list = []

    def judge() -> Judge:  # made on first use: see the imports above
        if not made:
            from .judge import Judge
            from .store import Store

            made.append(Judge(Store(data_dir, fsync=not no_fsync), now=now_fn))
        return made[0]

    ctx.obj = {"data": data_dir, "now": now_fn, "fsync": not no_fsync, "judge": judge}


@main.command()
@click.argument("game")
@click.option("--ruleset", "ruleset_name", required=True, help="Which game, e.g. agot1e.")
@click.option("--player", "players", multiple=True, required=True, metavar="NAME=ADDRESS[:LANG]",
              help="A seat and its mail address, optionally with a language (en, cs). Repeat per player.")
@click.option("--deadline", type=DURATION, default="48h", show_default=True, help="Time for planning-type steps.")
@click.option("--step-deadline", type=DURATION, default="24h", show_default=True, help="Time for every other step.")
@click.option("--grace", type=DURATION, default="1h", show_default=True, help="Quiet slack after a deadline.")
@click.option("--seed", type=int, default=None, help="Seed of every shuffle (default: random, stored in the game).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", callback=_key_value("--option", "rounds=10"),
              help="A ruleset option. Repeatable.")
@click.option("--press", type=click.Choice(["signed", "anonymous", "none"]), default="signed", show_default=True,
              help="PRESS between players relayed by mail: signed only, also anonymous (PRESS ANON), or none.")
@click.option("--absence-cap", type=click.IntRange(0), default=None, metavar="DAYS",
              help=f"Days of absence (SET ABSENCE by mail) each player may take in the game; 0: none "
                   f"[default: {DEFAULT_ABSENCE_CAP}].")
@click.option("--observers/--no-observers", default=True, show_default=True,
              help="Whether anyone may follow the game by mail (OBSERVE), with reports of the public view.")
@_mail_option
@click.pass_context
@_errors_as_messages
def new(ctx, game, ruleset_name, players, deadline, step_deadline, grace, seed, options, press, absence_cap, observers,
        mail):
    """Create GAME and print each player's password (shown this once only)."""
    from . import seats as settings
    from .mail import notices
    seats: dict[str, dict] = {}
    for spec in players:
        name, sep, address = spec.partition("=")
        name = name.strip().lower()
        language = "en"
        if address[-3:-2] == ":" and address[-2:].isalpha():
            address, language = address[:-3], address[-2:].lower()
        if not sep or not name or "@" not in address:
            raise click.BadParameter(f"{spec!r} is not NAME=ADDRESS (example: --player stark=ned@example.org)",
                                     param_hint="--player")
        if name in seats:
            raise click.BadParameter(f"player {name!r} given twice", param_hint="--player")
        if language not in LANGUAGES:
            raise click.BadParameter(f"{spec!r}: no language {language!r} (the judge writes {', '.join(LANGUAGES)};"
                                     " example: --player lannister=tywin@example.org:cs)", param_hint="--player")
        seats[name] = {"address": address.strip(), "language": language}
    seed = secrets.randbelow(2**31) if seed is None else seed
    passwords = _judge(ctx).new_game(game, ruleset_name, seats, seed=seed, options=options, press=press,
                                     deadlines={"planning": deadline, "step": step_deadline, "grace": grace})
    if absence_cap is not None or not observers:
        settings.set_game(_judge(ctx), game, absence_cap=absence_cap, observing=observers)
    click.echo(f"Created game {game} ({ruleset_name}, seed {seed}). Passwords (shown once, stored hashed):")
    for name, password in passwords.items():
        click.echo(f"  {name:<12} {seats[name]['address']:<32} {password}")
    if mail:
        present = _judge(ctx).present(game)
        queued = [notices.welcome(present, name, password, seq=0, now=_judge(ctx).now) for name, password in passwords.items()]
        _say_queued(queued, "welcome mail")


@main.command("list")
@click.pass_context
@_errors_as_messages
def list_(ctx):
    """List the games with their step and deadline."""
    judge = _judge(ctx)
    overview = judge.overview()
    if not overview:
        click.echo(f"No games in {judge.store.root}.")
    for game_id, glance in overview.items():
        if "broken" in glance:
            click.echo(f"{game_id:<16} BROKEN: {glance['broken']}")
            continue
        state = f"over: {glance['result']}" if glance["result"] else (
            "paused" if glance["paused"] else f"due {glance['deadline']}")
        flag = glance.get("flag")
        flagged = f"; FLAGGED: {flag.get('problem')}" if flag else ""
        click.echo(f"{game_id:<16} {glance['ruleset']:<10} v{glance['version']:<5} {glance['summary']}; {state}{flagged}")


@main.command()
@click.argument("game")
@click.pass_context
@_errors_as_messages
def status(ctx, game):
    """Who owes what in GAME, and by when."""
    from . import reports
    present = _judge(ctx).present(game)
    flag = present.files.flag()
    if flag:
        click.echo(f"FLAGGED for the GM since {flag.get('at')} ({flag.get('what')}): {flag.get('problem')}")
        click.echo("  (the next tick tries again; a GM command on the game, e.g. adjudicate or rollback, clears it)")
    click.echo(reports.render_status(present, None, now=_judge(ctx).now()), nl=False)


@main.command()
@click.argument("game")
@click.option("--as", "player", default=None, help="Show only what this player may see.")
@click.option("--version", "number", type=int, default=None, help="An earlier version (default: the present).")
@click.option("--format", "fmt", type=click.Choice(["text", "yaml"]), default="text", show_default=True)
@click.option("--language", type=click.Choice(list(LANGUAGES)), default=None,
              help="Language of the text (default: the player's, else en).")
@click.pass_context
@_errors_as_messages
def show(ctx, game, player, number, fmt, language):
    """Show GAME as the GM or as one player sees it."""
    from . import reports, yamlio
    judge = _judge(ctx)
    present = judge.present(game)
    if player is not None and player not in present.config["players"]:
        raise click.BadParameter(f"no player {player!r} in {game} (players: {', '.join(present.config['players'])})",
                                 param_hint="--as")
    for problem in present.problems:
        click.echo(f"WARNING: {problem}; showing the last good version", err=True)
    state = present.state if number is None else judge.version(game, number)["state"]
    view = present.ruleset.view(state, player)
    if fmt == "yaml":
        click.echo(yamlio.dumps(view), nl=False)
    else:
        click.echo(reports.render_view(present, player, view, language or reports.language_of(present, player),
                                       now=judge.now()), nl=False)


@main.command("map")
@click.argument("game")
@click.option("--as", "player", default=None, help="Draw only what this player may see (default: everything, for the GM).")
@click.option("--version", "number", type=int, default=None, help="An earlier version (default: the present).")
@click.option("--language", type=click.Choice(list(LANGUAGES)), default=None,
              help="Language of the words (default: the player's, else en).")
@click.option("-o", "--output", "output", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The file to write: FILE.png or FILE.svg.")
@click.pass_context
@_errors_as_messages
def map_(ctx, game, player, number, language, output):
    """Draw GAME's board as the GM or as one player sees it, to a PNG or SVG file."""
    from . import picture, reports
    if output.suffix.lower() not in (".png", ".svg"):
        raise click.BadParameter(f"{output.name}: write a .png or a .svg file", param_hint="-o")
    judge = _judge(ctx)
    present = judge.present(game)
    if player is not None and player not in present.config["players"]:
        raise click.BadParameter(f"no player {player!r} in {game} (players: {', '.join(present.config['players'])})",
                                 param_hint="--as")
    for problem in present.problems:
        click.echo(f"WARNING: {problem}; drawing the last good version", err=True)
    state = present.state if number is None else judge.version(game, number)["state"]
    view = present.ruleset.view(state, player)
    language = language or reports.language_of(present, player)
    draw = reports.picture_of if output.suffix.lower() == ".svg" else reports.picture_png_of
    try:
        drawn = draw(present, player, language, view=view, version=number)
        if drawn is None:
            raise click.ClickException(f"{game}: the ruleset {present.ruleset.name} draws no picture")
        if isinstance(drawn, str):
            output.write_text(drawn, encoding="utf-8")
        else:
            output.write_bytes(drawn)
    except (picture.PictureError, OSError) as exc:
        raise click.ClickException(f"{output}: {exc}") from None
    click.echo(f"Wrote {output} ({'GM' if player is None else player}, version {number or present.version}).")


def _read_body(source: str) -> str:
    raw = sys.stdin.buffer.read() if source == "-" else Path(source).read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise click.BadParameter(f"{source} is not UTF-8 text", param_hint="FILE") from None
    if "\x00" in text:
        raise click.BadParameter(f"{source} is binary, not a mail body", param_hint="FILE")
    lines = text.splitlines()
    if lines and lines[0].strip().upper().startswith("JUDGE "):
        lines = lines[1:]  # the sign-on line: the GM needs no password
    return "\n".join(lines)


@main.command()
@click.argument("game")
@click.option("--as", "player", required=True, help="The player whose mail this is.")
@click.option("--language", type=click.Choice(list(LANGUAGES)), default=None,
              help="Language of the reply (default: the player's).")
@click.argument("source", default="-", metavar="[FILE|-]")
@click.pass_context
@_errors_as_messages
def submit(ctx, game, player, language, source):
    """Submit a player's mail body (from FILE or stdin) as if mailed; prints the reply."""
    from . import mailbody, reports
    if source != "-" and not Path(source).is_file():
        raise click.BadParameter(f"no file {source!r}", param_hint="FILE")
    judge = _judge(ctx)
    text, ignored = mailbody.not_orders(_read_body(source), judge.present(game).ruleset.keywords)
    outcome = judge.submit(game, player, text)
    present = judge.present(game)
    click.echo(reports.render_reply(outcome, present, player, language or reports.language_of(present, player),
                                    mail_lines=ignored, now=judge.now()), nl=False)
    if not outcome.applied:
        ctx.exit(1)


@main.command()
@click.argument("game")
@click.option("--force", is_flag=True, help="Apply the defaults to every missing decision.")
@click.pass_context
@_errors_as_messages
def adjudicate(ctx, game, force):
    """Adjudicate GAME's step now (all decisions in, or --force)."""
    outcome = _judge(ctx).adjudicate(game, force=force)
    _print_outcome(game, outcome)


def _told(game: str) -> None:
    click.echo(f"Every player of {game} is told by mail (the running `judge serve` or the next `judge deliver`).")


def _print_outcome(game, outcome):
    for event in outcome.events:
        click.echo(f"  {event.text}")
    versions = ", ".join(map(str, outcome.versions)) or "none"
    click.echo(f"{game}: new version(s) {versions}")


@main.command()
@click.pass_context
@_errors_as_messages
def tick(ctx):
    """Adjudicate every game whose deadline has passed (run it from cron).

    A game that fails is flagged for the GM and passed over; the others are adjudicated.
    Exit 1 if any game failed."""
    ticked = _judge(ctx).tick()
    for game, outcome in ticked.done:
        _print_outcome(game, outcome)
    for game in ticked.busy:
        click.echo(f"{game}: busy (locked by another process); the next tick tries again")
    for game, problem in ticked.failed:
        click.echo(f"{game}: FAILED, flagged for the GM: {problem}", err=True)
    if not ticked.done and not ticked.failed and not ticked.busy:
        click.echo("No game is due.")
    if ticked.failed:
        ctx.exit(1)


@main.command()
@click.argument("game")
@click.pass_context
@_errors_as_messages
def history(ctx, game):
    """List GAME's versions, oldest first."""
    from .ruleset import Event
    from .yamlio import YamlFileError
    files = _judge(ctx).store.open(game)
    for number in files.version_numbers():
        try:
            data = files.read_version(number)
        except YamlFileError as exc:
            click.echo(f"v{number:<5} UNREADABLE: {exc}")
            continue
        first = Event.from_dict(data["events"][0]).text if data.get("events") else ""
        click.echo(f"v{number:<5} {data.get('at')}  journal {data['journal_seq']:<5} {data.get('summary', '')}  {first}")


@main.command()
@click.argument("game")
@click.option("--to", "to", type=int, required=True, help="The version to return to.")
@click.pass_context
@_errors_as_messages
def rollback(ctx, game, to):
    """Make a new version of GAME equal to version N (nothing is deleted); every player is told."""
    _print_outcome(game, _judge(ctx).rollback(game, to))
    _told(game)


@main.command()
@click.argument("game")
@click.pass_context
@_errors_as_messages
def pause(ctx, game):
    """Stop GAME's deadline clock; every player is told."""
    _judge(ctx).pause(game)
    click.echo(f"{game} paused.")
    _told(game)


@main.command()
@click.argument("game")
@click.pass_context
@_errors_as_messages
def resume(ctx, game):
    """Restart GAME's deadline clock with the time that was left; every player is told."""
    _judge(ctx).resume(game)
    click.echo(f"{game} resumed; deadline {clock.to_text(_judge(ctx).present(game).deadline())}.")
    _told(game)


@main.command()
@click.argument("game")
@click.argument("duration", type=DURATION)
@click.pass_context
@_errors_as_messages
def extend(ctx, game, duration):
    """Move GAME's current deadline later by DURATION (e.g. 24h); every player is told."""
    _judge(ctx).extend(game, duration)
    present = _judge(ctx).present(game)
    click.echo(f"{game}: deadline {'paused' if present.paused() else clock.to_text(present.deadline())}.")
    _told(game)


@main.command()
@click.argument("game")
@click.argument("player")
@click.argument("address")
@_mail_option
@click.pass_context
@_errors_as_messages
def replace(ctx, game, player, address, mail):
    """Give PLAYER's seat in GAME to ADDRESS, with a new password (printed once, and mailed)."""
    from .mail import notices
    password = _judge(ctx).replace(game, player, address)
    click.echo(f"{game}: {player} is now played from {address}; new password: {password}")
    if mail:
        present = _judge(ctx).present(game)
        _say_queued([notices.welcome(present, player, password, seq=present.journal_seq, now=_judge(ctx).now)],
                    "welcome mail")
    _told(game)  # that the seat changed hands (mail/notices.py GM_ACTIONS)


@main.command()
@click.argument("game")
@click.argument("player")
@click.option("--undo", is_flag=True, help="The player is back: the house is no longer open for takeover.")
@click.pass_context
@_errors_as_messages
def abandon(ctx, game, player, undo):
    """Mark PLAYER's house in GAME abandoned: the first mail `TAKEOVER GAME PLAYER` gets it."""
    from . import seats as settings
    changed = settings.abandon(_judge(ctx), game, player, undo=undo)
    state = "no longer open for takeover" if undo else "open for takeover (TAKEOVER by mail; LIST shows it)"
    click.echo(f"{game}: {player} is {state}" + ("" if changed else " (it already was)") + ".")


@main.command("set")
@click.argument("game")
@click.option("--absence-cap", type=click.IntRange(0), default=None, metavar="DAYS",
              help="Days of absence (SET ABSENCE by mail) each player may take in the game; 0: none.")
@click.option("--observers/--no-observers", default=None, help="Whether anyone may follow the game by mail (OBSERVE).")
@click.pass_context
@_errors_as_messages
def set_(ctx, game, absence_cap, observers):
    """Change GAME's settings (example: judge set westeros1 --absence-cap 7)."""
    from . import seats as settings
    if absence_cap is None and observers is None:
        raise click.UsageError("nothing to set (example: judge set westeros1 --absence-cap 7)")
    changed = settings.set_game(_judge(ctx), game, absence_cap=absence_cap, observing=observers)
    click.echo(f"{game}: " + (", ".join(f"{k} {v}" for k, v in changed.items()) if changed else "nothing changed") + ".")


@main.command()
@click.argument("game")
@click.option("--remove", "remove", multiple=True, metavar="ADDRESS", help="Stop sending ADDRESS reports; repeatable.")
@click.pass_context
@_errors_as_messages
def observers(ctx, game, remove):
    """List who follows GAME by mail (OBSERVE), or remove some."""
    from . import seats as settings
    for address in remove:
        if not settings.observe(_judge(ctx), game, address, None, stop=True, source="gm"):
            raise click.ClickException(f"{address} does not observe {game} (see `judge observers {game}`)")
        click.echo(f"{game}: {address} no longer observes.")
    if remove:
        return
    watching = settings.observers(_judge(ctx).present(game).config)
    if not watching:
        click.echo(f"Nobody observes {game}.")
    for address, observer in watching.items():
        click.echo(f"  {address} ({observer.get('language', 'en')})")


@main.command()
@click.argument("game")
@click.pass_context
@_errors_as_messages
def replay(ctx, game):
    """Rebuild GAME from its first version and journal; exit 1 on any difference."""
    differences = _judge(ctx).replay(game)
    for line in differences:
        click.echo(line)
    if differences:
        ctx.exit(1)
    click.echo(f"{game}: replay reproduces every version.")


@main.command()
@click.option("--ruleset", "ruleset_name", required=True, help="Which game, e.g. agot1e.")
@click.option("--houses", "players", type=click.IntRange(1, 20), required=True, help="Players per game.")
@click.option("--games", type=click.IntRange(1), default=1, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True, help="Game i plays with seed SEED+i.")
@click.option("--store", is_flag=True, help="Play through the judge into the data directory (journals for `judge replay`).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", callback=_key_value("--option", "tides-of-battle=yes"),
              help="A ruleset option for every game. Repeatable.")
@click.pass_context
@_errors_as_messages
def selfplay(ctx, ruleset_name, players, games, seed, store, options):
    """Bots play whole games with random legal mails; invariants checked after every step.

    Prints one line per game; exits 1 at the first invariant violation (with its seed and
    step) or if any bot mail was refused."""
    from datetime import timedelta

    from . import ruleset as rulesets
    from . import selfplay as sp

    rs = rulesets.get(ruleset_name)
    if not sp.supports_selfplay(rs) or not hasattr(rs, "default_players"):
        raise click.BadParameter(f"ruleset {ruleset_name} has no bots", param_hint="--ruleset")
    houses = rs.default_players(players)
    judge = _judge(ctx)
    moment = [judge.now()]
    if store:
        judge.now = lambda: moment[0]

    def tick(delta: timedelta) -> None:
        moment[0] += delta

    refused = 0
    for i in range(games):
        game_seed = seed + i
        try:
            if store:
                played = sp.play_stored(judge, f"selfplay-{game_seed}", ruleset_name, houses, game_seed,
                                        options=options, tick=tick)
            else:
                played = sp.play(rs, houses, game_seed, options=options)
        except sp.InvariantViolation as exc:
            click.echo(f"VIOLATION in game {i + 1}: {exc}")
            ctx.exit(1)
        refused += len(played.rejected)
        for line in played.rejected:
            click.echo(f"  refused bot mail: {line}")
        click.echo(f"game {i + 1} seed {game_seed}: {played.summary(rs)}, {played.steps} steps")
    if refused:
        click.echo(f"{refused} bot mail(s) refused")
        ctx.exit(1)


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
def case(files):
    """Run rules cases (YAML files or folders of them); exit 1 if any fails."""
    from .cases import run_cases
    results = run_cases(list(files))
    for result in results:
        click.echo(result.report())
        for warning in result.warnings:
            click.echo(f"warning: {warning}", err=True)
    failed = sum(not r.passed for r in results)
    click.echo(f"{len(results) - failed} passed, {failed} failed")
    if failed or not results:
        sys.exit(1)


@main.command()
@click.option("--listen", default="127.0.0.1:8080", show_default=True, metavar="HOST:PORT",
              help="Address to serve the pages on (port 0: any free port, printed at start). Behind a web "
                   "server (TLS) keep it on loopback.")
@click.option("--links", "links_for", default=None, metavar="GAME",
              help="Print each player's private link of GAME (to send them) and exit.")
@click.option("--base-url", default=None, metavar="URL",
              help="Where players reach the pages, for --links (e.g. https://judge.example.org); default: "
                   "http://HOST:PORT of --listen.")
@click.pass_context
@_errors_as_messages
def web(ctx, listen, links_for, base_url):
    """Serve a read-only web page per game (the board, tracks, events, deadline, who has not sent),
    and per player a private page of their own view."""
    from . import web as web_module
    from .mail.settings import parse_hostport

    try:
        host, port = parse_hostport(listen, 8080)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--listen") from None
    judge = _judge(ctx)
    if links_for is not None:
        for player, link in web_module.private_links(judge, links_for, base_url or f"http://{host}:{port}").items():
            click.echo(f"{player}: {link}")
        return
    import logging

    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(levelname)s %(message)s")
    try:
        web_module.serve(judge, host, port, announce=lambda line: click.echo(line))
    except OSError as exc:
        raise click.ClickException(f"cannot listen on {listen}: {exc.strerror or exc}") from None


from .mail.commands import register; register(main)  # noqa: E402,E702  judge serve, ingest, deliver
