"""The judge's mail transport: mail in, game actions, mail out.

Data flows down, never back up (the same shape as the rest of the judge)::

    SMTP (server.py) | stdin pipe (commands.py: judge ingest)
      -> inbox.py      raw message journaled and fsync'ed before the SMTP 250 / exit 0
      -> envelope.py   MIME -> sender, Message-ID, plain text, sign-on, loop/bounce class
      -> process.py    sign-on checked, rate and size limits, Judge.record, replies and reports
      -> outbox.py     RFC 5322 messages as files, delivered to a Maildir or through a relay

``settings.py`` holds the judge's address and limits, ``ratelimit.py`` the per-sender limit,
``commands.py`` the ``judge serve | ingest | deliver | remind`` commands, ``demo.py`` ``judge
demo`` (a short game played by mail through a real server) and the SMTP client the tests use.

On disk, next to the games (``<data>``)::

    inbox/NNNNNN.eml        raw messages not yet processed (mode 0600: they hold passwords)
    inbox/NNNNNN.yaml       their sidecars: envelope sender, recipients, received time
    inbox/done/             processed messages and sidecars with what was done
    inbox/id                this inbox's random id (recorded with the number in game journals)
    inbox/seq               the next message number (a hint: a number is taken only if unused)
    inbox/ratelimit.yaml    recent mails per sender address
    inbox/.allocate, .processing   flock files (numbering; one message processed at a time)
    outbox/NAME.eml/.yaml   mail waiting for delivery; the sidecar holds attempts and backoff
    outbox/sent/            delivered mail
    outbox/reported.yaml    per game, the last version whose report was queued
    outbox/reminded.yaml    per game, the version (step) and the players already reminded
    outbox/.delivering      flock file (one deliverer at a time)
    maildir/                default delivery target (cur/ new/ tmp/), any mail client opens it

Nothing in this package renders game text itself: replies, reports, reminders and relayed
press go through :mod:`adjudicator.reports` (Jinja templates per language and ruleset), in the
player's language; ``process.py`` handles the mail-level commands (HELP, STATUS, ORDERS?,
PRESS, SET LANGUAGE) for every ruleset, ``servicelines.py`` the player's SET PASSWORD, SET
ABSENCE, HISTORY, PRESS GM and DRAW, ``opencommands.py`` what anyone may mail without a sign-on
(LIST, OBSERVE, TAKEOVER); ``observers.py`` reports to observers.
"""
