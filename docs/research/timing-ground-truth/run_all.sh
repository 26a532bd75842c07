#!/bin/sh
# Reproduce everything in /tmp/gt37 (sequential, niced; ~1 min CPU total).
set -e; cd /tmp/gt37; C=/work/shared/corpus
./extract.sh $C/real/firefall-1869-gameplay.pcapng.gz firefall
./extract.sh $C/suites/ntop+nDPI/tests/cfgs/default/pcap/nintendo.pcap nintendo
for n in genshin-impact lol_wild_rift_udp source_engine raknet kcp; do ./extract.sh $C/real/ndpi-$n.pcap $n; done
./extract.sh $C/real/ndpi-roblox.pcapng roblox
nice python3 analyze.py firefall > out_firefall.txt
nice python3 analyze.py nintendo 150 > out_nintendo_min150.txt; cp out/nintendo.json out/nintendo_min150.json
nice python3 analyze.py nintendo > out_nintendo.txt
for n in genshin-impact roblox raknet lol_wild_rift_udp source_engine; do nice python3 analyze.py $n 13 > out_${n}_min13.txt; done
nice python3 seqgroup.py firefall > out_seqgroup_firefall.txt; nice python3 seqgroup.py nintendo > out_seqgroup_nintendo.txt
python3 firefall_hdr.py > out_firefall_hdr.txt
python3 make_tables.py firefall nintendo > tables.md   # also writes silences_<name>.md
python3 clusters.py firefall > out_clusters_firefall.txt
for s in 52.16.251.62 192.168.1.111; do python3 bursts.py firefall $s; done > out_bursts.txt; python3 bursts.py nintendo 185.118.169.65 >> out_bursts.txt
python3 tsquant.py firefall > out_tsquant.txt; python3 tsquant.py nintendo >> out_tsquant.txt
python3 raknet_seq.py roblox raknet > out_raknet_seq.txt
./crosscheck.sh > out_crosscheck.txt
python3 bytefreq.py nintendo 185.118.169.65 > out_bytefreq.txt; python3 bytefreq.py nintendo 192.168.12.114 >> out_bytefreq.txt; python3 bytefreq.py firefall 52.16.251.62 >> out_bytefreq.txt; python3 bytefreq.py firefall 192.168.1.111 >> out_bytefreq.txt
python3 timeline.py firefall 3.3 8.1 > out_timeline_firefall_3-8s.txt; python3 timeline.py firefall 149.6 150.6 > out_timeline_firefall_149-150s.txt
python3 rate.py firefall 10 > out_rate_firefall.txt
python3 verify.py > out_verify.txt
