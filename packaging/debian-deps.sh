#!/usr/bin/env bash
# Installs what rudpscope needs on Debian 12 (run as root).
#   packaging/debian-deps.sh          build dependencies
#   packaging/debian-deps.sh --test   plus what the tests use (tshark, nftables, ...), and the
#                                     capture set-up the README gives users: dumpcap may capture
#                                     for the wireshark group, and the tests' capture user
#                                     (rudpscope-test) is in it, with no privileges of its own
set -euo pipefail
pkgs=(build-essential cmake ninja-build pkg-config
      libpcap-dev zlib1g-dev libzstd-dev libluajit-5.1-dev liblua5.4-dev libsqlite3-dev libxxhash-dev
      libpcre2-dev libssl-dev libcli11-dev nlohmann-json3-dev qt6-base-dev qt6-svg-dev libgl-dev fonts-dejavu-core)
if [[ "${1:-}" == "--test" ]]; then
  pkgs+=(catch2 tshark nftables iproute2 tcpdump sqlite3 xvfb clang libclang-rt-14-dev valgrind
        libenet-dev golang-github-xtaci-kcp-dev kcptun time python3 x11-utils debootstrap git
        dpkg-dev file desktop-file-utils appstream man-db shared-mime-info zstd clang-tidy clang-format
        libcap2-bin python3-pip libudt-dev)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [[ "${1:-}" == "--test" ]]; then
  # Answered before wireshark-common installs, so that apt sets dumpcap up.
  echo "wireshark-common wireshark-common/install-setuid boolean true" | debconf-set-selections
fi
if ((${#missing[@]})); then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if [[ "${1:-}" == "--test" ]]; then
  # As a user does it (README, docs/live-capture.md): dumpcap captures for the
  # wireshark group, and the live tests capture as a member of it.
  if ! getcap /usr/bin/dumpcap | grep -q cap_net_raw; then
    DEBIAN_FRONTEND=noninteractive dpkg-reconfigure -f noninteractive wireshark-common
  fi
  id rudpscope-test >/dev/null 2>&1 || useradd --system --user-group --no-create-home --shell /usr/sbin/nologin rudpscope-test
  usermod -aG wireshark rudpscope-test
  # RakNet 4 for the lab's real-library endpoint (tests/kcp_enet/lab.sh --proto
  # raknet): PyPI's `raknet` wheel bundles RakNet's C++ sources (BSD-3-Clause)
  # for Debian 12's Python 3.11. Not a product dependency.
  RAKNET_DIR=/usr/local/lib/rudpscope-lab/python
  if ! PYTHONPATH=$RAKNET_DIR python3 -c 'import raknet' 2>/dev/null; then
    python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
      --target "$RAKNET_DIR" raknet==0.3.0 \
      || echo "debian-deps.sh: cannot install the raknet wheel from PyPI; the RakNet lab will be skipped" >&2
  fi
fi
