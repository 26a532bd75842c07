#!/usr/bin/env bash
# `analyze` onto a full file system: a small tmpfs (or, if tmpfs cannot be
# mounted, a loop-mounted ext4 image) holds the database. Each run must
#   - exit non-zero with exactly one line on stderr,
#   - leave no complete-looking database (no DB; a leftover DB.partial, if
#     any, says complete = 0),
#   - leave the previous result byte-for-byte intact when there was one,
# and once space is back, `analyze` succeeds again. The disk is filled to
# different levels so the failure hits different phases (creating the file,
# the schema, the packet batches, the final checkpoint).
#
#   tests/crash/full_disk.sh BUILD_DIR
# Exit 0 ok, 1 failed, 77 skipped (no way to mount a small file system here).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/common.sh"
[[ $# -ge 1 ]] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
crash_tools "$1"
src=$(cd "$here/../.." && pwd)

work=$(mktemp -d)
mnt=$work/mnt
mkdir -p "$mnt"
mounted=0
cleanup() {
  [[ $mounted == 1 ]] && umount "$mnt" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

if mount -t tmpfs -o size=2m tmpfs "$mnt" 2>/dev/null; then
  mounted=1; fs="tmpfs 2 MiB"
elif command -v mkfs.ext4 >/dev/null && dd if=/dev/zero of="$work/disk.img" bs=1M count=4 status=none &&
     mkfs.ext4 -q -F "$work/disk.img" && mount -o loop "$work/disk.img" "$mnt" 2>/dev/null; then
  mounted=1; fs="loop ext4 4 MiB"
else
  echo "SKIP: cannot mount a tmpfs or a loop ext4 image here (needs root / CAP_SYS_ADMIN)"
  exit 77
fi
echo "file system: $fs at $mnt"

# A capture whose database (~4 MB) cannot fit, and a small one that fits.
big=$work/big.pcap
"$SIM" --out "$big" --packets 30000 --seed 5 >/dev/null 2>&1
small=$src/tests/data/link/eth.pcap

fail=0
# Fills the file system leaving about $1 KiB free.
fill() {
  rm -f "$mnt/filler"
  local avail_kb
  avail_kb=$(df -Pk "$mnt" | awk 'NR == 2 { print $4 }')
  local want=$(( avail_kb - $1 ))
  if (( want > 0 )); then
    dd if=/dev/zero of="$mnt/filler" bs=1K count="$want" status=none 2>/dev/null || true
  fi
}

# analyze $big onto $db and check the failure; $2 = cksum of the previous result or "none".
expect_clean_failure() {
  local db=$1 prev=$2 label=$3 rc=0
  "$CLI" analyze "$big" --db "$db" -q >"$work/out" 2>"$work/err" || rc=$?
  local lines msg
  lines=$(wc -l <"$work/err")
  msg=$(head -1 "$work/err")
  if [[ $rc -eq 0 ]]; then
    echo "FAIL [$label]: analyze exited 0 on a full disk" >&2; fail=1; return
  fi
  if [[ $lines -ne 1 ]]; then
    echo "FAIL [$label]: expected one line on stderr, got $lines:" >&2; cat "$work/err" >&2; fail=1
  fi
  if [[ $prev == none ]]; then
    if [[ -e $db ]]; then
      echo "FAIL [$label]: a database appeared: $(db_state "$db")" >&2; fail=1
    fi
  elif [[ ! -e $db ]]; then
    echo "FAIL [$label]: the previous result is gone" >&2; fail=1
  elif [[ $(cksum <"$db") != "$prev" ]]; then
    echo "FAIL [$label]: the previous result changed ($(db_state "$db"))" >&2; fail=1
  fi
  local left=""
  if [[ -e $db.partial ]]; then
    local st
    st=$(db_state "$db.partial")
    left=" (left $db.partial: $st)"
    [[ $st == complete ]] && { echo "FAIL [$label]: $db.partial says complete" >&2; fail=1; }
  fi
  printf '  %-28s exit %d: %s%s\n' "$label" "$rc" "$msg" "$left"
}

echo "no previous result:"
for free_kb in 0 8 64 512 1536; do
  rm -f "$mnt"/a.sqlite*
  fill "$free_kb"
  expect_clean_failure "$mnt/a.sqlite" none "free ${free_kb} KiB"
done

echo "over a previous complete result:"
for free_kb in 0 8 64 512; do
  rm -f "$mnt"/filler "$mnt"/b.sqlite*
  "$CLI" analyze "$small" --db "$mnt/b.sqlite" -q >/dev/null
  rm -f "$mnt/b.sqlite-wal" "$mnt/b.sqlite-shm"
  frames=$(sqlval "$mnt/b.sqlite" "SELECT packet_count FROM capture")
  prev=$(cksum <"$mnt/b.sqlite")
  fill "$free_kb"
  expect_clean_failure "$mnt/b.sqlite" "$prev" "free ${free_kb} KiB"
  if [[ $(db_state "$mnt/b.sqlite") != complete || $(sqlval "$mnt/b.sqlite" "SELECT count(*) FROM packets") != "$frames" ]]; then
    echo "FAIL: the previous result no longer reads as complete with $frames frames" >&2; fail=1
  fi
done

echo "space back:"
rm -f "$mnt"/filler "$mnt"/*.sqlite*
if "$CLI" analyze "$small" --db "$mnt/c.sqlite" -q >/dev/null 2>"$work/err" &&
   [[ $(db_state "$mnt/c.sqlite") == complete ]]; then
  echo "  analyze succeeds again"
else
  echo "FAIL: analyze after freeing space: $(cat "$work/err")" >&2; fail=1
fi

if [[ $fail -ne 0 ]]; then echo "full_disk: FAILED"; exit 1; fi
echo "full_disk: ok"
