#!/usr/bin/env bash
# mailstack.sh - a loopback-only test mail stack for the judge (Debian 12, root, no systemd).
# The project's copy of shared/tools/mailstack.sh (null_sender= and RCPT-time recipient checks
# included): .ci/run installs its packages, tests/mta/ starts private instances of it.
#
#   Postfix 3.7  (private instance, own config + queue dir)   127.0.0.1:${MTA_PORT}   (default 2525)
#       judge.test  -> smtp:[127.0.0.1]:${RELAY_PORT}  (the judge's aiosmtpd, default 8025)
#       mbox.test   -> LMTP 127.0.0.1:${LMTP_PORT} -> Dovecot Maildir (read it back over IMAP)
#       pipe.test   -> pipe(8) into ${PIPE_CMD} on stdin (default: save each message to $MS_DIR/pipe-inbox)
#       anything else -> bounced at once (error transport), so nothing can leave the box or loop
#   Dovecot 2.3  (private instance) IMAP 127.0.0.1:${IMAP_PORT} (default 1143), plaintext auth, no TLS,
#       users: ${IMAP_USERS} (all with password ${IMAP_PASS}); LMTP 127.0.0.1:${LMTP_PORT} (default 2424)
#
# Usage: mailstack.sh install | start | stop | restart | status | test | flush | queue | clean
#   install  apt packages (swaks postfix dovecot-imapd dovecot-lmtpd msmtp mailutils) + Python venv
#   start    write configs under $MS_DIR and start dovecot + postfix (no-op for what already runs)
#   stop     stop both, by the PIDs in their pid files
#   flush    ask postfix to retry deferred mail now (e.g. after the judge came back up)
#   queue    list postfix's queue
#   test     end-to-end smoke test (starts a throw-away aiosmtpd sink on RELAY_PORT if that port is free)
#   clean    stop, then delete $MS_DIR
# Everything is idempotent. Nothing listens on anything but 127.0.0.1.
# Environment overrides: MAILSTACK_DIR MAILSTACK_MTA_PORT MAILSTACK_RELAY_PORT MAILSTACK_IMAP_PORT
#   MAILSTACK_LMTP_PORT MAILSTACK_IMAP_USERS MAILSTACK_IMAP_PASS MAILSTACK_PIPE_CMD MAILSTACK_VENV
#   MAILSTACK_PIPE_CONCURRENCY (default 1). Config is (re)written on start/restart only.
#   MAILSTACK_PIPE_CMD runs as user vmail via /bin/sh with "$1"=sender "$2"=recipient, e.g.
#     MAILSTACK_PIPE_CMD='exec /usr/bin/python3 /srv/judge/stdin_entry.py "$@"'
#   (a pyenv python under root's home, and venvs built from it, are not executable by vmail)
#   MAILSTACK_SKIP_VENV=1 (install: skip the Python venv)
set -euo pipefail

MS_DIR=${MAILSTACK_DIR:-/var/tmp/judge-mailstack}
MTA_PORT=${MAILSTACK_MTA_PORT:-2525}
RELAY_PORT=${MAILSTACK_RELAY_PORT:-8025}
IMAP_PORT=${MAILSTACK_IMAP_PORT:-1143}
LMTP_PORT=${MAILSTACK_LMTP_PORT:-2424}
IMAP_USERS=${MAILSTACK_IMAP_USERS:-"judge player1 player2 player3 player4 player5 player6 player7"}
IMAP_PASS=${MAILSTACK_IMAP_PASS:-judgepass}
PIPE_CMD=${MAILSTACK_PIPE_CMD:-}
PIPE_CONCURRENCY=${MAILSTACK_PIPE_CONCURRENCY:-1}
JUDGE_LOCAL=${MAILSTACK_JUDGE_LOCALPART:-judge}   # only <this>@judge.test and <this>@pipe.test are accepted
VENV=${MAILSTACK_VENV:-/var/tmp/judge-mailstack-venv}
VMAIL_USER=vmail

PF_CONF=$MS_DIR/postfix/conf
PF_QUEUE=$MS_DIR/postfix/queue
PF_DATA=$MS_DIR/postfix/data
DC_DIR=$MS_DIR/dovecot
DC_CONF=$DC_DIR/dovecot.conf
DC_RUN=$DC_DIR/run

