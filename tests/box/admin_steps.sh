#!/usr/bin/env bash
# docs/hall.md's "Setting up a hall (for a box's admin)", run for real: its shell blocks exactly as
# written (taken from docs/hall.md by readme_steps.py), as root, in a fresh Debian root made with
# debootstrap, then checked: the hall's modes, a game hosted by the shared account and listed by a
# player with a login of her own, the Match block accepted by sshd, and a real login over the
# root's own sshd with the documented authorized_keys line, which gets the launcher and leaves no
# dicehall behind when the client is killed.
#
#   sudo tests/box/admin_steps.sh [ROOT]     # needs debootstrap, tmux, ssh; Debian's mirror and PyPI
#
# ROOT (default: a new folder under /tmp) keeps the fresh system debootstrap made, for the next run;
# each run copies it to ROOT.run (kept afterwards, to look at) so the steps always meet a new box.
# SUITE and MIRROR choose another system: SUITE=noble MIRROR=http://archive.ubuntu.com/ubuntu for
# Ubuntu 24.04, where debootstrap knows noble and ubuntu-keyring is installed (Debian 12's do not).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
suite=${SUITE:-bookworm}
mirror=${MIRROR:-http://deb.debian.org/debian}
root=${1:-$(mktemp -d /tmp/dicehall-box.XXXXXX)}
port=${PORT:-$((20000 + RANDOM % 20000))}
say() { printf '== %s\n' "$*"; }
fail() { printf 'FAILED: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || fail "run as root (debootstrap and chroot need it)"
for tool in debootstrap tmux ssh ssh-keygen unshare python3; do
    command -v "$tool" >/dev/null || fail "$tool is missing (apt-get install -y debootstrap tmux openssh-client)"
done

if [ ! -x "$root/bin/sh" ]; then
    say "debootstrap $suite into $root"
    # openssh-server is what the box already runs; python3 is left for the README's own step
    debootstrap --variant=minbase --include=openssh-server,passwd,ca-certificates \
        "$suite" "$root" "$mirror" >"$root.debootstrap.log" 2>&1 \
        || fail "debootstrap: see $root.debootstrap.log"
    rm -f "$root/etc/ssh/ssh_host_"*   # each copy makes its own host keys
fi
base=$root
root=$base.run
say "a fresh copy of it in $root"
rm -rf "$root"
cp -a "$base" "$root"
cp /etc/resolv.conf "$root/etc/resolv.conf"

say "the checkout into $root/root/dicehall, ann's key as ann.pub in it (the steps run from inside the checkout)"
mkdir "$root/root/dicehall"
git -C "$repo" ls-files -z | (cd "$repo" && xargs -0 tar -cf - --no-recursion) | tar -xf - -C "$root/root/dicehall"
ssh-keygen -q -t ed25519 -N '' -C ann@laptop -f "$root/root/ann"
cp "$root/root/ann.pub" "$root/root/dicehall/ann.pub"
python3 "$here/readme_steps.py" sh >"$root/root/readme-steps.sh"
python3 "$here/readme_steps.py" match >"$root/root/readme-match.conf"
# The new root starts from a clean environment (none of this machine's pip settings), except that
# a box reaching PyPI through a TLS-inspecting proxy (as this workplace does) needs that proxy's CA:
# the host's PIP_CERT bundle is handed to pip inside.
box_env=(PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8)
if [ -n "${PIP_CERT:-}" ] && [ -f "$PIP_CERT" ]; then
    cp "$PIP_CERT" "$root/root/host-ca.crt"
    box_env+=(PIP_CERT=/root/host-ca.crt)
fi

# Run inside the new root, in a mount namespace of our own, so /proc and /dev go away with it.
cat >"$root/root/run-in-box.sh" <<'INNER'
set -eu
cd /root
export DEBIAN_FRONTEND=noninteractive
echo "== apt-get update (a real box has its lists)"
apt-get update -q >/root/apt-update.log 2>&1 || { cat /root/apt-update.log; exit 1; }
id ann >/dev/null 2>&1 || useradd -m -s /bin/bash ann   # the player with a login of her own
echo "== the documented steps, as written, from inside the checkout"
(cd /root/dicehall && sh -ex /root/readme-steps.sh)
echo "== checks"
test "$(stat -c %a:%G /var/games/dicehall)" = 3770:dicehall
test "$(stat -c %a:%U:%G /var/games/dicehall/games)" = 3770:root:dicehall  # root's: no member owns the games
test "$(stat -c %a:%U:%G /var/games/dicehall/secrets)" = 3770:root:dicehall
test "$(readlink /usr/local/bin/dicehall)" = /opt/dicehall/bin/dicehall
id -nG ann | grep -qw dicehall
grep -q '^command="umask 007; dicehall --hall /var/games/dicehall --player ann",restrict,pty ssh-ed25519 ' ~play/.ssh/authorized_keys
# not locked (useradd's "!"), which an sshd with UsePAM no refuses; and no password either
test "$(getent shadow play | cut -d: -f2)" = '*'
test "$(stat -c %a:%U ~play/.ssh/authorized_keys)" = 644:root  # root's: the account cannot change its keys
test "$(stat -c %a:%U ~play/.ssh)" = 755:root
# the shared account hosts a game (off a terminal: it prints the id and leaves) ...
out=$(su -s /bin/sh play -c 'umask 007; dicehall --hall /var/games/dicehall host towers --seat 2=bot' </dev/null)
echo "$out"
id=$(echo "$out" | sed -n 's/.*dicehall join \([a-z0-9]*\)$/\1/p')
test -n "$id"
# ... and ann, as herself, finds the hall by herself and sees it
su - ann -c 'dicehall hall' | tee /root/hall.txt
grep -q "$id" /root/hall.txt
su - ann -c "dicehall hall --json" | grep -q '"hall": "/var/games/dicehall"'
if find /var/games/dicehall -perm /o=rwx | grep .; then echo "world-readable files in the hall"; exit 1; fi
if find /var/games/dicehall ! -group dicehall | grep .; then echo "files of another group in the hall"; exit 1; fi
echo "== the Match block, in /etc/ssh/sshd_config.d/dicehall.conf"
mkdir -p /run/sshd
test -f /etc/ssh/ssh_host_ed25519_key || ssh-keygen -A
cp /root/readme-match.conf /etc/ssh/sshd_config.d/dicehall.conf
/usr/sbin/sshd -t
# no ForceCommand: each key's own command names its player
/usr/sbin/sshd -T -C user=play,host=box,addr=127.0.0.1 | grep -qx 'forcecommand none'
/usr/sbin/sshd -T -C user=play,host=box,addr=127.0.0.1 | grep -qx 'disableforwarding yes'
# the Match block stays with its user
/usr/sbin/sshd -T -C user=root,host=box,addr=127.0.0.1 | grep -qx 'disableforwarding no'
rm /etc/ssh/sshd_config.d/dicehall.conf   # the login below is the authorized_keys line's
echo "== all steps done"
INNER

ns_script=$(mktemp)
trap 'rm -f "$ns_script"' EXIT
cat >"$ns_script" <<NS
set -eu
mount -t proc proc "$root/proc"
mount --rbind /dev "$root/dev"
chroot "$root" env -i ${box_env[*]} /bin/bash /root/run-in-box.sh
echo "== sshd of the new root on 127.0.0.1:$port, its own sshd_config but UsePAM no (a locked account is refused there)"
chroot "$root" /usr/sbin/sshd -D -e -p $port -o ListenAddress=127.0.0.1 -o UsePAM=no >"$root.sshd.log" 2>&1 &
sshd_pid=\$!
trap 'kill \$sshd_pid 2>/dev/null; wait \$sshd_pid 2>/dev/null || true' EXIT
sock=dicehall-box-\$\$
ssh_cmd="ssh -tt -p $port -i $root/root/ann -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes play@127.0.0.1"
for _ in \$(seq 50); do (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break; sleep 0.2; done
tmux -L "\$sock" new-session -d -x 80 -y 24 "TERM=xterm-256color \$ssh_cmd; sleep 30"
screen=""
for _ in \$(seq 150); do
    screen=\$(tmux -L "\$sock" capture-pane -p || true)
    case "\$screen" in *"Dice Tower"*) break;; esac
    sleep 0.2
done
echo "\$screen"
case "\$screen" in *"Dice Tower"*) echo "== the launcher over ssh play@box";;
    *) tmux -L "\$sock" kill-server; cat "$root.sshd.log"; echo "FAILED: no launcher over ssh"; exit 1;; esac
