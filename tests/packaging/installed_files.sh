#!/usr/bin/env bash
# The files `cmake --install` (and so the .deb) puts under the prefix, one
# per line, sorted: what install_check.sh and deb_install.sh expect to find,
# no more, no less. The dissectors are whatever dissectors/ holds.
#   tests/packaging/installed_files.sh SOURCE_DIR PREFIX     e.g. . /usr
set -euo pipefail
src="$1" prefix="${2%/}"
id=org.rudpscope.rudpscope
{
  echo "bin/rudpscope"
  echo "bin/rudpscope-cli"
  # rudpscope-cli lab's programs (tests/lab/CMakeLists.txt); the ENet and KCP
  # endpoints only where their libraries were there to build them.
  for f in delay_relay grudp-endpoint lab_cell.sh raknet_workload.py tcp_workload three_ns.sh veth_offload; do
    echo "lib/rudpscope/lab/$f"
  done
  if [[ -f /usr/include/enet/enet.h ]]; then echo "lib/rudpscope/lab/enet_workload"; fi
  if command -v go >/dev/null && [[ -d /usr/share/gocode/src/github.com/xtaci/kcp-go ]]; then echo "lib/rudpscope/lab/kcp_workload"; fi
  echo "share/applications/$id.desktop"
  for size in 16 22 24 32 48 64 128 256 512; do echo "share/icons/hicolor/${size}x${size}/apps/$id.png"; done
  echo "share/icons/hicolor/scalable/apps/$id.svg"
  echo "share/man/man1/rudpscope.1.gz"
  echo "share/man/man1/rudpscope-cli.1.gz"
  echo "share/metainfo/$id.metainfo.xml"
  echo "share/mime/packages/$id.xml"
  for f in "$src"/dissectors/*.lua "$src"/dissectors/README.md; do echo "share/rudpscope/dissectors/$(basename "$f")"; done
  echo "share/rudpscope/sample.pcap"
  echo "share/rudpscope/sample.truth.json"
} | sed "s|^|$prefix/|" | LC_ALL=C sort
