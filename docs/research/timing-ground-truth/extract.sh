#!/bin/sh
# Usage: extract.sh CAPTURE NAME  -> /tmp/gt37/tsv/NAME.udp.tsv and NAME.first.tsv
# One line per UDP datagram (not ICMP-quoted): frame, epoch, src, dst, sport, dport, udp.length, payload hex.
set -e
cap="$1"; name="$2"; out=/tmp/gt37/tsv
# epoch of the capture's first frame (any protocol) = time origin for "relative" times
nice tshark -r "$cap" -c 1 -T fields -e frame.time_epoch > "$out/$name.first.tsv"
nice tshark -r "$cap" -Y 'udp && !icmp && !icmpv6' -T fields -E separator='	' -E occurrence=f \
  -e frame.number -e frame.time_epoch -e ip.src -e ipv6.src -e ip.dst -e ipv6.dst \
  -e udp.srcport -e udp.dstport -e udp.length -e udp.payload > "$out/$name.udp.tsv"
wc -l "$out/$name.udp.tsv"