client=\$(pgrep -f -n -x "\$ssh_cmd" || true)
[ -n "\$client" ] && kill -9 "\$client"
left=""
for _ in \$(seq 50); do
    left=\$(for p in /proc/[0-9]*; do
        [ "\$(readlink \$p/root 2>/dev/null)" = "$root" ] && tr '\0' ' ' <\$p/cmdline 2>/dev/null | grep -q 'dicehall --hall' && echo \${p#/proc/}
    done || true)
    [ -z "\$left" ] && break
    sleep 0.2
done
tmux -L "\$sock" kill-server || true
[ -z "\$left" ] || { echo "FAILED: dicehall left after the client was killed: \$left"; exit 1; }
echo "== client killed: no dicehall left"
plain_ssh="ssh -T -p $port -i $root/root/ann -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR play@127.0.0.1"
\$plain_ssh dicehall hall --scores </dev/null | grep -q 'scores from' || { echo "FAILED: ssh -T play@box dicehall hall --scores"; exit 1; }
refused=\$(\$plain_ssh dicehall rm -rf / </dev/null 2>&1 >/dev/null; echo "rc=\$?")
case "\$refused" in "dicehall: 'rm' is not a command here"*"rc=2") echo "== the box's commands over ssh, and a refusal";;
    *) echo "FAILED: rm -rf / over ssh: \$refused"; exit 1;; esac
NS
unshare --mount --propagation private bash "$ns_script"
say "PASSED: the documented admin steps work as written on $suite ($root)"
