# Sourced by check_tshark44.sh: a minimal Debian 13 (trixie) root with tshark
# 4.4 and an unprivileged user, made with debootstrap once and then unpacked
# from a cached tarball.
#   trixie_root_prepare ROOT LOG
# Environment: RUDPSCOPE_ROOT_CACHE (default /var/tmp/rudpscope-roots),
# RUDPSCOPE_ROOT_MAX_AGE_DAYS (default 7: a point release may bring a newer
# tshark), DEBIAN_MIRROR (default http://deb.debian.org/debian).

# The uid/gid tshark runs as inside the root: tshark 4.4 loads no Lua plugin at
# all when it runs as root.
TRIXIE_USER_ID=4242
TRIXIE_USER_NAME=wscheck
# Bump when the recipe below changes, so an old cached root is not reused.
TRIXIE_RECIPE=trixie-minbase-tshark-lua54-v1
TRIXIE_PACKAGES=(tshark lua5.4)

# The minbase root, its cache and mounts come from the fresh-machine helper.
# shellcheck source=../fresh_machine/debian_root.sh
source "$(dirname "${BASH_SOURCE[0]}")/../fresh_machine/debian_root.sh"

trixie_install_tshark() {
  local root="$1" log="$2"
  echo "== apt-get install --no-install-recommends ${TRIXIE_PACKAGES[*]}"
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  local apt=(chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive apt-get -q)
  { "${apt[@]}" update && "${apt[@]}" install -y --no-install-recommends "${TRIXIE_PACKAGES[@]}" &&
      "${apt[@]}" clean; } >> "$log" 2>&1 ||
    { tail -20 "$log"; echo "FAIL: installing tshark in the trixie root failed (log: $log)" >&2; return 1; }
  rm -rf "$root"/var/lib/apt/lists/*
  chroot "$root" useradd --create-home --uid "$TRIXIE_USER_ID" --user-group "$TRIXIE_USER_NAME" >> "$log" 2>&1
}

trixie_root_prepare() {
  local root="$1" log="$2" cache
  cache="$(debian_root_cache_file "$TRIXIE_RECIPE")"
  local t0=$SECONDS
  if debian_root_cache_is_fresh "$cache"; then
    debian_root_unpack "$cache" "$root"
  else
    debian_root_make trixie "$root" || return 1
    echo "   the minbase root took $((SECONDS - t0)) s"; t0=$SECONDS
    trixie_install_tshark "$root" "$log" || return 1
    echo "   apt-get took $((SECONDS - t0)) s"; t0=$SECONDS
    debian_root_pack "$root" "$cache"
  fi
  echo "   took $((SECONDS - t0)) s"
}

# Runs a command inside the root as the unprivileged user, in DIR.
trixie_run_as_user() {
  local root="$1" dir="$2"; shift 2
  chroot --userspec="$TRIXIE_USER_ID:$TRIXIE_USER_ID" "$root" /usr/bin/env -i \
    HOME="/home/$TRIXIE_USER_NAME" PATH=/usr/bin:/bin LANG=C.UTF-8 TZ=UTC \
    /bin/bash -c 'cd "$1" && shift && exec "$@"' bash "$dir" "$@"
}
