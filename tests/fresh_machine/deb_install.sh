#!/usr/bin/env bash
# The .deb as a user meets it: installed with apt into a fresh Debian 12 root
# (debian_root.sh), then, inside the root, as a normal user:
#   - `rudpscope-cli analyze /usr/share/rudpscope/sample.pcap --db /tmp/s.sqlite`
#     prints exactly what the build tree's CLI prints for resources/sample.pcap
#     (table and JSON, tests/packaging/sample_summary.sh);
#   - the installed GUI, on the offscreen platform, opens the sample, analyses
#     it with the installed dissectors into the user's cache folder (the same
#     meta and capture row as the CLI's database), shows it and exits 0
#     (`rudpscope --quit-after-load`), printing nothing on stderr;
# and on the installed files: exactly the expected ones (dpkg -L,
# tests/packaging/installed_files.sh), desktop entry, AppStream metadata, MIME
# package and man pages valid (tests/packaging/check_installed_data.sh). The
# package itself: the expected Depends, stripped binaries without RPATH.
#   tests/fresh_machine/deb_install.sh [BUILD_DIR [DEB]]
# BUILD_DIR (default build/dev) is built and packed with cpack unless DEB is
# given; its rudpscope-cli is the reference. Needs root and Debian's archive.
# KEEP_WORKDIR=1 keeps the work directory with the root (otherwise the root
# is a tmpfs, gone at the end; the logs stay after a failure).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
build="$(cd "${1:-$repo/build/dev}" && pwd)" || exit 2
deb="${2:-}"
work="$(mktemp -d /var/tmp/rudpscope-deb.XXXXXX)"
root="$work/root"
user=player
start=$(date +%s)
failures=0
fail() { printf 'FAIL: %s\n' "$*" >&2; failures=$((failures + 1)); }
step() { echo "== [$(( $(date +%s) - start )) s] $*"; }
# shellcheck source=debian_root.sh
source "$here/debian_root.sh"

# The libraries dpkg-shlibdeps finds, and the font the GUI draws with.
# libenet7: rudpscope-cli lab's ENet endpoint, built where libenet-dev is
# (tests/lab/CMakeLists.txt; the same condition as installed_files.sh).
enet=""
if [[ -f /usr/include/enet/enet.h ]]; then enet="libenet7"; fi
EXPECTED_DEPENDS="fonts-dejavu-core libc6 $enet libgcc-s1 libluajit-5.1-2 libpcap0.8 libpcre2-8-0 libqt6core6 libqt6gui6 libqt6svg6
libqt6widgets6 libsqlite3-0 libssl3 libstdc++6 libxxhash0 libzstd1 zlib1g"

META="SELECT key, value FROM meta ORDER BY key"

cleanup() {
  debian_root_umount "$root"
  if mountpoint -q "$root"; then umount "$root"; fi
  if [[ "${KEEP_WORKDIR:-0}" == 1 || $failures -gt 0 ]]; then echo "(work directory kept: $work)"; else rm -rf "$work"; fi
}
trap cleanup EXIT

make_deb() {
  step "building and packing $build"
  cmake --build "$build" > "$work/build.log" 2>&1 || { tail -20 "$work/build.log"; return 1; }
  (cd "$build" && cpack -G DEB -B "$work/pkg") > "$work/cpack.log" 2>&1 || { tail -20 "$work/cpack.log"; return 1; }
  deb="$(echo "$work"/pkg/rudpscope_*.deb)"
  [[ -f "$deb" ]] || { echo "cpack made no rudpscope_*.deb" >&2; return 1; }
}

check_package() {
  local depends x
  depends="$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/^ *//; s/ .*//' | LC_ALL=C sort | xargs)"
  [[ "$depends" == "$(echo $EXPECTED_DEPENDS)" ]] ||
    fail "Depends: '$depends', expected '$(echo $EXPECTED_DEPENDS)'"
  [[ "$(dpkg-deb -f "$deb" Suggests)" == "tshark, wireshark" ]] || fail "Suggests is not 'tshark, wireshark'"
  [[ "$(dpkg-deb -f "$deb" Recommends)" == "wireshark-common, iproute2, nftables" ]] ||
    fail "Recommends is not 'wireshark-common, iproute2, nftables' (dumpcap, rudpscope-cli lab)"
  mkdir -p "$work/unpacked"
  dpkg-deb -x "$deb" "$work/unpacked"
  for x in rudpscope rudpscope-cli; do
    # Here-strings, not pipes: under pipefail grep -q's early exit could turn
    # readelf's SIGPIPE into a pipeline failure that hides a match.
    grep -q -E 'RPATH|RUNPATH' <<<"$(readelf -d "$work/unpacked/usr/bin/$x")" && fail "$x carries an RPATH"
    grep -q debug_info <<<"$(readelf -S "$work/unpacked/usr/bin/$x")" && fail "$x is not stripped"
  done
}

install_deb() {
  step "installing $(basename "$deb") with apt"
  cp "$deb" "$root/tmp/"
  cp "$repo/tests/packaging/sample_summary.sh" "$root/tmp/"
  debian_root_run "$root" bash -c "cd /tmp && apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y ./$(basename "$deb")" \
    > "$work/apt.log" 2>&1 || { tail -30 "$work/apt.log"; return 1; }
  grep -E '^[0-9]+ upgraded, [0-9]+ newly installed' "$work/apt.log"
  debian_root_run "$root" useradd -m "$user"
  # Capture privileges are dumpcap's alone (the recommended wireshark-common).
  debian_root_run "$root" test -x /usr/bin/dumpcap || fail "apt did not install dumpcap (wireshark-common)"
  local caps
  caps="$(debian_root_run "$root" getcap /usr/bin/rudpscope /usr/bin/rudpscope-cli)"
  [[ -z "$caps" ]] || fail "rudpscope's programs have capabilities: $caps"
}

