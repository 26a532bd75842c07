#!/usr/bin/env bash
# Builds quic_workload (quic-go v0.65.0) into OUTPUT. Usage: build_quic_workload.sh OUTPUT
#
# quic-go is not packaged in Debian 12: the modules come from the Go module
# proxy (GOPROXY, default https://proxy.golang.org) into a module cache
# ($GOMODCACHE when set, else /var/cache/rudpscope-lab/gomod, else
# ~/.cache/rudpscope-lab/gomod), verified against the committed go.sum (no
# checksum database needed). Once the cache holds them, no network is used.
# Needs Go >= 1.26 (quic-go v0.65.0's go.mod): `go` on PATH or /usr/local/go/bin/go.
# Exit status: 0 built, 77 (one line "SKIP: ...") no Go >= 1.26 or the
# modules are not cached and the proxy cannot be reached, else failed.
set -euo pipefail
OUTPUT=$1
[[ $OUTPUT == /* ]] || OUTPUT=$PWD/$OUTPUT
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
skip() { echo "SKIP: $*"; exit 77; }

export GOTOOLCHAIN=local  # never download a toolchain
# The first Go >= 1.26 of PATH's and /usr/local/go's (Debian's golang-go is 1.19).
GO="" seen=""
for candidate in "$(command -v go || true)" /usr/local/go/bin/go; do
  [[ -n $candidate && -x $candidate ]] || continue
  ver=$("$candidate" env GOVERSION 2>/dev/null || true)  # go1.26.8
  seen+="${seen:+, }$candidate is ${ver:-of no known version}"
  if [[ $ver =~ ^go([0-9]+)\.([0-9]+) ]] && (( BASH_REMATCH[1] > 1 || BASH_REMATCH[2] >= 26 )); then
    GO=$candidate
    break
  fi
done
[[ -n $GO ]] || skip "quic-go v0.65.0 needs Go >= 1.26 (${seen:-no go on PATH or /usr/local/go/bin/go})"

if [[ -z ${GOMODCACHE:-} ]]; then
  GOMODCACHE=/var/cache/rudpscope-lab/gomod
  mkdir -p "$GOMODCACHE" 2>/dev/null && [[ -w $GOMODCACHE ]] \
    || GOMODCACHE=${XDG_CACHE_HOME:-$HOME/.cache}/rudpscope-lab/gomod
fi
mkdir -p "$GOMODCACHE"
export GOMODCACHE GOPROXY=${GOPROXY:-https://proxy.golang.org} GOFLAGS="-mod=mod -buildvcs=false" CGO_ENABLED=0

# Built in a copy, so go.mod / go.sum in the tree are never rewritten.
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cp "$HERE/quic_workload/go.mod" "$HERE/quic_workload/go.sum" "$HERE/quic_workload/main.go" "$TMP/"
cd "$TMP"
if ! "$GO" mod download >"$TMP/dl.log" 2>&1; then
  cat "$TMP/dl.log" >&2
  if grep -qiE 'checksum mismatch|SECURITY ERROR|missing go.sum entry' "$TMP/dl.log"; then
    echo "build_quic_workload.sh: module verification failed" >&2
    exit 1
  fi
  skip "cannot fetch quic-go v0.65.0 from $GOPROXY into $GOMODCACHE (proxy unreachable?)"
fi
"$GO" build -trimpath -o "$OUTPUT.tmp.$$" .
mv -f "$OUTPUT.tmp.$$" "$OUTPUT"