APT_PKGS=(swaks postfix dovecot-core dovecot-imapd dovecot-lmtpd msmtp mailutils)
PY_PKGS=(aiosmtpd==1.4.6 aiosmtplib==5.1.3 dkimpy==1.1.8 aioimaplib==2.0.3 imapclient==4.1.0
         email-validator==2.4.0 hypothesis pytest PyYAML)

log() { printf '[mailstack] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }
alive() { [[ -n ${1:-} ]] && kill -0 "$1" 2>/dev/null; }
pid_of() { if [[ -s $1 ]]; then tr -dc '0-9' <"$1"; fi; }
port_busy() { ss -Hltn "sport = :$1" | grep -q .; }

cmd_install() {
    export DEBIAN_FRONTEND=noninteractive
    local missing=()
    for p in "${APT_PKGS[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
    if ((${#missing[@]})); then
        # Never let maintainer scripts start the *system* daemons (dovecot would listen on *:143/993).
        local made_policy=0
        if [[ ! -e /usr/sbin/policy-rc.d ]]; then
            printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d; chmod 755 /usr/sbin/policy-rc.d; made_policy=1
        fi
        # "No configuration": postfix installs without writing /etc/postfix/main.cf or starting.
        echo "postfix postfix/main_mailer_type select No configuration" | debconf-set-selections
        if ! compgen -G '/var/lib/apt/lists/*_Packages' >/dev/null; then apt-get update -q; fi
        apt-get install -y -q --no-install-recommends "${missing[@]}" \
            || { apt-get update -q && apt-get install -y -q --no-install-recommends "${missing[@]}"; }
        if ((made_policy)); then rm -f /usr/sbin/policy-rc.d; fi
    else
        log "apt packages already installed"
    fi
    getent passwd "$VMAIL_USER" >/dev/null \
        || useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$VMAIL_USER"
    if [[ ${MAILSTACK_SKIP_VENV:-1} != 1 ]]; then  # the project's tests need no venv of their own (MAILSTACK_SKIP_VENV=0 makes it)
        [[ -x $VENV/bin/python ]] || python3 -m venv "$VENV"
        "$VENV/bin/python" -m pip install -q "${PY_PKGS[@]}"
        "$VENV/bin/python" -c 'import aiosmtpd; print("aiosmtpd", aiosmtpd.__version__)'
    fi
    log "installed: $(dpkg-query -W -f='${Package} ${Version}, ' "${APT_PKGS[@]}")"
}

write_postfix_conf() {
    mkdir -p "$PF_CONF" "$PF_QUEUE" "$PF_DATA" "$MS_DIR/log" "$MS_DIR/pipe-inbox" "$MS_DIR/bin"
    chown postfix: "$PF_DATA"                       # master.lock lives here; must be postfix-owned
    chown "$VMAIL_USER": "$MS_DIR/pipe-inbox"
    local pipe_cmd=$PIPE_CMD
    if [[ -z $pipe_cmd ]]; then
        pipe_cmd="cat > \"$MS_DIR/pipe-inbox/\$(date +%s.%N).\$\$.eml\""
    fi
    # pipe(8) does not run a shell and scrubs the environment; wrap the command in a script.
    cat >"$MS_DIR/bin/pipe-deliver" <<EOF
#!/bin/sh
# Called by postfix pipe(8) as user $VMAIL_USER with: sender recipient; message on stdin.
# Exit 0 = delivered, 75 (EX_TEMPFAIL) = postfix retries later, other non-zero = bounce.
$pipe_cmd
EOF
    chmod 755 "$MS_DIR/bin/pipe-deliver"
    cat >"$PF_CONF/main.cf" <<EOF
# generated by mailstack.sh - private loopback-only postfix instance
compatibility_level = 3.6
queue_directory = $PF_QUEUE
data_directory = $PF_DATA
mail_owner = postfix
setgid_group = postdrop
myhostname = mta.judge.test
mydomain = judge.test
myorigin = judge.test
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mydestination =
local_recipient_maps =
alias_maps =
alias_database =
biff = no
append_dot_mydomain = no
mynetworks = 127.0.0.0/8
smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination
smtpd_tls_security_level = none
smtp_tls_security_level = none
smtputf8_enable = yes
message_size_limit = 10240000
# accept only the judge's own address in judge.test / pipe.test at RCPT time (no accept-then-bounce backscatter;
# the pipe would otherwise hand mail for ANY local part to judge ingest, which does not check the recipient)
relay_domains = judge.test, pipe.test
relay_recipient_maps = inline:{ $JUDGE_LOCAL@judge.test=ok, $JUDGE_LOCAL@pipe.test=ok }
transport_maps = inline:{ judge.test=smtp:[127.0.0.1]:$RELAY_PORT, mbox.test=lmtp:inet:127.0.0.1:$LMTP_PORT, pipe.test=judgepipe: }
default_transport = error:5.1.2 mailstack routes only judge.test mbox.test pipe.test
# fast retries for tests (judge down -> deferred -> redelivered within a minute)
queue_run_delay = 10s
minimal_backoff_time = 10s
maximal_backoff_time = 60s
maillog_file = $MS_DIR/log/postfix.log
# pipe: one recipient per invocation; at most PIPE_CONCURRENCY copies of the command at once
# (postfix's default would be up to 20 in parallel - the judge's state files would need locking)
judgepipe_destination_recipient_limit = 1
judgepipe_destination_concurrency_limit = $PIPE_CONCURRENCY
EOF
    cp /usr/share/postfix/master.cf.dist "$PF_CONF/master.cf"
    # the public smtpd listens on 127.0.0.1:$MTA_PORT instead of *:25
    sed -i "s/^smtp      inet  n       -       y/127.0.0.1:$MTA_PORT inet  n       -       n/" "$PF_CONF/master.cf"
    cat >>"$PF_CONF/master.cf" <<EOF
judgepipe unix  -       n       n       -       -       pipe
  flags=DRq user=$VMAIL_USER null_sender= argv=$MS_DIR/bin/pipe-deliver \${sender} \${recipient}
EOF
    # no chroot anywhere (the private queue dir has no etc/ copies)
    postconf -c "$PF_CONF" -F '*/*/chroot = n'
    postfix -c "$PF_CONF" check
}

write_dovecot_conf() {
    mkdir -p "$DC_RUN" "$DC_DIR/state" "$MS_DIR/maildir" "$MS_DIR/log"
    chown "$VMAIL_USER": "$MS_DIR/maildir"
    : >"$DC_DIR/users"
    for u in $IMAP_USERS; do printf '%s:{PLAIN}%s\n' "$u" "$IMAP_PASS" >>"$DC_DIR/users"; done
    chown root:dovecot "$DC_DIR/users"; chmod 640 "$DC_DIR/users"
    cat >"$DC_CONF" <<EOF
# generated by mailstack.sh - private loopback-only dovecot instance (IMAP + LMTP, no TLS)
protocols = imap lmtp
listen = 127.0.0.1
base_dir = $DC_RUN
state_dir = $DC_DIR/state
log_path = $MS_DIR/log/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
# LMTP recipients arrive as user@mbox.test; IMAP logins are bare names
auth_username_format = %Ln
mail_location = maildir:$MS_DIR/maildir/%Ln
first_valid_uid = 100
postmaster_address = postmaster@judge.test
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%Ln $DC_DIR/users
}
userdb {
  driver = static
  args = uid=$VMAIL_USER gid=$VMAIL_USER home=$MS_DIR/maildir/%Ln
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $IMAP_PORT
  }
  inet_listener imaps {
    port = 0
  }
}
service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = $LMTP_PORT
  }
}
EOF
}