# Runs a command in the root as the normal user, in a clean environment.
as_user() {
  debian_root_run "$root" runuser -u "$user" -- env HOME="/home/$user" LANG=C.UTF-8 "$@"
}

check_cli() {
  step "the installed rudpscope-cli on the installed sample"
  bash "$repo/tests/packaging/sample_summary.sh" "$build/analysis/cli/rudpscope-cli" "$repo/resources/sample.pcap" \
    "$work/reference.sqlite" > "$work/reference.txt" || { fail "the build tree's CLI failed"; return; }
  as_user bash /tmp/sample_summary.sh rudpscope-cli /usr/share/rudpscope/sample.pcap /tmp/s.sqlite \
    > "$work/installed.txt" || { fail "the installed CLI failed on the installed sample"; return; }
  sed -n '1,12p' "$work/installed.txt"
  diff "$work/reference.txt" "$work/installed.txt" > "$work/summary.diff" ||
    fail "the installed CLI's summary differs from the build tree's:"$'\n'"$(head -40 "$work/summary.diff")"
  # The same settings and dissectors (names and contents) as the build tree's.
  [[ "$(sqlite3 -readonly "$root/tmp/s.sqlite" "$META")" == "$(sqlite3 -readonly "$work/reference.sqlite" "$META")" ]] ||
    fail "the installed CLI's database meta (settings, dissector fingerprint) differs from the build tree's"
  [[ "$(as_user rudpscope-cli --version)" == "rudpscope-cli $(dpkg-deb -f "$deb" Version)" ]] ||
    fail "rudpscope-cli --version does not say the package's version"
}

# Inside the root as the user: the GUI opens the sample, analyses it into the
# cache folder and quits once it is shown (--quit-after-load: status 0, or 1
# with the reason on stderr); `timeout` turns a GUI that never quits into 124.
GUI_SCRIPT='
export QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR=/tmp/run-$USER
mkdir -m 700 -p "$XDG_RUNTIME_DIR"
timeout 300 rudpscope --quit-after-load /usr/share/rudpscope/sample.pcap > /tmp/gui.out 2> /tmp/gui.err
echo "exited with status $?"
'

check_gui() {
  step "the installed rudpscope (offscreen) on the installed sample"
  local said db table
  said="$(as_user env USER="$user" bash -c "$GUI_SCRIPT")"
  echo "GUI: $said"
  [[ "$said" == "exited with status 0" ]] || fail "rudpscope --quit-after-load on the sample $said"
  # Qt's offscreen platform says this of every top-level window it shows.
  grep -v -x -F "This plugin does not support propagateSizeHints()" "$root/tmp/gui.err" > "$work/gui.err"
  [[ -s "$work/gui.err" ]] && fail "the GUI wrote to stderr:"$'\n'"$(head -20 "$work/gui.err")"
  [[ -s "$root/tmp/gui.out" ]] && fail "the GUI wrote to stdout:"$'\n'"$(head -20 "$root/tmp/gui.out")"
  db="$(echo "$root/home/$user/.cache/rudpscope/"*-sample.pcap.rudpscope.sqlite)"
  [[ -f "$db" ]] || { fail "the GUI left no database in the user's cache folder"; return; }
  # Same analysis as the CLI's: settings, dissector fingerprint, capture facts.
  for table in "$META" \
               "SELECT size, hash, format, packet_count, truncated, decode_errors, malformed, lua_errors FROM capture"; do
    [[ "$(sqlite3 -readonly "$db" "$table")" == "$(sqlite3 -readonly "$root/tmp/s.sqlite" "$table")" ]] ||
      fail "the GUI's database differs from the CLI's in: $table"
  done
  [[ "$(sqlite3 -readonly "$db" "SELECT packet_count FROM capture")" == 5311 ]] || fail "the GUI's database lacks the 5311 packets"
}

check_files() {
  step "installed files: dpkg -L, desktop entry, AppStream, MIME, man pages"
  local listed
  listed="$(debian_root_run "$root" dpkg -L rudpscope | while read -r p; do [[ -d "$root$p" ]] || echo "$p"; done | LC_ALL=C sort)"
  diff <(bash "$repo/tests/packaging/installed_files.sh" "$repo" /usr) <(echo "$listed") > "$work/files.diff" ||
    fail "dpkg -L rudpscope differs from installed_files.sh (< expected, > listed):"$'\n'"$(cat "$work/files.diff")"
  bash "$repo/tests/packaging/check_installed_data.sh" "$root" /usr || failures=$((failures + 1))
  # shared-mime-info (a dependency of Qt) compiled our MIME package.
  [[ -f "$root/usr/share/mime/application/x-pcapng.xml" ]] || fail "application/x-pcapng is not a known MIME type in the root"
}

command -v sqlite3 > /dev/null || { echo "FAIL: needs sqlite3" >&2; exit 2; }
if [[ -z "$deb" ]]; then make_deb || { failures=1; exit 1; }; fi
deb="$(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")"
check_package
# The root lives in memory: removing a Debian root from this disk takes a minute.
if [[ "${KEEP_WORKDIR:-0}" != 1 ]]; then mkdir -p "$root" && mount -t tmpfs -o size=4g,mode=755 rudpscope-deb-root "$root"; fi
debian_root_make bookworm "$root" || { failures=1; exit 1; }
debian_root_mount "$root"
install_deb || { failures=1; exit 1; }
check_cli
check_gui
check_files
step "done"
if ((failures)); then echo "FAIL: $failures check(s) of the .deb failed" >&2; exit 1; fi
echo "PASS: the .deb installs with apt on a fresh Debian 12 root; CLI, GUI and desktop files work"
