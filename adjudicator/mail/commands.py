"""The mail commands of ``judge``: ``serve``, ``ingest`` and ``deliver``.

Three ways to run the mail side, sharing one inbox and one outbox under ``--data``:

* ``judge serve``: an SMTP server on loopback behind the MTA (or alone), processing mail as
  it arrives, adjudicating due games itself and delivering replies;
* ``judge ingest``: one message on stdin, for an MTA pipe or ``.forward``; exit codes are
  sysexits, which MTAs understand: 0 done, 65 (EX_DATAERR) unusable input that was journaled
  anyway (no bounce loop: nothing to answer), 75 (EX_TEMPFAIL) the inbox could not be written or
  the game stayed locked, so the MTA retries (a message already journaled is then processed
  by the next run, and the retry is recognised as the same mail);
* ``judge deliver``: report new versions, queue the reminders due and deliver the outbox once
  (cron, next to ``judge tick``);
* ``judge remind``: only queue the reminders due (and deliver them), for a cron of its own;
* ``judge demo``: a short 3-house game played by mail through a real ``judge serve``
  (``demo.py``).

Registered on the ``judge`` click group by :func:`register` (one line in ``cli.py``). The relay
password is read from ``$JUDGE_RELAY_PASSWORD`` only, never from the command line (``ps``).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from pathlib import Path

import click

from .envelope import canonical_address
from .inbox import InboxError
from .outbox import MaildirTransport, RelayTransport, Transport
from .process import Postmaster
from .server import Server, parse_hostport
from .settings import RATE_LIMIT, MailSettings

EX_OK, EX_DATAERR, EX_TEMPFAIL = 0, 65, 75


def _address_option(func):
    return click.option("--address", envvar="JUDGE_ADDRESS", default="judge@localhost", show_default=True,
                        help="The judge's own mail address ($JUDGE_ADDRESS): From of every mail, the only recipient accepted.")(func)


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


def _settings(address: str, rate_limit: int = RATE_LIMIT) -> MailSettings:
    if canonical_address(address) is None:
        raise click.BadParameter(f"{address!r} is not a mail address (example: judge@example.org)", param_hint="--address")
    return MailSettings(address=address, rate_limit=rate_limit)


def _transport(postmaster: Postmaster, relay, starttls, user, maildir) -> Transport:
    if relay:
        try:
            host, port = parse_hostport(relay, 25)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--relay") from None
        return RelayTransport(host, port, starttls=starttls, username=user,
                              password=os.environ.get("JUDGE_RELAY_PASSWORD"), local_hostname=postmaster.settings.domain)
    return MaildirTransport(maildir or postmaster.judge.store.root / "maildir")


def _postmaster(ctx: click.Context, address: str, rate_limit: int = RATE_LIMIT) -> Postmaster:
    return Postmaster(ctx.obj["judge"], _settings(address, rate_limit))


def _logging() -> None:
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(levelname)s %(message)s")
    logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd logs every SMTP command at INFO


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
@click.pass_context
def serve(ctx, listen, address, server_name, relay, relay_starttls, relay_user, maildir, tick_every, deliver_every,
          hold_inbox, rate_limit):
    """Run the SMTP server: receive, process and answer mail; adjudicate due games."""
    try:
        host, port = parse_hostport(listen, 2525)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--listen") from None
    _logging()
    postmaster = _postmaster(ctx, address, rate_limit)
    server = Server(postmaster, _transport(postmaster, relay, relay_starttls, relay_user, maildir), host=host,
                    port=port, server_name=server_name, tick_every=tick_every, deliver_every=deliver_every,
                    hold_inbox=hold_inbox)
    try:
        asyncio.run(server.serve())
    except OSError as exc:
        raise click.ClickException(f"cannot listen on {listen}: {exc.strerror or exc}") from None


@click.command()
@click.option("--sender", default=None, metavar="ADDRESS",
              help="The envelope sender (Postfix pipe: ${sender}; empty for a bounce). Default: the Return-Path header.")
@_address_option
@_delivery_options
@click.option("--no-deliver", is_flag=True, help="Only queue the replies; `judge deliver` sends them.")
@_rate_option
@click.pass_context
def ingest(ctx, sender, address, relay, relay_starttls, relay_user, maildir, no_deliver, rate_limit):
    """Take one raw message from stdin (MTA pipe): journal, process, answer. Exit 0, 65 or 75."""
    _logging()
    postmaster = _postmaster(ctx, address, rate_limit)
    postmaster.remove_leftovers()
    raw = sys.stdin.buffer.read()
    try:
        number = postmaster.receive(raw, mail_from=sender, via="pipe")
    except (InboxError, OSError) as exc:
        click.echo(f"judge: cannot journal the message, try again later: {exc}", err=True)
        ctx.exit(EX_TEMPFAIL)
    try:
        handled = {h.number: h for h in postmaster.process_pending()}
    except Exception:  # noqa: BLE001  journaled: the next run processes it; exit 1 would bounce the orders
        logging.getLogger("adjudicator.mail").exception("processing failed; the message stays in the inbox")
        ctx.exit(EX_TEMPFAIL)
    mine = handled.get(number)
    if not no_deliver:
        try:
            postmaster.outbox.deliver(_transport(postmaster, relay, relay_starttls, relay_user, maildir))
        except Exception as exc:  # noqa: BLE001  queued mail stays queued for `judge deliver`
            click.echo(f"judge: delivery failed, the mail stays queued: {exc}", err=True)
    status = mine.status if mine else postmaster.inbox.meta(number).get("result", {}).get("status", "deferred")
    detail = mine.detail if mine else ""
    click.echo(f"inbox {number:06d}: {status}{': ' + detail if detail else ''}", err=True)
    if status == "deferred":
        ctx.exit(EX_TEMPFAIL)
    if status == "dropped" or not raw.strip():
        ctx.exit(EX_DATAERR)
    ctx.exit(EX_OK)


@click.command()
@_address_option
@_delivery_options
@click.pass_context
def deliver(ctx, address, relay, relay_starttls, relay_user, maildir):
    """Queue reports of new versions and the reminders due, and deliver the outbox once (cron)."""
    _logging()
    postmaster = _postmaster(ctx, address)
    postmaster.remove_leftovers()
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
def remind(ctx, address, relay, relay_starttls, relay_user, maildir, no_deliver):
    """Remind every player who still owes a decision near a deadline (once per step; cron)."""
    _logging()
    postmaster = _postmaster(ctx, address)
    queued = postmaster.remind()
    for name in queued:
        click.echo(f"queued {name}")
    if not no_deliver:
        run = postmaster.outbox.deliver(_transport(postmaster, relay, relay_starttls, relay_user, maildir))
        if not run.busy:
            click.echo(f"{len(queued)} reminder(s) queued; {len(run.delivered)} mail(s) delivered")
            return
    click.echo(f"{len(queued)} reminder(s) queued")


def register(main: click.Group) -> None:
    """Add the mail commands to the ``judge`` command group."""
    from .demo import demo

    for command in (serve, ingest, deliver, remind, demo):
        main.add_command(command)
