"""``judge demo``: a short game of A Game of Thrones played by mail, end to end, through the real server.

What it does, in the judge's data directory (``--data``, default ``./judge-data``), so that the
``judge serve`` that follows serves the demo game:

1. creates game ``demo`` (agot1e, 3 houses: Stark, Lannister, and Baratheon who reads Czech;
   anonymous press allowed), replacing a game ``demo`` an earlier demo made (marked by its
   ``.judge-demo`` file); any other game named ``demo`` is refused, and no other game is touched;
2. starts ``judge serve`` as a subprocess on a free loopback port, with the address ``serve``
   uses on this data (stored with it, else ``judge@localhost``), delivering into ``DATA/maildir``;
3. plays ROUNDS rounds by mail alone: for whatever each house owes, the seeded bot of
   ``rulesets/agot/bot.py`` writes the mail, and :class:`MailClient` sends it with smtplib
   (one connection, reused); the first mails also carry ``PRESS``, ``PRESS ANON``, ``STATUS``,
   ``ORDERS?`` and ``HELP``. What is owed is read with ``Judge.present``. A step whose owing
   house has nothing to say (a bot without a legal choice) is forced by the GM
   (``Judge.adjudicate(force=True)``), as a deadline would;
4. waits until every mail is processed and every reply and report delivered, stops the
   server with SIGTERM and prints where to read the mails and how to go on.

:class:`MailClient` and :func:`start_server` are also what the tests use to play by mail.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import smtplib
import subprocess
import sys
import time
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import click

from ..judge import Judge
from ..paths import DEFAULT_DATA
from ..store import Store
from .inbox import Inbox
from .outbox import Outbox
from . import settings as settings_module
from .settings import MailSettings

MARKER = ".judge-demo"
GAME = "demo"
HOUSES = {"stark": ("stark@demo.example", "en"), "lannister": ("lannister@demo.example", "en"),
          "baratheon": ("baratheon@demo.example", "cs")}
EXTRAS = {  # added to each house's first mail: every mail-level command once
    "stark": "PRESS Lannister: Shall we keep the peace along the Trident this year?\nSTATUS",
    "lannister": "ORDERS?\nHELP",
    "baratheon": "PRESS ANON ALL: Beware the lion's promises.",
}


PATIENCE = 120.0
"""Seconds a wait for the judge gives it without any sign of progress before calling it stuck.
On a loaded machine (a disk busy with another program's writes and syncs) every step of the judge
is slower, never wrong: a wait goes on while mails are processed and queued and delivered, and
only a judge that does nothing at all for this long is an error. Also the SMTP client's timeout."""


class DemoError(click.ClickException):
    pass


# ---------------------------------------------------------------------------------------
# The server as a subprocess, and an SMTP client that waits for the judge
# ---------------------------------------------------------------------------------------


@dataclass
class ServerHandle:
    proc: subprocess.Popen
    host: str
    port: int
    log_path: Path

    def stop(self, timeout: float = PATIENCE) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            code = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = self.proc.wait(timeout)
        if self.proc.stdout:
            self.proc.stdout.close()
        return code


def start_server(data: Path, *, address: str | None = None, extra: tuple[str, ...] = (), env: dict | None = None,
                 log_path: Path | None = None) -> ServerHandle:
    """``judge serve`` on 127.0.0.1 and a free port, delivering into ``data/maildir``; ``address``
    None: the address stored with the data (or the default)."""
    log_path = log_path or data / "log" / "demo-serve.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "ab") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "adjudicator", "--data", str(data), "serve", "--listen", "127.0.0.1:0",
             *(["--address", address] if address else []), "--deliver-every", "0.2", "--tick-every", "0.5", *extra],
            stdout=subprocess.PIPE, stderr=log, env={**os.environ, **(env or {})})
    line = proc.stdout.readline().decode(errors="replace")
    if "listening on" not in line:
        proc.wait(PATIENCE)
        raise DemoError(f"judge serve did not start: {line.strip() or 'no output'} (see {log_path})")
    host, _, port = line.split("listening on ", 1)[1].split()[0].rpartition(":")
    return ServerHandle(proc, host, int(port), log_path)


