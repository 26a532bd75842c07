#!/usr/bin/env bash
# `cmake --install` of the build into a temporary DESTDIR, checked as a user
# would meet it: exactly the expected files (installed_files.sh), valid
# desktop entry, AppStream metadata, MIME package and man pages
# (check_installed_data.sh), every option and command the programs' --help
# lists documented in their man page, one version everywhere, and the
# installed rudpscope-cli analysing the installed sample with the installed
# dissectors (RUDPSCOPE_DISSECTORS unset) exactly as the build tree's does.
#   tests/packaging/install_check.sh BUILD_DIR SOURCE_DIR VERSION
set -uo pipefail
build="$1" src="$2" version="$3"
here="$(cd "$(dirname "$0")" && pwd)"
dest="$(mktemp -d)"
trap 'rm -rf "$dest"' EXIT
unset RUDPSCOPE_DISSECTORS
export QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR="$dest/run"
mkdir -m 700 "$dest/run"
failures=0
fail() { printf 'FAIL: %s\n' "$*" >&2; failures=$((failures + 1)); }

for tool in desktop-file-validate:desktop-file-utils appstreamcli:appstream update-mime-database:shared-mime-info \
            groff:groff-base man:man-db; do
  command -v "${tool%%:*}" > /dev/null || { echo "FAIL: needs ${tool%%:*} (apt-get install ${tool#*:})" >&2; exit 1; }
done
DESTDIR="$dest" cmake --install "$build" --prefix /usr > "$dest/install.log" 2>&1 ||
  { cat "$dest/install.log" >&2; exit 1; }
usr="$dest/usr"

check_file_list() {
  local got
  got="$(cd "$dest" && find usr -type f -o -type l | sed 's|^|/|' | LC_ALL=C sort)"
  diff <("$here/installed_files.sh" "$src" /usr) <(echo "$got") > "$dest/files.diff" ||
    fail "installed files differ from installed_files.sh (< expected, > installed):"$'\n'"$(cat "$dest/files.diff")"
}

# The options and subcommands one --help screen lists (CLI11's and Qt's
# formats): "-h,--help", "-h, --help", "-X FILE", "--page <NAME>" give
# -h --help -X --page.
help_words() {
  "$@" --help 2>/dev/null |
    awk '/^(Options|Subcommands):$/ {s = $1} /^$/ {s = ""}
         s == "Subcommands:" && /^  [a-z]/ {print $1}
         s == "Options:" && /^  -/ {
           for (i = 1; i <= NF && $i ~ /^-/; i++) {n = split($i, a, ","); for (j = 1; j <= n; j++) if (a[j] != "") print a[j]}
         }'
}

# Each word a --help screen shows must appear in the man page's source
# (roff's \- read as -), and subcommands' screens are read in turn.
check_documented() {
  local man="$1" word roff; shift
  roff="$(gzip -d -c "$man" | sed 's/\\-/-/g')"
  for word in $(help_words "$@"); do
    case "$word" in
      -*) grep -q -E -- "(^|[^-A-Za-z])$word([^-A-Za-z]|\$)" <<< "$roff" ||
            fail "$(basename "$man") does not document $word of '$*'" ;;
      *) grep -q -w -- "$word" <<< "$roff" || fail "$(basename "$man") does not document '$* $word'"
         check_documented "$man" "$@" "$word" ;;
    esac
  done
}

check_versions() {
  [[ "$("$usr/bin/rudpscope-cli" --version)" == "rudpscope-cli $version" ]] ||
    fail "rudpscope-cli --version is not 'rudpscope-cli $version'"
  [[ "$("$usr/bin/rudpscope" --version 2>/dev/null)" == "rudpscope $version" ]] ||
    fail "rudpscope --version is not 'rudpscope $version'"
  grep -q "<release version=\"$version\"" "$usr/share/metainfo/org.rudpscope.rudpscope.metainfo.xml" ||
    fail "the AppStream metadata has no release $version"
  local page
  for page in rudpscope rudpscope-cli; do
    # Read the whole page before matching: grep -q stops early, and under
    # pipefail gzip's SIGPIPE on a long page would fail a correct page.
    grep -q "^\.TH .* \"rudpscope $version\"" <<<"$(gzip -d -c "$usr/share/man/man1/$page.1.gz")" ||
      fail "$page.1 is not of rudpscope $version"
  done
}

# The installed dissectors are the ones loaded: a copy that raises an error
# (which the source tree's copy does not) must make the installed CLI fail.
check_installed_dissectors_load() {
  local lua="$usr/share/rudpscope/dissectors/grudp.lua" out
  cp "$lua" "$dest/grudp.lua.orig"
  echo 'error("installed copy loaded")' >> "$lua"
  out="$("$usr/bin/rudpscope-cli" analyze "$usr/share/rudpscope/sample.pcap" --db "$dest/poisoned.sqlite" -q 2>&1)" &&
    fail "the installed CLI succeeded with a broken installed grudp.lua"
  grep -q -x -F "rudpscope-cli: grudp.lua:$(($(wc -l < "$lua"))): installed copy loaded" <<< "$out" ||
    fail "the installed CLI did not load the installed grudp.lua; it said: $out"
  cp "$dest/grudp.lua.orig" "$lua"
}

check_installed_summary() {
  "$here/sample_summary.sh" "$build/analysis/cli/rudpscope-cli" "$src/resources/sample.pcap" "$dest/build.sqlite" \
    > "$dest/build.txt" || { fail "the build tree's CLI failed on the sample"; return; }
  "$here/sample_summary.sh" "$usr/bin/rudpscope-cli" "$usr/share/rudpscope/sample.pcap" "$dest/installed.sqlite" \
    > "$dest/installed.txt" || { fail "the installed CLI failed on the installed sample"; return; }
  diff "$dest/build.txt" "$dest/installed.txt" > "$dest/summary.diff" ||
    fail "the installed CLI's summary differs from the build tree's:"$'\n'"$(head -40 "$dest/summary.diff")"
  grep -q -x "capture   CAPTURE (pcap, EN10MB, 5311 packets, 20.079 s)" "$dest/installed.txt" ||
    fail "the installed summary does not start with the sample's capture line"
}

check_file_list
"$here/check_installed_data.sh" "$dest" /usr || failures=$((failures + 1))
check_documented "$usr/share/man/man1/rudpscope-cli.1.gz" "$usr/bin/rudpscope-cli"
check_documented "$usr/share/man/man1/rudpscope.1.gz" "$usr/bin/rudpscope"
check_versions
check_installed_dissectors_load
check_installed_summary
if ((failures)); then echo "install check: $failures failure(s)" >&2; exit 1; fi
echo "PASS: cmake --install layout, desktop data, man pages and the installed CLI"