start_dovecot() {
    local pid; pid=$(pid_of "$DC_RUN/master.pid")
    if alive "$pid"; then log "dovecot already running (pid $pid)"; return; fi
    write_dovecot_conf
    # redirect: the dovecot master keeps the stdout/stderr it was started with (would hang a caller's pipe)
    dovecot -c "$DC_CONF" </dev/null >>"$MS_DIR/log/dovecot.start.log" 2>&1 \
        || die "dovecot failed to start: $(tail -3 "$MS_DIR/log/dovecot.start.log")"
    for _ in $(seq 50); do port_busy "$IMAP_PORT" && break; sleep 0.1; done
    port_busy "$IMAP_PORT" || die "dovecot did not open 127.0.0.1:$IMAP_PORT (see $MS_DIR/log/dovecot.log)"
    log "dovecot started (pid $(pid_of "$DC_RUN/master.pid")): IMAP 127.0.0.1:$IMAP_PORT LMTP 127.0.0.1:$LMTP_PORT"
}

start_postfix() {
    local pid; pid=$(pid_of "$PF_QUEUE/pid/master.pid")
    if alive "$pid"; then log "postfix already running (pid $pid)"; return; fi
    write_postfix_conf
    postfix -c "$PF_CONF" start </dev/null >>"$MS_DIR/log/postfix.start.log" 2>&1 \
        || die "postfix failed to start: $(tail -3 "$MS_DIR/log/postfix.start.log"; grep -h 'fatal' "$MS_DIR/log/postfix.log" 2>/dev/null | tail -2)"
    for _ in $(seq 50); do port_busy "$MTA_PORT" && break; sleep 0.1; done
    port_busy "$MTA_PORT" || die "postfix did not open 127.0.0.1:$MTA_PORT (see $MS_DIR/log/postfix.log)"
    log "postfix started (pid $(pid_of "$PF_QUEUE/pid/master.pid")): SMTP 127.0.0.1:$MTA_PORT"
}