@dataclass
class MailClient:
    """Sends players' mail to a running judge over one reused SMTP connection, and waits for it
    (for as long as the judge makes progress: :func:`wait_until`; at once an error when ``server``,
    the judge's process, has exited)."""

    host: str
    port: int
    data: Path
    judge_address: str = "judge@localhost"
    server: subprocess.Popen | None = field(default=None, repr=False)
    sent: int = 0
    message_ids: list[str] = field(default_factory=list)  # of every mail sent, in order
    smtp: smtplib.SMTP | None = field(default=None, repr=False)
    before: int = -1  # mails the inbox had processed before this client's first (a shared data directory)

    def __post_init__(self):
        if self.before < 0:
            self.before = self.processed()

    def _connection(self) -> smtplib.SMTP:
        if self.smtp is None:
            self.smtp = smtplib.SMTP(self.host, self.port, local_hostname="player.demo.example", timeout=PATIENCE)
        return self.smtp

    def send(self, sender: str, body: str, subject: str = "orders") -> str:
        """One plain-text mail from ``sender``; returns its Message-ID."""
        msg = EmailMessage()
        msg["From"] = sender
        msg["To"] = self.judge_address
        msg["Subject"] = subject
        msg["Message-ID"] = message_id = make_msgid(domain="player.demo.example")
        msg.set_content(body)
        for attempt in range(2):
            try:
                self._connection().send_message(msg, from_addr=sender, to_addrs=[self.judge_address])
                break
            except (smtplib.SMTPServerDisconnected, ConnectionError):
                self.smtp = None  # reconnect once (idle timeout)
                if attempt:
                    raise
        self.sent += 1
        self.message_ids.append(message_id)
        return message_id

    def signed(self, game: str, house: str, password: str, address: str, text: str, subject: str = "orders") -> str:
        return self.send(address, f"JUDGE {game} {house} {password}\n{text}\n", subject)

    def close(self) -> None:
        if self.smtp is not None:
            try:
                self.smtp.quit()
            except (smtplib.SMTPException, OSError):
                pass
            self.smtp = None

    # -- waiting for the judge ---------------------------------------------------------------
    def processed(self) -> int:
        return Inbox(self.data).done_count()

    def wait_processed(self) -> None:
        """Until every mail sent so far is processed (marked done in the inbox)."""
        wait_until(lambda: self.processed() - self.before >= self.sent and not Inbox(self.data).pending(),
                   f"the judge to process {self.sent} mails", progress=self._progress, server=self.server)

    def wait_delivered(self, game: str | None = None) -> None:
        """Until the outbox is empty and (if ``game``) its newest version is reported."""
        outbox = Outbox(self.data, MailSettings(self.judge_address))

        def quiet() -> bool:
            if outbox.pending():
                return False
            if game is None:
                return True
            from .. import yamlio
            try:
                swept = int(yamlio.load_mapping(self.data / game / "mail.yaml").get("swept", 1))
            except yamlio.YamlFileError:
                swept = 1
            versions = Store(self.data).open(game).version_numbers()
            return not versions or versions[-1] <= 1 or swept >= versions[-1]

        wait_until(quiet, "the judge to deliver its mail", progress=self._progress, server=self.server)

    def _progress(self) -> tuple:
        """What the judge has done so far: mails processed, and the outbox's mails (one queued or
        delivered changes them)."""
        return self.processed(), tuple(Outbox(self.data, MailSettings(self.judge_address)).pending())


def wait_until(done, what: str, *, progress=None, server: subprocess.Popen | None = None,
               patience: float = PATIENCE):
    """Poll ``done`` until it returns something true, and return that. Bounded by the judge's
    progress rather than by a fixed time: an error once ``progress()`` (what the judge has done so
    far; None: nothing to watch) has not changed for ``patience`` seconds, or at once when
    ``server`` (the judge's process) has exited."""
    last, since = (progress() if progress else None), time.monotonic()
    while True:
        value = done()
        if value:
            return value
        if server is not None and server.poll() is not None:
            raise DemoError(f"judge serve exited with status {server.returncode} while waiting for {what}")
        now = progress() if progress else None
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since > patience:
            raise DemoError(f"no progress in {patience:.0f} s waiting for {what}")
        time.sleep(0.02)


# ---------------------------------------------------------------------------------------
# Playing by mail
# ---------------------------------------------------------------------------------------


@dataclass
class Played:
    steps: int = 0
    mails: int = 0
    forced: int = 0
    rejected: int = 0


def play_by_mail(judge: Judge, client: MailClient, game: str, passwords: dict[str, str], addresses: dict[str, str],
                 *, rounds: int, seed: int, extras: dict[str, str] | None = None, max_steps: int = 400,
                 on_step=None) -> Played:
    """Bots play ``game`` by mail until round ``rounds`` is over (or the game is): one mail per
    owing house and step, sent through ``client``; a step nobody can answer is forced. Bounded by
    ``max_steps`` and by each wait's patience, not by a time for the whole game (a loaded machine
    plays as well, only slower)."""
    from ..rulesets.agot import bot
    from ..rulesets.agot.context import ctx_of

    rng = random.Random(seed)
    extras = dict(extras or {})
    played = Played()
    stuck = 0
    last = None
    for _ in range(max_steps):
        present = judge.present(game)
        state = present.state
        if present.ruleset.result(state) is not None or state["round"] > rounds:
            break
        where = (present.version, present.journal_seq)
        stuck = stuck + 1 if where == last else 0
        last = where
        owing = list(dict.fromkeys(o.player for o in present.missing()))
        sent = 0
        if stuck < 2:
            for house in owing:
                text = bot.mail_for(state, ctx_of(state), house, rng)
                if text is None:
                    continue
                if house in extras:
                    text = text + "\n" + extras.pop(house)
                client.signed(game, house, passwords[house], addresses[house], text,
                              subject=f"{game}: {present.ruleset.summary(state)}")
                sent += 1
        if sent:
            client.wait_processed()
            played.mails += sent
        else:  # nobody has anything (legal) to say: the GM applies the defaults, as a deadline would
            judge.adjudicate(game, force=True, reason="demo")
            played.forced += 1
        played.steps += 1
        if on_step:
            on_step(judge.present(game))
    return played


