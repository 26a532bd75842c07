#!/usr/bin/env bash
# Checks the desktop integration files and man pages installed under ROOT
# (a DESTDIR or a Debian root with the .deb installed), with the host's tools:
# desktop-file-validate and appstreamcli (validate, validate-tree: the
# metainfo names the installed desktop file) silent, the MIME package
# accepted by update-mime-database, each man page rendered by man and groff
# without a warning. Prints what failed; exit 1 if anything did.
#   tests/packaging/check_installed_data.sh ROOT [PREFIX]     (PREFIX: /usr)
set -uo pipefail
root="${1%/}" prefix="${2:-/usr}"
share="$root$prefix/share"
id=org.rudpscope.rudpscope
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# Runs a check that must succeed and print nothing but the allowed line.
silent() {
  local what="$1" allowed="$2" out; shift 2
  if ! out="$("$@" 2>&1)"; then fail "$what exits non-zero:"$'\n'"$out"; return; fi
  out="$(grep -v -x -F -e "$allowed" <<< "$out")"
  [[ -z "$out" ]] || fail "$what says:"$'\n'"$out"
}

check_desktop() {
  silent "desktop-file-validate" "" desktop-file-validate "$share/applications/$id.desktop"
  grep -q -x 'MimeType=application/vnd.tcpdump.pcap;application/x-pcapng;' "$share/applications/$id.desktop" ||
    fail "the desktop entry does not register application/vnd.tcpdump.pcap and application/x-pcapng"
  grep -q -x 'Exec=rudpscope %f' "$share/applications/$id.desktop" || fail "the desktop entry's Exec is not 'rudpscope %f'"
}

check_appstream() {
  local ok="✔ Validation was successful."
  silent "appstreamcli validate" "$ok" appstreamcli validate --no-net --pedantic --strict "$share/metainfo/$id.metainfo.xml"
  silent "appstreamcli validate-tree" "$ok" appstreamcli validate-tree --no-net --pedantic --strict "$root$prefix"
}

check_mime() {
  local tmp; tmp="$(mktemp -d)"
  mkdir -p "$tmp/mime/packages"
  cp "$share/mime/packages/$id.xml" "$tmp/mime/packages/"
  silent "update-mime-database" "" env XDG_DATA_DIRS="$tmp" update-mime-database "$tmp/mime"
  [[ -f "$tmp/mime/application/x-pcapng.xml" ]] || fail "the MIME package does not define application/x-pcapng"
  rm -rf "$tmp"
}

check_man() {
  local page="$1" file="$share/man/man1/$1.1.gz" text
  [[ -f "$file" ]] || { fail "no man page $file"; return; }
  silent "groff -man -ww on $page.1" "" sh -c 'gzip -d -c "$1" | groff -man -ww -z' sh "$file"
  silent "man --warnings on $page.1" "" sh -c 'MANWIDTH=80 man --warnings -l "$1" > /dev/null' sh "$file"
  text="$(MANWIDTH=80 man -l "$file" 2>/dev/null)"
  grep -q -E "^ +$page +- " <<< "$text" || fail "man -l $page.1 renders no NAME line for $page"
}

check_desktop
check_appstream
check_mime
check_man rudpscope
check_man rudpscope-cli
if ((failures)); then exit 1; fi
echo "desktop entry, AppStream metadata, MIME package and man pages under $root$prefix: valid"
