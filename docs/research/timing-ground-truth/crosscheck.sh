#!/bin/sh
# Independent cross-check of per-direction gap stats with tshark's frame.time_delta_displayed
# (gap to the previous *displayed* frame = previous packet of the same direction).
F=/work/shared/corpus/real/firefall-1869-gameplay.pcapng.gz
for d in "ip.src==52.16.251.62 && udp.srcport==59238" "ip.src==192.168.1.111 && udp.dstport==59238"; do
  nice tshark -r $F -Y "$d" -T fields -e frame.time_delta_displayed 2>/dev/null | tail -n +2 | sort -g |
  awk -v d="$d" '{a[NR]=$1} END{n=NR; m=(n%2)?a[(n+1)/2]:(a[n/2]+a[n/2+1])/2; print d": gaps="n" median_ms="m*1000" max_ms="a[n]*1000; c=0; for(i=1;i<=n;i++) if(a[i]>0.2) c++; print "   gaps>200ms: "c}'
done
