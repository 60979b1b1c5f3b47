"""``python -m adjudicator`` and the ``judge`` script.

``judge ingest`` with a ``judge serve`` running only journals the message and wakes the server:
that path (``mail/handover.py``) is tried first, before click and the judge are imported, since
an MTA starts a process per message. Everything else is the click command (``cli.py``).
"""

import sys

from .mail import handover


def run() -> None:
    code = handover.main(sys.argv[1:])
    if code is not None:
        sys.exit(code)
    from .cli import main

    main(prog_name="judge")


if __name__ == "__main__":
    run()
