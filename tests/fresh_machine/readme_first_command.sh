#!/usr/bin/env bash
# Runs the README's first command, exactly as written, in a minimal Debian 12
# root made with debootstrap (nothing installed but the base system), on a
# fresh clone of this repository's HEAD. Fails if the command fails or does
# not print the sample's summary. Needs root and Debian's archive.
#   tests/fresh_machine/readme_first_command.sh [WORKDIR]
set -euo pipefail
src="$(cd "$(dirname "$0")/../.." && pwd)"
work="${1:-$(mktemp -d /tmp/rudpscope-fresh.XXXXXX)}"
mkdir -p "$work"
root="$work/root"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"

cleanup() {
  for m in dev/pts dev proc; do umountpoint="$root/$m"; mountpoint -q "$umountpoint" && umount -l "$umountpoint"; done
  true
}
trap cleanup EXIT

command -v debootstrap >/dev/null || { echo "needs debootstrap (apt-get install debootstrap)" >&2; exit 2; }
start=$(date +%s)
echo "== debootstrap bookworm (minbase) into $root"
debootstrap --variant=minbase bookworm "$root" "$mirror" > "$work/debootstrap.log" 2>&1 ||
  { tail -20 "$work/debootstrap.log"; exit 1; }
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"

echo "== fresh clone of $(git -C "$src" rev-parse --short HEAD)"
git clone -q "$src" "$root/src"

# The first ```sh block of the README's quick start, verbatim.
cmd="$(awk '/^```sh$/{f=1; next} /^```$/{if(f) exit} f' "$root/src/README.md")"
echo "== README's first command: $cmd"
set +e
chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  TERM=dumb bash -c "cd /src && $cmd" > "$work/first-command.log" 2>&1
status=$?
set -e
tail -25 "$work/first-command.log"
echo "== exit status $status after $(( $(date +%s) - start )) s"
[[ $status -eq 0 ]] || { echo "FAIL: the README's first command failed" >&2; exit 1; }
grep -q "^capture   resources/sample.pcap" "$work/first-command.log" ||
  { echo "FAIL: no sample summary printed" >&2; exit 1; }
grep -q "10.0.1.2:40001 -> 10.0.0.1:7777" "$work/first-command.log" ||
  { echo "FAIL: the summary lacks the sample's connections" >&2; exit 1; }
echo "PASS: the README's first command works on a fresh Debian 12 root"
