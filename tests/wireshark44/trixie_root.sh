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

trixie_cache_file() {
  echo "${RUDPSCOPE_ROOT_CACHE:-/var/tmp/rudpscope-roots}/$TRIXIE_RECIPE.tar.$(trixie_compressor_ext)"
}

trixie_compressor_ext() { command -v zstd >/dev/null && echo zst || echo gz; }
trixie_compressor() { command -v zstd >/dev/null && echo "zstd -T0 -3 -q" || echo "gzip -1"; }

# A cached root is fresh when younger than RUDPSCOPE_ROOT_MAX_AGE_DAYS.
trixie_cache_is_fresh() {
  local cache="$1" max_days="${RUDPSCOPE_ROOT_MAX_AGE_DAYS:-7}"
  [[ -s "$cache" ]] && [[ -n "$(find "$cache" -mtime -"$max_days" -print)" ]]
}

trixie_debootstrap() {
  local root="$1" log="$2" mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
  echo "== debootstrap --variant=minbase trixie ($mirror)"
  debootstrap --variant=minbase trixie "$root" "$mirror" >> "$log" 2>&1 ||
    { tail -20 "$log"; echo "FAIL: debootstrap trixie failed (log: $log)" >&2; return 1; }
}

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

trixie_save_cache() {
  local root="$1" cache="$2"
  mkdir -p "$(dirname "$cache")"
  tar -C "$root" -cf - . | $(trixie_compressor) > "$cache.tmp.$$" && mv "$cache.tmp.$$" "$cache"
  echo "== cached the root as $cache ($(du -h "$cache" | cut -f1))"
}

trixie_unpack_cache() {
  local root="$1" cache="$2"
  echo "== unpacking the cached root $cache"
  mkdir -p "$root"
  $(trixie_compressor) -d -c < "$cache" | tar -C "$root" -xf -
}

trixie_root_prepare() {
  local root="$1" log="$2" cache
  cache="$(trixie_cache_file)"
  local t0=$SECONDS
  if trixie_cache_is_fresh "$cache"; then
    trixie_unpack_cache "$root" "$cache"
  else
    command -v debootstrap >/dev/null || { echo "FAIL: needs debootstrap (apt-get install debootstrap)" >&2; return 2; }
    trixie_debootstrap "$root" "$log" || return 1
    echo "   debootstrap took $((SECONDS - t0)) s"; t0=$SECONDS
    trixie_install_tshark "$root" "$log" || return 1
    echo "   apt-get took $((SECONDS - t0)) s"; t0=$SECONDS
    trixie_save_cache "$root" "$cache"
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
