"""A private Postfix + Dovecot on loopback for the tests that are about a real MTA.

``mailstack.sh`` (the project's copy of ``shared/tools/mailstack.sh``; ``.ci/run`` installs its
Debian packages) starts a private instance on free ports under a fresh directory:

* mail to ``judge@judge.test`` is relayed by Postfix to ``judge serve`` on the relay port;
* mail to ``judge@pipe.test`` goes through Postfix's ``pipe(8)``, as user ``vmail``, into
  ``judge ingest --sender ${sender} --recipient ${recipient}``;
* mail to ``playerN@mbox.test`` (and any other of ``users``) is delivered by LMTP to Dovecot and
  read back over IMAP;
* Postfix refuses every other recipient at RCPT time.

``pipe(8)`` runs as ``vmail``, which cannot run the root-only pyenv interpreter or read a
checkout under ``/root`` (mail-pitfalls M6): the judge is copied, with the test venv's
site-packages, into a world-readable runtime directory and run with Debian's ``/usr/bin/python3``
(the same 3.11 ABI). The pipe's data directory belongs to ``vmail``, as the README asks of a real
installation.
"""

from __future__ import annotations

import imaplib
import os
import pwd
import shutil
import socket
import subprocess
import sysconfig
import tempfile
import time
from pathlib import Path

import adjudicator

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
SCRIPT = HERE / "mailstack.sh"
SYSTEM_PYTHON = "/usr/bin/python3"
IMAP_PASS = "judgepass"
PLAYERS = ("player1", "player2", "player3")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class MailStack:
    """One private Postfix + Dovecot; ``stop()`` ends both and removes the directory."""

    def __init__(self, now: str, *, pipe_wrapper_env: str = "", users: tuple[str, ...] = PLAYERS):
        self.root = Path(tempfile.mkdtemp(prefix="judge-mta-", dir="/var/tmp"))
        self.root.chmod(0o755)
        self.ports = {"mta": free_port(), "relay": free_port(), "imap": free_port(), "lmtp": free_port()}
        self.runtime = self._runtime()
        self.pipe_data = self.root / "pipe-data"
        self.pipe_data.mkdir()
        vmail = pwd.getpwnam("vmail")
        os.chown(self.pipe_data, vmail.pw_uid, vmail.pw_gid)
        self.now = now
        pipe_cmd = (f'exec env -i PATH=/usr/bin:/bin PYTHONPATH={self.runtime}:{self.runtime}/site '
                    f'JUDGE_DATA={self.pipe_data} JUDGE_NOW={now} {pipe_wrapper_env} {SYSTEM_PYTHON} -m adjudicator '
                    f'ingest --sender "$1" --recipient "$2" --address judge@pipe.test '
                    f'--relay 127.0.0.1:{self.ports["mta"]}')
        self.env = {**os.environ, "MAILSTACK_DIR": str(self.root / "stack"),
                    "MAILSTACK_MTA_PORT": str(self.ports["mta"]), "MAILSTACK_RELAY_PORT": str(self.ports["relay"]),
                    "MAILSTACK_IMAP_PORT": str(self.ports["imap"]), "MAILSTACK_LMTP_PORT": str(self.ports["lmtp"]),
                    "MAILSTACK_IMAP_USERS": " ".join(users), "MAILSTACK_IMAP_PASS": IMAP_PASS,
                    "MAILSTACK_PIPE_CMD": pipe_cmd}
        done = subprocess.run(["bash", str(SCRIPT), "start"], env=self.env, capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise RuntimeError(f"mailstack did not start:\n{done.stdout}\n{done.stderr}")

    def _runtime(self) -> Path:
        """The judge and its dependencies where ``vmail`` may read them."""
        runtime = self.root / "runtime"
        for name in ("adjudicator", "games", "templates"):
            shutil.copytree(REPO / name, runtime / name, ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copytree(sysconfig.get_paths()["purelib"], runtime / "site",
                        ignore=shutil.ignore_patterns("__pycache__", "pip", "pip-*", "_pytest", "pytest*",
                                                      "hypothesis*", "__editable__*", "*.pth"))
        assert Path(adjudicator.__file__).resolve().is_relative_to(REPO), "the tests must run the checkout's judge"
        subprocess.run(["chmod", "-R", "a+rX", str(runtime)], check=True)
        return runtime

    # -- reading ------------------------------------------------------------------------------
    @property
    def log(self) -> str:
        path = self.root / "stack" / "log" / "postfix.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def mailbox(self, user: str) -> list[bytes]:
        """Every message in ``user``'s IMAP INBOX, raw."""
        imap = imaplib.IMAP4("127.0.0.1", self.ports["imap"])
        try:
            imap.login(user, IMAP_PASS)
            imap.select("INBOX")
            _, data = imap.search(None, "ALL")
            out = []
            for number in data[0].split():
                _, parts = imap.fetch(number, "(RFC822)")
                out.append(parts[0][1])
            return out
        finally:
            imap.logout()

    def wait_mail(self, user: str, count: int, what: str, timeout: float = 60.0) -> list[bytes]:
        deadline = time.monotonic() + timeout
        while True:
            found = self.mailbox(user)
            if len(found) >= count:
                return found
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what} in {user}'s mailbox "
                                     f"({len(found)} of {count})\n{self.log[-3000:]}")
            time.sleep(0.2)

    def wait_log(self, needle: str, timeout: float = 60.0) -> str:
        deadline = time.monotonic() + timeout
        while needle not in self.log:
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {needle!r} in the Postfix log\n{self.log[-3000:]}")
            time.sleep(0.2)
        return self.log

    def flush(self) -> None:
        subprocess.run(["bash", str(SCRIPT), "flush"], env=self.env, capture_output=True, timeout=30)

    def chown_pipe_data(self) -> None:
        """Give what the test wrote (as root) in the pipe's data directory to ``vmail``."""
        subprocess.run(["chown", "-R", "vmail:vmail", str(self.pipe_data)], check=True)

    def break_ingest(self, broken: bool) -> None:
        """While ``broken``, every ``judge ingest`` the pipe runs hits an unexpected error with a
        long message deep in processing (a ``sitecustomize`` in the runtime, tests only)."""
        hook = self.runtime / "sitecustomize.py"
        if not hook.exists():
            hook.write_text(
                "import os\n"
                f"if os.path.exists({str(self.root / 'break-ingest')!r}):\n"
                "    from adjudicator.mail import process\n"
                "    def broken(self, *a, **k):\n"
                "        raise RuntimeError('injected failure ' + 'x' * 8000)\n"
                "    process.Postmaster.process_pending = broken\n")
            hook.chmod(0o644)
        flag = self.root / "break-ingest"
        if broken:
            flag.write_text("1")
            flag.chmod(0o644)
        else:
            flag.unlink(missing_ok=True)

    def stop(self) -> None:
        subprocess.run(["bash", str(SCRIPT), "stop"], env=self.env, capture_output=True, timeout=60)
        shutil.rmtree(self.root, ignore_errors=True)
