"""The game journal's group commit (issue 13): a batch of mails journals its entries unsynced and
makes them durable with one sync, before any reply leaves and before any version that follows
from them; what a power loss empties of them is applied again from the inbox."""

from __future__ import annotations

import os

from adjudicator import durability
from adjudicator.judge import Judge
from adjudicator.mail import process
from adjudicator.mail.outbox import MaildirTransport
from adjudicator.mail.process import Postmaster
from adjudicator.mail.settings import MailSettings
from adjudicator.store import GameFiles, Store

from mailhelp import JUDGE, desk, raw_mail  # noqa: F401  (desk is a fixture)


def receive(desk, player: str, body: str, n: int) -> int:
    text = f"JUDGE g {player} {desk.passwords[player]}\n{body}"
    return desk.postmaster.receive(raw_mail(text, sender=f"{player}@example.org", message_id=f"<{player}{n}@x.org>"),
                                   mail_from=f"{player}@example.org")


def test_replies_are_handed_on_batch_by_batch_each_batch_after_its_sync(desk, monkeypatch):
    monkeypatch.setattr(process, "BATCH", 2)
    numbers = [receive(desk, "alice", f"BID {i}", i) for i in range(5)]
    syncs = []
    real_sync = durability.sync
    monkeypatch.setattr(durability, "sync", lambda path: (syncs.append(path), real_sync(path)))
    seen = []  # at each callback (the server wakes its postman here): syncs so far, replies queued so far
    desk.postmaster.process_pending(on_handled=lambda h: seen.append(
        (h.number, len(syncs), sorted(n for n in desk.postmaster.outbox.pending() if n.endswith("-reply")))))
    assert [n for n, _, _ in seen] == numbers
    for index, (number, synced, replies) in enumerate(seen):
        batch = index // 2 + 1
        assert synced == batch  # this batch's sync has ended; the next one has not begun
        assert len(replies) == min(2 * batch, 5)  # its own batch's replies, none of a later batch
        assert any(r.endswith(f"{number:06d}-reply") for r in replies)


def test_no_reply_leaves_while_its_batch_is_not_synced(desk, monkeypatch):
    transport = MaildirTransport(desk.data / "maildir")
    runs = []
    real_record = Judge.record

    def record_then_try_to_deliver(judge, game_id, entry):
        outcome = real_record(judge, game_id, entry)
        runs.append(desk.postmaster.outbox.deliver(transport))  # the postman thread, woken now
        return outcome

    monkeypatch.setattr(Judge, "record", record_then_try_to_deliver)
    for i, player in enumerate(("alice", "bob")):
        receive(desk, player, "BID 2", i)
    desk.postmaster.process_pending()
    assert len(runs) == 2 and all(run.busy and not run.delivered for run in runs)
    after = desk.postmaster.outbox.deliver(transport)
    assert not after.busy and len([n for n in after.delivered if n.endswith("-reply")]) == 2


def test_a_batch_syncs_its_entries_before_the_version_that_follows_from_them(desk, monkeypatch):
    order = []
    real_append, real_sync, real_write = GameFiles.append_journal, GameFiles.sync_journal, GameFiles.write_version
    monkeypatch.setattr(GameFiles, "append_journal", lambda files, entry, sync=True: (
        order.append(("entry", sync)), real_append(files, entry, sync=sync))[1])
    monkeypatch.setattr(GameFiles, "sync_journal", lambda files, first, last: (
        order.append(("sync", first, last)), real_sync(files, first, last))[1])
    monkeypatch.setattr(GameFiles, "write_version", lambda files, body, sync=True: (
        order.append(("version", body["journal_seq"])), real_write(files, body, sync=sync))[1])
    for i, player in enumerate(("alice", "bob", "carol")):  # the third bid completes the round
        receive(desk, player, "BID 2", i)
    desk.postmaster.process_pending()
    assert order[:4] == [("entry", False), ("entry", False), ("entry", False), ("sync", 1, 3)]
    assert order[4:] and all(step == ("version", 3) for step in order[4:])
    # a GM's command (synced, outside any batch) after a batch's entries syncs them first too
    for i, player in enumerate(("alice", "bob")):
        receive(desk, player, "BID 1", 10 + i)
    desk.postmaster.process_pending()
    order.clear()
    desk.judge.pause("g")
    assert order == [("sync", 4, 5), ("entry", True)]


def test_entries_a_power_loss_emptied_are_applied_again_from_the_inbox(desk, monkeypatch):
    class PowerLoss(Exception):
        pass

    def lose_power(path):
        raise PowerLoss

    for i, player in enumerate(("alice", "bob")):
        receive(desk, player, f"BID {i + 2}", i)
    monkeypatch.setattr(durability, "sync", lose_power)  # the batch's sync never ends
    try:
        desk.postmaster.process_pending()
    except PowerLoss:
        pass
    monkeypatch.undo()
    journal = desk.data / "g" / "journal"
    assert sorted(os.listdir(journal)) == ["000001.yaml", "000002.yaml"]
    for name in os.listdir(journal):  # what a power loss leaves of files written but never synced
        (journal / name).write_bytes(b"")
    assert len(desk.postmaster.inbox.pending()) == 2  # never marked done
    judge = Judge(Store(desk.data), now=desk.clock)  # the judge started again
    assert judge.present("g").journal_seq == 0  # the empty entries count as never written
    postmaster = Postmaster(judge, MailSettings(JUDGE))
    handled = postmaster.process_pending()
    assert [h.status for h in handled] == ["submitted", "submitted"]
    files = judge.store.open("g")
    assert [(e["player"], e["text"]) for e in files.journal_after(0)] == [("alice", "\nBID 2"), ("bob", "\nBID 3")]
    assert judge.present("g").state["bids"] == {"alice": 2, "bob": 3}
    assert not postmaster.inbox.pending() and judge.replay("g") == []


def test_an_empty_entry_before_a_readable_one_is_damage_not_an_unwritten_tail(desk):
    desk.judge.submit("g", "alice", "BID 2")
    desk.judge.submit("g", "bob", "BID 2")
    files = desk.judge.store.open("g")
    (files.path / "journal" / "000001.yaml").write_bytes(b"")
    assert files.unwritten_tail() == []
    (files.path / "journal" / "000002.yaml").write_bytes(b"")
    assert files.unwritten_tail() == [2, 1]
