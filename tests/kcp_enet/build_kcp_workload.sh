#!/usr/bin/env bash
# Builds kcp_workload offline against Debian's golang-github-xtaci-kcp-dev
# sources (/usr/share/gocode/src). Usage: build_kcp_workload.sh OUTPUT
#
# kcp-go declares `module github.com/xtaci/kcp-go/v5` but Debian installs it
# as .../xtaci/kcp-go, and GOPATH mode does not map /vN paths there. So a
# private GOPATH is made of symlinks: each Debian source folder under the
# module path its go.mod declares (kcp-go/v5, cpuid/v2, ...) and under its
# folder name otherwise. Then `GO111MODULE=off go build` (no network).
set -euo pipefail
OUTPUT=$1
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SRC=/usr/share/gocode/src
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
G=$TMP/gopath
mkdir -p "$G/src"
while IFS= read -r gm; do
  m=$(awk '$1 == "module" { print $2; exit }' "$gm")
  [[ -n $m && ! -e $G/src/$m ]] || continue
  mkdir -p "$G/src/$(dirname "$m")"
  ln -s "$(dirname "$gm")" "$G/src/$m"
done < <(find "$SRC" -name go.mod -not -path '*/testdata/*' -not -path '*/vendor/*')
(cd "$SRC" && for d in */*/*; do
  [[ -d $d && ! -e $G/src/$d ]] || continue
  mkdir -p "$G/src/$(dirname "$d")"
  ln -s "$SRC/$d" "$G/src/$d"
done)
mkdir -p "$G/src/kcp_workload"
cp "$HERE/kcp_workload/main.go" "$G/src/kcp_workload/"
cd "$G/src/kcp_workload"
GOTOOLCHAIN=local GO111MODULE=off GOFLAGS= GOPATH=$G GOCACHE=${GOCACHE:-$TMP/cache} \
  go build -o "$OUTPUT.tmp.$$" .
mv -f "$OUTPUT.tmp.$$" "$OUTPUT"
