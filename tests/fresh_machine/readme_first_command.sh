#!/usr/bin/env bash
# Runs the README's first command, exactly as written, in a minimal Debian 12
# root made with debootstrap (nothing installed but the base system), on a
# fresh clone of this repository's HEAD. Fails if the command fails or does
# not print the sample's summary. Needs root and Debian's archive. The root
# comes from debian_root.sh (debootstrap once, then a cached tarball).
#   tests/fresh_machine/readme_first_command.sh [WORKDIR]
set -euo pipefail
src="$(cd "$(dirname "$0")/../.." && pwd)"
work="${1:-$(mktemp -d /tmp/rudpscope-fresh.XXXXXX)}"
mkdir -p "$work"
root="$work/root"
# Removed at the end (as root): only a root this script makes.
[[ ! -e "$root" ]] || { echo "FAIL: $root exists already; give an empty work directory" >&2; exit 2; }
# shellcheck source=debian_root.sh
source "$src/tests/fresh_machine/debian_root.sh"
trap 'debian_root_umount "$root"' EXIT

start=$(date +%s)
debian_root_make bookworm "$root"
debian_root_mount "$root"

echo "== fresh clone of $(git -C "$src" rev-parse --short HEAD)"
git clone -q "$src" "$root/src"

# The first ```sh block of the README's quick start, verbatim.
cmd="$(awk '/^```sh$/{f=1; next} /^```$/{if(f) exit} f' "$root/src/README.md")"
echo "== README's first command: $cmd"
set +e
debian_root_run "$root" bash -c "cd /src && $cmd" > "$work/first-command.log" 2>&1
status=$?
set -e
tail -25 "$work/first-command.log"
echo "== exit status $status after $(( $(date +%s) - start )) s"
[[ $status -eq 0 ]] || { echo "FAIL: the README's first command failed" >&2; exit 1; }
grep -q "^capture   resources/sample.pcap" "$work/first-command.log" ||
  { echo "FAIL: no sample summary printed" >&2; exit 1; }
grep -q "10.0.1.2:40001 -> 10.0.0.1:7777" "$work/first-command.log" ||
  { echo "FAIL: the summary lacks the sample's connections" >&2; exit 1; }
# The root with its build is gigabytes; CI's next step needs the disk.
# (After a failure it stays, to be looked into.)
debian_root_umount "$root"
rm -rf --one-file-system "$root"
echo "PASS: the README's first command works on a fresh Debian 12 root"
