// Live: runs lab.sh (real libenet / kcp-go in network namespaces, loss in a
// router namespace) and checks the fresh captures against the libraries'
// counters like the committed ones. Exits 77 (ctest: skipped) when the lab
// cannot run here: not root, no `ip netns`, no libenet-dev, no Go or no
// golang-github-xtaci-kcp-dev.
#include <unistd.h>

#include <iostream>

#include "kcp_enet_checks.h"

using namespace kcpenet;

namespace {
[[noreturn]] void skipAll(const std::string& why) {
  std::cerr << "SKIP: " << why << std::endl;
  std::exit(77);  // ctest SKIP_RETURN_CODE
}

std::string runLab(const std::string& proto, const std::string& loss, int seed,
                   const std::string& fec = "0:0") {
  if (geteuid() != 0) skipAll("not root (needs ip netns, nftables, capture)");
  const std::string out = std::string(KCP_ENET_RUN_DIR) + "/" + proto + "-" + std::to_string(seed) + "-" +
                          fec.substr(0, fec.find(':'));
  std::error_code ec;
  fs::remove_all(out, ec);
  fs::create_directories(out);
  setenv("KCP_ENET_LAB_BIN", KCP_ENET_LAB_BIN, 1);
  auto r = run({KCP_ENET_LAB_SCRIPT, "--proto", proto, "--out", out, "--loss", loss, "--duration", "10",
                "--seed", std::to_string(seed), "--fec", fec});
  if (r.status == 77) skipAll(r.err);
  INFO("lab.sh: " << r.err);
  REQUIRE(r.status == 0);
  return out;
}
}  // namespace

TEST_CASE("live KCP lab: analysis equals kcp-go's SNMP counters and the nft drops", "[live][kcp]") {
  checkKcpRun(runLab("kcp", "5", 11));
}

TEST_CASE("live kcptun lab (nonce+CRC32 and FEC framing): analysis equals kcptun's SNMP log", "[live][kcp]") {
  checkKcpRun(runLab("kcptun", "5", 14, "10:3"), {.fec = true, .session = false});
}

TEST_CASE("live ENet lab: analysis equals ENet's counters and the nft drops", "[live][enet]") {
  checkEnetRun(runLab("enet", "5", 12));
}

TEST_CASE("live ENet lab: retransmissions equal packetsLost, unreliable loss counted", "[live][enet]") {
  checkEnetRunFull(runLab("enet", "5", 13));
}
