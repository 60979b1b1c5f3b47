"""The mail commands of ``judge``: ``serve``, ``ingest`` and ``deliver``.

Three ways to run the mail side, sharing one inbox and one outbox under ``--data``:

* ``judge serve``: an SMTP server on loopback behind the MTA (or alone), processing mail as
  it arrives, adjudicating due games itself and delivering replies;
* ``judge ingest``: one message on stdin, for an MTA pipe or ``.forward``. It prints at most one
  short line and logs to a file (Postfix's pipe reads 4 KB of output, and a command that dies of a
  broken pipe gets the player's orders bounced). Exit codes are sysexits, which MTAs understand:
  0 the message is journaled (processed now, or by the next run if its game is busy), 65
  (EX_DATAERR) unusable input or more than the SMTP size limit (the MTA bounces it), 67
  (EX_NOUSER) ``--recipient`` is not the judge's address, 75 (EX_TEMPFAIL) anything unexpected,
  so the MTA retries (a retry of a journaled message is recognised as the same mail);
* ``judge deliver``: process what is left in the inbox, report new versions, mail the GM's
  flags, queue the reminders due and deliver the outbox once (cron, after ``judge tick``);
* ``judge remind``: only queue the reminders due (and deliver them), for a cron of its own;
* ``judge poll``: the judge's mail taken from a hosted IMAP mailbox instead (``poll.py``), then
  processed, adjudicated and delivered as ``serve`` does, every ``--every`` seconds or ``--once``;
* ``judge demo``: a short 3-house game played by mail through a real ``judge serve``
  (``demo.py``).

Registered on the ``judge`` click group by :func:`register` (one line in ``cli.py``). The relay
password is read from ``$JUDGE_RELAY_PASSWORD`` only, the IMAP password from
``$JUDGE_IMAP_PASSWORD`` only, never from the command line (``ps``).
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .text import canonical_address
from . import handover
from . import settings as settings_module
from .settings import IMAP_PORTS, MAX_INBOX_BYTES, RATE_LIMIT, MailSettings, parse_hostport

if TYPE_CHECKING:
    from .outbox import Transport
    from .process import Postmaster

# The postmaster, the outbox and the server (jinja2, the rulesets, aiosmtpd, asyncio) are
# imported by the commands that use them, not here: `judge ingest` with a server running only
# journals the mail and wakes the server, and must start in a fraction of the time a full import takes.

from .handover import EX_DATAERR, EX_OK, EX_TEMPFAIL, EX_USAGE, MAX_OUTPUT


def _address_option(func):
    func = click.option("--gm", envvar="JUDGE_GM", default=None, metavar="ADDRESS",
                        help="The GM's mail address ($JUDGE_GM): failures the judge cannot mend on its own are "
                             "mailed there. Stored with the data once given.")(func)
    return click.option("--address", envvar="JUDGE_ADDRESS", default=None, metavar="ADDRESS",
                        help="The judge's own mail address ($JUDGE_ADDRESS): From of every mail, the only recipient "
                             "accepted. Stored with the data (DATA/judge.yaml) once given; default judge@localhost.")(func)


def _delivery_options(func):
    for option in reversed([
        click.option("--relay", envvar="JUDGE_RELAY", default=None, metavar="HOST:PORT",
                     help="Deliver through this SMTP relay ($JUDGE_RELAY); default: into the Maildir."),
        click.option("--relay-starttls", is_flag=True, envvar="JUDGE_RELAY_STARTTLS", help="Use STARTTLS with the relay."),
        click.option("--relay-user", envvar="JUDGE_RELAY_USER", default=None,
                     help="Log in to the relay as this user ($JUDGE_RELAY_USER; password in $JUDGE_RELAY_PASSWORD)."),
        click.option("--maildir", type=click.Path(file_okay=False, path_type=Path), default=None,
                     help="Maildir to deliver into when there is no relay (default: DATA/maildir)."),
    ]):
        func = option(func)
    return func


def _rate_option(func):
    return click.option("--rate-limit", type=click.IntRange(1), envvar="JUDGE_RATE_LIMIT", default=RATE_LIMIT,
                        show_default=True, help="Mails per sender and hour before the judge stops answering "
                                                "($JUDGE_RATE_LIMIT): the stop for mail loops.")(func)


def _inbox_option(func):
    return click.option("--inbox-limit", type=click.IntRange(1), envvar="JUDGE_INBOX_LIMIT", default=MAX_INBOX_BYTES,
                        show_default=True, metavar="BYTES",
                        help="Unprocessed inbox size over which new mail is refused for now ($JUDGE_INBOX_LIMIT): "
                             "serve answers 452, ingest exits 75, and the MTA retries.")(func)


def _settings(ctx: click.Context, address: str | None, gm: str | None, rate_limit: int = RATE_LIMIT,
              inbox_limit: int = MAX_INBOX_BYTES) -> MailSettings:
    for value, hint in ((address, "--address"), (gm, "--gm")):
        if value is not None and canonical_address(value) is None:
            raise click.BadParameter(f"{value!r} is not a mail address (example: judge@example.org)", param_hint=hint)
    return settings_module.resolve(_data(ctx), address=address, gm=gm, rate_limit=rate_limit,
                                   max_inbox_bytes=inbox_limit)


def _data(ctx: click.Context) -> Path:
    return ctx.obj["data"]


def _transport(postmaster: Postmaster, relay, starttls, user, maildir) -> Transport:
    from .outbox import MaildirTransport, RelayTransport

    if relay:
        try:
            host, port = parse_hostport(relay, 25)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--relay") from None
        return RelayTransport(host, port, starttls=starttls, username=user,
                              password=os.environ.get("JUDGE_RELAY_PASSWORD"), local_hostname=postmaster.settings.domain)
    return MaildirTransport(maildir or postmaster.judge.store.root / "maildir")


def _postmaster(ctx: click.Context, address: str | None, gm: str | None, rate_limit: int = RATE_LIMIT,
                inbox_limit: int = MAX_INBOX_BYTES) -> Postmaster:
    return _postmaster_for(ctx, _settings(ctx, address, gm, rate_limit, inbox_limit))


def _postmaster_for(ctx: click.Context, settings: MailSettings) -> Postmaster:
    from .process import Postmaster

    return Postmaster(ctx.obj["judge"](), settings)


def _logging(to_file: Path | None = None) -> None:
    """INFO and up to stderr, or only to ``to_file`` (``ingest``: an MTA pipe reads a few KB of
    output at most and bounces the mail when the command dies of a broken pipe)."""
    logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd logs every SMTP command at INFO
    if to_file is None:
        logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(levelname)s %(message)s")
        return
    ours = logging.getLogger("adjudicator")  # a handler here keeps Python's last-resort stderr handler quiet
    ours.setLevel(logging.INFO)
    for old in [h for h in ours.handlers if getattr(h, "judge_log_file", False)]:
        ours.removeHandler(old)
        old.close()
    try:
        to_file.parent.mkdir(parents=True, exist_ok=True)
        handler: logging.Handler = logging.FileHandler(to_file, encoding="utf-8")
        handler.setFormatter(logging.Formatter("%(asctime)s %(process)d %(levelname)s %(name)s %(message)s"))
    except OSError:
        handler = logging.NullHandler()  # no log is better than a bounced mail
    handler.judge_log_file = True  # type: ignore[attr-defined]
    ours.addHandler(handler)


@click.command()
@click.option("--listen", default="127.0.0.1:2525", show_default=True, metavar="HOST:PORT",
              help="Address to listen on (port 0: any free port, printed at start).")
@_address_option
@click.option("--server-name", default=None, help="Name in the SMTP greeting (default: the address's domain).")
@_delivery_options
@click.option("--tick-every", type=click.FloatRange(0.01), default=60.0, show_default=True,
              help="Seconds between deadline checks (and reports of GM adjudications).")
@click.option("--deliver-every", type=click.FloatRange(0.01), default=30.0, show_default=True,
              help="Seconds between delivery runs (mail is also delivered as soon as it is queued).")
@click.option("--hold-inbox", is_flag=True, hidden=True, envvar="JUDGE_TEST_HOLD_INBOX",
              help="Tests only: journal mail but never process it, as if the server died right after the 250.")
@_rate_option
@_inbox_option
@click.pass_context
def serve(ctx, listen, address, gm, server_name, relay, relay_starttls, relay_user, maildir, tick_every,
          deliver_every, hold_inbox, rate_limit, inbox_limit):
    """Run the SMTP server: receive, process and answer mail; adjudicate due games."""
    import asyncio

    from .server import Server

    try:
        host, port = parse_hostport(listen, 2525)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--listen") from None
    _logging()
    postmaster = _postmaster(ctx, address, gm, rate_limit, inbox_limit)
    server = Server(postmaster, _transport(postmaster, relay, relay_starttls, relay_user, maildir), host=host,
                    port=port, server_name=server_name, tick_every=tick_every, deliver_every=deliver_every,
                    hold_inbox=hold_inbox)
    try:
        asyncio.run(server.serve())
    except OSError as exc:
        raise click.ClickException(f"cannot listen on {listen}: {exc.strerror or exc}") from None


@click.command()
@click.option("--sender", default=None, metavar="ADDRESS",
              help="The envelope sender (Postfix pipe: ${sender}; empty or MAILER-DAEMON for a bounce). "
                   "Default: the Return-Path header.")
@click.option("--recipient", default=None, metavar="ADDRESS",
              help="The envelope recipient (Postfix pipe: ${recipient}): mail for any address but the judge's is "
                   "refused (exit 67), as `judge serve` refuses it at RCPT.")
@_address_option
@_delivery_options
@click.option("--no-deliver", is_flag=True, help="Only queue the replies; `judge deliver` sends them.")
@click.option("--log-file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Where to log (default: DATA/log/ingest.log; nothing is logged to the pipe).")
@_rate_option
@_inbox_option
@click.pass_context
def ingest(ctx, sender, recipient, address, gm, relay, relay_starttls, relay_user, maildir, no_deliver, log_file,
           rate_limit, inbox_limit):
    """Take one raw message from stdin (MTA pipe): journal, process, answer.

    Prints one short line and exits 0 (done), 65 (unusable or too large: the MTA bounces it),
    67 (not the judge's address) or 75 (try again later: every unexpected error). Logs go to
    --log-file, never to the pipe."""
    _logging(log_file or _data(ctx) / "log" / "ingest.log")
    try:
        code, line = _ingest(ctx, sender, recipient, address, gm, relay, relay_starttls, relay_user, maildir,
                             no_deliver, rate_limit, inbox_limit)
    except click.BadParameter as exc:
        code, line = EX_USAGE, f"judge: {exc.format_message()}"
    except Exception:  # noqa: BLE001  whatever it is, the MTA must retry, never bounce the orders
        logging.getLogger("adjudicator.mail").exception("ingest failed")
        code, line = EX_TEMPFAIL, "judge: temporary failure (logged); try again later"
    try:
        click.echo(line[:MAX_OUTPUT], err=True)
    except OSError:
        pass  # the MTA stopped reading: the exit status is what counts
    ctx.exit(code)


def _ingest(ctx, sender, recipient, address, gm, relay, relay_starttls, relay_user, maildir, no_deliver,
            rate_limit, inbox_limit) -> tuple[int, str]:
    settings = _settings(ctx, address, gm, rate_limit, inbox_limit)
    taken = handover.take(_data(ctx), settings.address, sys.stdin.buffer, sender=sender, recipient=recipient,
                          received=ctx.obj["now"](), fsync=ctx.obj["fsync"], inbox_limit=settings.max_inbox_bytes)
    if taken.problem is not None:
        logging.getLogger("adjudicator.mail").warning("cannot journal a message: %s", taken.problem)
    if taken.code is not None:
        return taken.code, taken.line
    number, raw = taken.number, taken.raw
    postmaster = _postmaster_for(ctx, settings)
    postmaster.remove_leftovers()
    handled = {h.number: h for h in postmaster.process_pending()}
    mine = handled.get(number)
    if not no_deliver:
        try:
            postmaster.outbox.deliver(_transport(postmaster, relay, relay_starttls, relay_user, maildir))
        except Exception:  # noqa: BLE001  queued mail stays queued for `judge deliver`
            logging.getLogger("adjudicator.mail").exception("delivery failed; the mail stays queued")
    status = mine.status if mine else postmaster.inbox.meta(number).get("result", {}).get("status", "deferred")
    line = f"judge: inbox {number:06d}: {status}"
    if status == "deferred":  # journaled and durable: the next run (serve, ingest, deliver) processes it
        return EX_OK, line + " (journaled; processed by the next run)"
    if status == "dropped" or not raw.strip():
        return EX_DATAERR, line
    return EX_OK, line


@click.command()
@_address_option
@_delivery_options
@click.pass_context
def deliver(ctx, address, gm, relay, relay_starttls, relay_user, maildir):
    """Process mail left in the inbox, report new versions, mail the GM's flags, queue the
    reminders due, and deliver the outbox once (cron, after `judge tick`)."""
    _logging()
    postmaster = _postmaster(ctx, address, gm)
    postmaster.remove_leftovers()
    postmaster.process_pending()
    postmaster.sweep()
    postmaster.remind()
    run = postmaster.outbox.deliver(_transport(postmaster, relay, relay_starttls, relay_user, maildir))
    if run.busy:
        click.echo("Another process is delivering; nothing done.")
        return
    flagged = postmaster.outbox.flagged()
    click.echo(f"{len(run.delivered)} delivered, {len(run.failed)} failed, {len(run.waiting)} waiting to retry"
               + (f"; FLAGGED (see outbox/*.yaml): {', '.join(flagged)}" if flagged else ""))


@click.command()
@_address_option
@_delivery_options
@click.option("--no-deliver", is_flag=True, help="Only queue the reminders; `judge deliver` sends them.")
@click.pass_context
def remind(ctx, address, gm, relay, relay_starttls, relay_user, maildir, no_deliver):
    """Remind every player who still owes a decision near a deadline (once per step; cron)."""
    _logging()
    postmaster = _postmaster(ctx, address, gm)
    queued = postmaster.remind()
    for name in queued:
        click.echo(f"queued {name}")
    if not no_deliver:
        run = postmaster.outbox.deliver(_transport(postmaster, relay, relay_starttls, relay_user, maildir))
        if not run.busy:
            click.echo(f"{len(queued)} reminder(s) queued; {len(run.delivered)} mail(s) delivered")
            return
    click.echo(f"{len(queued)} reminder(s) queued")


@click.command()
@click.option("--imap", "imap", required=True, metavar="HOST[:PORT]",
              help="The IMAP server of the judge's mailbox (port default: 993, or 143 with --security "
                   "starttls|none).")
@click.option("--user", required=True, envvar="JUDGE_IMAP_USER",
              help="The IMAP login ($JUDGE_IMAP_USER); the password is read from $JUDGE_IMAP_PASSWORD only.")
@click.option("--folder", default="INBOX", show_default=True, help="The folder the judge's mail arrives in.")
@click.option("--security", type=click.Choice(list(IMAP_PORTS)), default="ssl", show_default=True,
              help="IMAP over TLS (ssl), STARTTLS, or plain (none: a server on loopback only).")
@click.option("--move-to", default=None, metavar="FOLDER",
              help="Move each message taken into FOLDER (made if missing) instead of marking it \\Seen: then "
                   "reading the mailbox with another client cannot hide mail from the judge.")
@click.option("--every", type=click.FloatRange(1.0), default=60.0, show_default=True,
              help="Seconds between polls (each also adjudicates due games, queues reminders and delivers).")
@click.option("--once", is_flag=True, help="Poll once, process, adjudicate, deliver, and exit (cron).")
@_address_option
@_delivery_options
@_rate_option
@click.pass_context
def poll(ctx, imap, user, folder, security, move_to, every, once, address, gm, relay, relay_starttls, relay_user,
         maildir, rate_limit):
    """Take the judge's mail from an IMAP mailbox (a hosted one: no mail server of your own),
    then process, adjudicate and deliver as `judge serve` does.

    Each message is journaled durably before it is marked seen (or moved), so a judge killed at
    any moment loses no mail and applies none twice."""
    password = os.environ.get("JUDGE_IMAP_PASSWORD")
    if not password:
        raise click.UsageError("set the IMAP password in $JUDGE_IMAP_PASSWORD (never on the command line), "
                               "e.g. JUDGE_IMAP_PASSWORD=... judge poll --imap imap.example.org --user judge")
    from . import poll as poll_module

    try:
        host, port = parse_hostport(imap, IMAP_PORTS[security])
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--imap") from None
    _logging()
    postmaster = _postmaster(ctx, address, gm, rate_limit)
    mailbox = poll_module.MailboxConfig(host, port, user, password, folder=folder, security=security,
                                        move_to=move_to)
    loop = poll_module.PollLoop(poll_module.Poller(postmaster, mailbox),
                                _transport(postmaster, relay, relay_starttls, relay_user, maildir), every=every)
    if not once:
        loop.run()
        return
    postmaster.remove_leftovers()
    run = loop.once()
    if run is None:
        raise click.ClickException(f"cannot read the mailbox {user}@{host}:{port}/{folder} now (see the log); "
                                   "nothing was taken")
    click.echo(f"{len(run.journaled)} mail(s) taken from {folder}, {run.marked} marked"
               + (f", {run.too_large} too large (the GM is told)" if run.too_large else "")
               + f"; {len(postmaster.inbox.pending())} waiting in the inbox")


@click.command("inbox")
@click.option("--drop", "drop", type=int, multiple=True, metavar="N",
              help="Give up on pending message N (its sender is told); repeatable.")
@_address_option
@click.pass_context
def inbox(ctx, drop, address, gm):
    """List the mail waiting in the inbox (stuck mail first), or give up on some with --drop."""
    postmaster = _postmaster(ctx, address, gm)
    for number in drop:
        try:
            postmaster.drop(number)
        except ValueError as exc:
            raise click.ClickException(str(exc)) from None
        click.echo(f"inbox {number:06d}: dropped; its sender was told")
    if drop:
        return
    waiting = postmaster.waiting()
    if not waiting:
        click.echo("The inbox is empty: every mail was processed.")
    for item in waiting:
        click.echo(item)


def register(main: click.Group) -> None:
    """Add the mail commands to the ``judge`` command group (``demo`` is loaded by the group
    itself when it is asked for: ``cli._Group``)."""
    for command in (serve, ingest, deliver, remind, poll, inbox):
        main.add_command(command)