stop_pidfile() {  # name pidfile
    local pid; pid=$(pid_of "$2")
    if ! alive "$pid"; then log "$1 not running"; return; fi
    kill -TERM "$pid"
    for _ in $(seq 100); do alive "$pid" || break; sleep 0.1; done
    if alive "$pid"; then log "$1 (pid $pid) ignored TERM; sending KILL"; kill -KILL "$pid"; fi
    log "$1 (pid $pid) stopped"
}

cmd_start() {
    if ! command -v postfix >/dev/null || ! command -v dovecot >/dev/null; then die "run '$0 install' first"; fi
    mkdir -p "$MS_DIR"
    start_dovecot
    start_postfix
}

cmd_stop() {
    # postfix master exits on TERM after stopping its children; dovecot master likewise.
    stop_pidfile postfix "$PF_QUEUE/pid/master.pid"
    stop_pidfile dovecot "$DC_RUN/master.pid"
}

cmd_status() {
    local p d
    p=$(pid_of "$PF_QUEUE/pid/master.pid"); d=$(pid_of "$DC_RUN/master.pid")
    if alive "$p"; then echo "postfix: running pid $p, 127.0.0.1:$MTA_PORT"; else echo "postfix: stopped"; fi
    if alive "$d"; then echo "dovecot: running pid $d, IMAP 127.0.0.1:$IMAP_PORT LMTP 127.0.0.1:$LMTP_PORT"; else echo "dovecot: stopped"; fi
    if port_busy "$RELAY_PORT"; then echo "relay target 127.0.0.1:$RELAY_PORT: listening"; else echo "relay target 127.0.0.1:$RELAY_PORT: nothing listening (mail to judge.test will be deferred)"; fi
    ss -Hltn | awk -v a=":($MTA_PORT|$IMAP_PORT|$LMTP_PORT|$RELAY_PORT)\$" '$4 ~ a {print "  listen", $4}'
}