def _replace_earlier_demo(directory: Path) -> None:
    """Make room for game ``demo``: an earlier demo's game goes, any other game of that name stays."""
    game = directory / GAME
    if (game / "game.yaml").exists() or game.exists():
        if not (game / MARKER).exists():
            raise DemoError(f"{directory} holds a game named {GAME!r} that `judge demo` did not make; "
                            "run the demo on another data directory: judge --data DIR demo")
        shutil.rmtree(game)


@click.command()
@click.option("--rounds", type=click.IntRange(1, 10), default=2, show_default=True, help="Rounds to play.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the game and of the bots.")
@click.pass_context
def demo(ctx: click.Context, rounds: int, seed: int) -> None:
    """Play a short 3-house game `demo` by mail through a real `judge serve`, on this data directory,
    then say where to read the mails; the `judge serve` that follows serves it."""
    began = time.monotonic()
    judge: Judge = ctx.obj["judge"]()
    directory = judge.store.root.resolve()
    try:
        address = settings_module.resolve(directory).address  # what `judge serve` will be
    except ValueError as exc:
        raise DemoError(str(exc)) from None
    _replace_earlier_demo(directory)
    judge = Judge(Store(directory, fsync=judge.store.fsync), now=judge.now)
    passwords = judge.new_game(GAME, "agot1e", {h: {"address": a, "language": lang} for h, (a, lang) in HOUSES.items()},
                               seed=seed, press="anonymous")
    (directory / GAME / MARKER).write_text("made by `judge demo`; the next demo replaces this game\n")
    addresses = {h: a for h, (a, _) in HOUSES.items()}
    click.echo(f"Created game {GAME} (agot1e, seed {seed}) in {directory}: "
               + ", ".join(f"{h} <{a}>{' (Czech)' if lang == 'cs' else ''}" for h, (a, lang) in HOUSES.items()))
    server = start_server(directory)
    click.echo(f"Started judge serve on {server.host}:{server.port} as {address} (pid {server.proc.pid}); playing "
               f"{rounds} round{'s' if rounds > 1 else ''} by mail ...")
    client = MailClient(server.host, server.port, directory, judge_address=address, server=server.proc)
    try:
        played = play_by_mail(judge, client, GAME, passwords, addresses, rounds=rounds, seed=seed, extras=EXTRAS)
        client.wait_delivered(GAME)
    finally:
        client.close()
        code = server.stop()
    if code != 0:
        raise DemoError(f"judge serve exited with status {code} (see {server.log_path})")
    present = judge.present(GAME)
    maildir = directory / "maildir"
    delivered = sum(1 for sub in ("new", "cur") if (maildir / sub).is_dir() for _ in os.listdir(maildir / sub))
    data_option = "" if directory == Path(DEFAULT_DATA).resolve() else f"--data {directory} "
    click.echo(f"Played {played.steps} steps in {time.monotonic() - began:.1f} s: {client.sent} mails to the judge over SMTP "
               f"({played.forced} step(s) forced by the GM); the Maildir holds {delivered} mails from the judge "
               "(replies, reports, press).")
    click.echo(f"The game now stands at: {present.ruleset.summary(present.state)} (version {present.version}).")
    click.echo("")
    click.echo(f"Read the mails (every player's, in one Maildir): {maildir}")
    click.echo(f"    mutt -f {maildir}        (or neomutt, aerc, claws; any Maildir client)")
    click.echo(f"    ls {maildir}/new          (one plain file per mail; the first body line is X-Judge: ...)")
    click.echo("Go on with the game as its GM, or by mail to the judge that serves it:")
    click.echo(f"    judge {data_option}status {GAME}")
    click.echo(f"    judge {data_option}serve      (SMTP on 127.0.0.1:2525 as {address}; mail \"JUDGE {GAME} stark "
               f"<password>\" and orders to it)")
    click.echo("Passwords: " + ", ".join(f"{h} {p}" for h, p in passwords.items()))
