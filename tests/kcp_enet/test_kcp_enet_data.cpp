// The analysis of the committed lab captures (tests/kcp_enet/data) against
// the libraries' own counters and the router's nft drop counters, recorded
// by lab.sh when the captures were made. See tests/kcp_enet/README.md.
#include "kcp_enet_checks.h"

using namespace kcpenet;

TEST_CASE("KCP lab capture: analysis equals kcp-go's SNMP counters and the nft drops", "[kcp]") {
  checkKcpRun(dataDir("kcp_loss5"));
  checkKcpSplit(dataDir("kcp_loss5"));
}

TEST_CASE("KCP lab capture with kcp-go FEC: analysis equals kcp-go's SNMP counters", "[kcp]") {
  checkKcpRun(dataDir("kcp_fec_loss5"), {.fec = true});
  checkKcpSplit(dataDir("kcp_fec_loss5"));
}

TEST_CASE("kcptun lab captures (nonce+CRC32, and FEC): analysis equals kcptun's SNMP log", "[kcp]") {
  checkKcpRun(dataDir("kcptun_crc_loss5"), {.fec = false, .session = false});
  checkKcpRun(dataDir("kcptun_crcfec_loss5"), {.fec = true, .session = false});
}

// kcptun's "fast" profile flushes every 30 ms: a fast/early retransmission
// leaves on the next flush, up to 30 ms after the ack that triggered it,
// unless that ack also moved una (then kcp-go flushes at once). kcp.lua's
// contract says so (retx.fast_deferred): a copy is fast when the ack showing
// the gap came before the sender's timer (retx.rto_min_ms) expired.
TEST_CASE("kcptun lab capture: fast vs timeout retransmissions", "[kcp]") {
  checkKcpSplit(dataDir("kcptun_crc_loss5"));
  checkKcpSplit(dataDir("kcptun_crcfec_loss5"));
}

// At 20 % loss kcptun sends new data in most flushes. One ack showing a gap
// makes an early retransmit only in a flush without new data (kcp-go's
// `fastack > 0 && newSegsCount == 0`); beside new data a copy needs two
// (`resend`, kcp.lua's retx.fast_acks) or its timer. Read as fast, this
// run's server-to-client split was 57/19 against kcp-go's 56/20.
TEST_CASE("kcptun lab capture at 20 % loss: an early retransmit never leaves beside new data", "[kcp]") {
  checkKcpSplit(dataDir("kcptun_crc_loss20"));
}

// A `rudpscope-cli lab` cell (kcp, 20 % loss and 50 ms each way, captured
// at the client): an ack shows a seq missing to kcp-go only when the acked
// copy left after the seq's last copy (parse_fastack compares the echoed
// send times); before the analysis did the same it read 13 of kcp-go's
// timeout copies as fast (44 vs 31).
TEST_CASE("KCP lab cell at 20 % loss and a 100 ms round trip: fast vs timeout equal kcp-go's", "[kcp]") {
  const std::string dir = dataDir("kcp_lab_loss20_delay50");
  checkKcpSplitAtSender(dir + "/client.pcapng", "client_to_server", readJson(dir + "/client.json"));
}

// FEC parity shards carry no conv: the flow table puts them on the KCP
// connection of their address pair.
TEST_CASE("KCP with FEC: parity shards belong to their conversation's connection", "[kcp]") {
  checkKcpOneConnection(dataDir("kcp_fec_loss5"));
  checkKcpOneConnection(dataDir("kcptun_crcfec_loss5"));
}

TEST_CASE("ENet lab capture: analysis equals ENet's counters and the nft drops", "[enet]") {
  checkEnetRun(dataDir("enet_loss5"));
}

// Per-channel seq spaces (0xFF included) and the unreliable / unsequenced
// numberings of the contract (see the README).
TEST_CASE("ENet lab capture: retransmissions equal packetsLost, unreliable loss counted", "[enet]") {
  checkEnetRunFull(dataDir("enet_loss5"));
  // Here every dropped unreliable/unsequenced command was followed by a
  // later one of its numbering: lost = the nft-dropped commands exactly.
  const json atServer = connection(analyze(dataDir("enet_loss5") + "/server.pcap"), "enet");
  const json atClient = connection(analyze(dataDir("enet_loss5") + "/client.pcap"), "enet");
  CHECK(u(atServer.at("directions").at("client_to_server"), "lost") == 17);
  CHECK(u(atClient.at("directions").at("server_to_client"), "lost") == 15);
}