cmd_test() {
    cmd_start
    local sink_pid="" sink_out="$MS_DIR/log/test-sink.out" tag; tag="t$(date +%s%N)"
    if ! port_busy "$RELAY_PORT"; then
        [[ -x $VENV/bin/python ]] || die "no venv at $VENV (run install)"
        "$VENV/bin/python" -m aiosmtpd -n -l "127.0.0.1:$RELAY_PORT" -c aiosmtpd.handlers.Debugging stdout </dev/null \
            >"$sink_out" 2>&1 &
        sink_pid=$!
        for _ in $(seq 50); do port_busy "$RELAY_PORT" && break; sleep 0.1; done
        log "started throw-away aiosmtpd sink pid $sink_pid on 127.0.0.1:$RELAY_PORT"
    else
        log "something already listens on $RELAY_PORT; judge.test delivery is checked via the postfix log only"
    fi
    local fail=0 n
    # 1. swaks -> postfix -> judge.test relay (aiosmtpd), Czech UTF-8 body, 8bit
    swaks -S --server "127.0.0.1:$MTA_PORT" --from hrac@mbox.test --to judge@judge.test \
        --header "Subject: =?UTF-8?Q?P=C5=99=C3=ADkazy_$tag?=" \
        --add-header 'MIME-Version: 1.0' --add-header 'Content-Type: text/plain; charset=utf-8' \
        --add-header 'Content-Transfer-Encoding: 8bit' --body $'A Vídeň - Budapešť\nŽluťoučký kůň' || fail=1
    # 2. swaks -> postfix -> LMTP -> dovecot; 3. swaks -> postfix -> pipe
    swaks -S --server "127.0.0.1:$MTA_PORT" --from judge@judge.test --to player1@mbox.test \
        --header "Subject: report $tag" --body 'Turn processed.' || fail=1
    swaks -S --server "127.0.0.1:$MTA_PORT" --from hrac@mbox.test --to judge@pipe.test \
        --header "Subject: pipe $tag" --body 'orders via pipe' || fail=1
    # 4. msmtp as an outgoing client (what the judge could exec), via postfix to an IMAP box
    printf 'From: judge@judge.test\nTo: player2@mbox.test\nSubject: msmtp %s\n\nhello\n' "$tag" |
        msmtp --host=127.0.0.1 --port="$MTA_PORT" --auth=off --tls=off --from=judge@judge.test player2@mbox.test || fail=1
    sleep 2
    if [[ -n $sink_pid ]]; then
        if grep -q "$tag" "$sink_out"; then log "OK judge.test relay delivered to aiosmtpd"; else log "FAIL relay"; fail=1; fi
        kill "$sink_pid"; wait "$sink_pid" 2>/dev/null || true
        log "stopped sink pid $sink_pid"
    fi
    if [[ -z $PIPE_CMD ]]; then
        n=$(grep -l "$tag" "$MS_DIR"/pipe-inbox/* 2>/dev/null | wc -l || true)
        if ((n == 1)); then log "OK pipe.test delivered to pipe command"; else log "FAIL pipe ($n)"; fail=1; fi
    else  # a custom MAILSTACK_PIPE_CMD (e.g. judge ingest) keeps the mail itself: look at postfix's verdict
        local last; last=$(grep -E "relay=judgepipe" "$MS_DIR/log/postfix.log" | tail -1)
        if [[ $last == *status=sent* ]]; then log "OK pipe.test: the pipe command exited 0"; else log "FAIL pipe: $last"; fail=1; fi
    fi
    # read both mailboxes back with stdlib imaplib (plaintext LOGIN on 127.0.0.1:$IMAP_PORT)
    python3 - "$IMAP_PORT" "$IMAP_PASS" "$tag" <<'EOF' || fail=1
import imaplib, sys
port, pw, tag = int(sys.argv[1]), sys.argv[2], sys.argv[3]
for user in ("player1", "player2"):
    c = imaplib.IMAP4("127.0.0.1", port)
    c.login(user, pw)
    c.select("INBOX")
    typ, data = c.search(None, "SUBJECT", tag)
    c.logout()
    assert data[0].split(), f"{user}: message {tag} not found over IMAP"
    print(f"[mailstack] OK IMAP {user} has message {tag}", file=sys.stderr)
EOF
    if ((fail == 0)); then log "smoke test passed"; else die "smoke test FAILED (see $MS_DIR/log/)"; fi
}

case ${1:-} in
    install) cmd_install ;;
    start) cmd_start ;;
    stop) cmd_stop ;;
    restart) cmd_stop; cmd_start ;;
    status) cmd_status ;;
    test) cmd_test ;;
    flush) postqueue -c "$PF_CONF" -f ;;
    queue) postqueue -c "$PF_CONF" -p ;;
    clean) cmd_stop; rm -rf "$MS_DIR"; log "removed $MS_DIR" ;;
    *) sed -n '2,28p' "$0"; exit 2 ;;
esac
