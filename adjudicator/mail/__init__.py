"""The judge's mail transport: mail in, game actions, mail out.

Data flows down, never back up (the same shape as the rest of the judge)::

    SMTP (server.py) | stdin pipe (commands.py: judge ingest) | IMAP mailbox (poll.py: judge poll)
      -> inbox.py      raw message journaled and fsync'ed before the SMTP 250 / exit 0
      -> envelope.py   MIME -> sender, Message-ID, plain text, sign-on, loop/bounce class
      -> process.py    sign-on checked, rate and size limits, Judge.record, replies and reports
      -> outbox.py     RFC 5322 messages (written by composer.py) as files, delivered to a Maildir or through a relay

``settings.py`` holds the judge's address and limits, ``ratelimit.py`` the per-sender limit,
``commands.py`` the ``judge serve | ingest | poll | deliver | remind`` commands, ``poll.py`` the
IMAP poller (a hosted mailbox instead of an MTA), ``demo.py`` ``judge
demo`` (a short game played by mail through a real server) and the SMTP client the tests use.

On disk, next to the games (``<data>``)::

    inbox/log/NNNNNN.log    received mail, appended and synced before the 250 (mode 0600: it holds
                            passwords); NNNNNN.done beside it: the numbers processed, with what was done
    inbox/done/             segments whose every message is done
    inbox/retry/NNNNNN.yaml a message that must wait (its game busy, an error): attempts and backoff
    inbox/id                this inbox's random id (recorded with the number in game journals)
    inbox/ratelimit.log     recent mails per sender address (houselimit.log: wrong passwords per house), append-only
    inbox/imap.yaml         per polled mailbox, the inbox number up to which its mail is marked taken
    inbox/.allocate, .processing, .poll   flock files (appending; one batch processed at a time; one poller)
    outbox/NAME.eml         mail waiting for delivery; NAME.yaml only after a failed delivery
    outbox/sent/            delivered mail
    outbox/reminded.yaml    per game, the version (step) and the players already reminded
    outbox/.delivering      flock file (one deliverer at a time)
    cache/seen.json         per game, its files' stamps when the sweep last looked (unchanged: skipped)
    <game>/mail.yaml        per player the last version reported; the last GM action told
    maildir/                default delivery target (cur/ new/ tmp/), any mail client opens it

Nothing in this package renders game text itself: replies, reports, reminders and relayed
press go through :mod:`adjudicator.reports` (Jinja templates per language and ruleset), in the
player's language; ``process.py`` handles the mail-level commands (HELP, STATUS, ORDERS?,
PRESS, SET LANGUAGE) for every ruleset, ``servicelines.py`` the player's SET PASSWORD, SET
ABSENCE, HISTORY, PRESS GM and DRAW, ``opencommands.py`` what anyone may mail without a sign-on
(LIST, OBSERVE, TAKEOVER); ``observers.py`` reports to observers.
"""
