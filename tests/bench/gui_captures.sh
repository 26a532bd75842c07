# Sourced by bench_gui.sh and bench_packets.sh: the simulated game-server
# captures both measure on (64 connections x (60 + 60) packets/s, 1 % loss in
# bursts of 2), made once in $DIR with $SIM and analysed once with $CLI.
# Needs: ROOT, DIR, SIM, CLI and die().

now_s() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
field() { awk -F': ' -v k="$1" '$1 == k { print $2 }' "$2"; }

# 7,680 packets a simulated second.
duration_of() { case "$1" in 1m) echo 130 ;; 10m) echo 1300 ;; *) die "unknown size $1" ;; esac; }
seed_of() { case "$1" in 1m) echo 11 ;; 10m) echo 12 ;; esac; }

# The schema this tree writes, and the one a database has (none when missing).
schema_version() { sed -n 's/.*kSchemaVersion = \([0-9]*\);.*/\1/p' "$ROOT/analysis/store/schema.h"; }
schema_of() {
  [[ -f "$1" ]] || return 0
  python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("pragma user_version").fetchone()[0])' "$1"
}

# prepare SIZE: $DIR/gui-SIZE-loss.pcap and its database, made when missing.
prepare() {
  local size=$1 pcap="$DIR/gui-$1-loss.pcap" t0
  if [[ ! -f "$pcap" ]]; then
    echo "making $pcap ..." >&2
    "$SIM" --out "$pcap" --connections 64 --tick-hz 60,60 --duration "$(duration_of "$size")" \
      --seed "$(seed_of "$size")" --loss 0.01 --burst 2 >&2
  fi
  if [[ "$(schema_of "$pcap.rudpscope.sqlite")" != "$(schema_version)" ]]; then
    echo "analysing $pcap with rudpscope-cli (once per schema version; minutes for 10m) ..." >&2
    t0="$(now_s)"
    "$CLI" analyze "$pcap" --quiet > /dev/null
    echo "  rudpscope-cli analyze: $(elapsed "$t0" "$(now_s)") s" >&2
  fi
}
