#!/usr/bin/env bash
# A minimal Debian root (debootstrap --variant=minbase from Debian's archive),
# made once per suite and then unpacked from a cached tarball, so the fresh-
# machine tests pay for one debootstrap. The cached root is debootstrap's
# output untouched: every test starts from what a new machine has.
#   tests/fresh_machine/debian_root.sh SUITE DIR    make DIR a SUITE root
# or, sourced: debian_root_make SUITE DIR, debian_root_mount DIR,
# debian_root_umount DIR, debian_root_run DIR COMMAND... (as root, clean env).
# Environment: RUDPSCOPE_ROOT_CACHE (default /var/tmp/rudpscope-roots),
# RUDPSCOPE_ROOT_MAX_AGE_DAYS (default 7: a point release brings new
# packages), DEBIAN_MIRROR (default http://deb.debian.org/debian).
# Needs root.

# Bump when the recipe changes, so an older cached root is not reused.
DEBIAN_ROOT_RECIPE=minbase-v1

debian_root_cache_ext() { if command -v zstd >/dev/null; then echo zst; else echo gz; fi; }

# debian_root_cache_file NAME: where the tarball of root NAME is kept.
debian_root_cache_file() {
  echo "${RUDPSCOPE_ROOT_CACHE:-/var/tmp/rudpscope-roots}/$1.tar.$(debian_root_cache_ext)"
}

debian_root_compressor() {
  if command -v zstd >/dev/null; then echo "zstd -T0 -3 -q"; else echo "gzip -1"; fi
}

debian_root_cache_is_fresh() {
  [[ -f "$1" ]] && [[ -n "$(find "$1" -mtime -"${RUDPSCOPE_ROOT_MAX_AGE_DAYS:-7}")" ]]
}

# debian_root_pack DIR CACHE / debian_root_unpack CACHE DIR: a root to and
# from a tarball. Written aside and renamed, so a run in parallel never reads
# half a tarball.
debian_root_pack() {
  local root="$1" cache="$2"
  mkdir -p "$(dirname "$cache")"
  tar -C "$root" --numeric-owner -cf - . | $(debian_root_compressor) > "$cache.tmp.$$" && mv "$cache.tmp.$$" "$cache"
  echo "== cached the root as $cache ($(du -h "$cache" | cut -f1))"
}

debian_root_unpack() {
  local cache="$1" root="$2"
  echo "== unpacking the cached root $cache"
  mkdir -p "$root"
  $(debian_root_compressor) -d -c < "$cache" | tar -C "$root" --numeric-owner -xpf -
}

# debian_root_make SUITE DIR: DIR (new or empty) becomes a minbase root.
debian_root_make() {
  local suite="$1" root="$2" cache log
  cache="$(debian_root_cache_file "$suite-$DEBIAN_ROOT_RECIPE")"
  mkdir -p "$root"
  if debian_root_cache_is_fresh "$cache"; then
    debian_root_unpack "$cache" "$root"
    return
  fi
  command -v debootstrap >/dev/null || { echo "FAIL: needs debootstrap (apt-get install debootstrap)" >&2; return 2; }
  log="$root.debootstrap.log"
  echo "== debootstrap $suite (minbase) into $root"
  if ! debootstrap --variant=minbase "$suite" "$root" "${DEBIAN_MIRROR:-http://deb.debian.org/debian}" > "$log" 2>&1; then
    tail -20 "$log" >&2
    return 1
  fi
  debian_root_pack "$root" "$cache"
}

# The kernel file systems apt and the programs need, and the host's DNS.
debian_root_mount() {
  local root="$1"
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
  mountpoint -q "$root/dev" || mount --bind /dev "$root/dev"
  mountpoint -q "$root/dev/pts" || mount --bind /dev/pts "$root/dev/pts"
}

debian_root_umount() {
  local root="$1" m
  for m in dev/pts dev proc; do
    if mountpoint -q "$root/$m"; then umount -l "$root/$m"; fi
  done
  return 0
}

# debian_root_run DIR COMMAND...: runs COMMAND in the root as root with a
# clean environment, as a new machine's login shell would have it.
debian_root_run() {
  local root="$1"; shift
  chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    TERM=dumb "$@"
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  set -euo pipefail
  [[ $# -eq 2 ]] || { echo "usage: $0 SUITE DIR" >&2; exit 2; }
  debian_root_make "$1" "$2"
fi
