// Decoding the committed captures of every link type: each frame's
// addresses, ports, payload, fragments and TCP options, exactly.
#include <catch2/catch.hpp>

#include <cstdlib>

#include "capture_test_util.h"
#include "link_scenario.h"
#include "process.h"

using namespace rudp;
using namespace rudp::test;

namespace {

const char* const kFiles[] = {
    "eth.pcap",   "eth_vlan.pcap",   "eth_qinq.pcap", "sll.pcap",      "sll2.pcap",
    "null.pcap",  "loop.pcap",       "raw.pcap",      "eth_nsec.pcap", "eth_swapped.pcap",
    "eth.pcapng", "eth_nsec.pcapng", "sll2.pcapng",
};

}  // namespace

TEST_CASE("link files: every frame decodes as the scenario says", "[decode]") {
  const auto scenario = testgen::linkScenario();
  for (const char* name : kFiles) {
    INFO(name);
    const auto pkts = decodeFile(linkData(name));
    REQUIRE(pkts.size() == scenario.size());
    for (size_t i = 0; i < pkts.size(); ++i) {
      INFO("frame " << i + 1);
      const DecodedPacket& p = pkts[i].pkt;
      const testgen::ScenarioFrame& e = scenario[i];
      CHECK(p.frame == i + 1);
      CHECK(p.error == "");
      CHECK(p.l3 == (testgen::isIpv6(e.ip) ? L3::IPv6 : L3::IPv4));
      CHECK(p.src.toString() == e.src);
      CHECK(p.dst.toString() == e.dst);
      CHECK(p.ip_proto == e.proto);
      CHECK(p.ip_fragment == e.fragment);
      CHECK(p.ip_reassembled == e.reassembled);
      if (!e.has_l4) {
        CHECK(p.l4 == L4::None);
        CHECK(p.payload_len == 0);
        continue;
      }
      CHECK(p.l4 == (e.proto == 6 ? L4::TCP : L4::UDP));
      CHECK(p.sport == e.sport);
      CHECK(p.dport == e.dport);
      CHECK(p.payload_len == e.payload.size());
      CHECK(p.payload_reported_len == e.payload.size());
      CHECK(pkts[i].payload == e.payload);
    }
  }
}

TEST_CASE("link files: literal values of selected frames", "[decode]") {
  const auto pkts = decodeFile(linkData("eth_qinq.pcap"));
  REQUIRE(pkts.size() == 20);
  // Frame 1: GRUDP CONNECT 10.0.0.1:50000 -> 10.0.0.2:7777, "hello".
  const auto& f1 = pkts[0];
  CHECK(f1.pkt.src.toString() == "10.0.0.1");
  CHECK(f1.pkt.dport == 7777);
  CHECK(f1.pkt.payload_len == 37);
  CHECK(f1.payload == Bytes{'R', 'U', 0x12, 0x01, 0x11, 0x22, 0x33, 0x44, 0,   0,    0x03, 0xe8, 0,
                            0,   0,   0,    0,    0,    0,    0,    0,    0,   0x13, 0x88, 0,    0,
                            0,   0,   0,    5,    0,    64,   'h',  'e',  'l', 'l',  'o'});
  // Frame 5: heuristic port pair.
  CHECK(pkts[4].pkt.sport == 40000);
  CHECK(pkts[4].pkt.dport == 40001);
  // Frame 10 completes the 3008-byte UDP datagram sent in fragments 8-10.
  CHECK(pkts[7].pkt.ip_fragment);
  CHECK(pkts[8].pkt.ip_fragment);
  CHECK(pkts[9].pkt.ip_reassembled);
  CHECK(pkts[9].pkt.payload_len == 3000);
  CHECK(pkts[9].payload == testgen::fragmentedGrudp());
  CHECK(pkts[9].pkt.caplen == 1514 + 8);  // two VLAN tags
  // Frame 11: IPv6 behind hop-by-hop and destination options.
  CHECK(pkts[10].pkt.l3 == L3::IPv6);
  CHECK(pkts[10].pkt.src.toString() == "fd00::1");
  CHECK(pkts[10].pkt.ip_proto == 17);
  CHECK(pkts[10].pkt.sport == 50002);
  CHECK(pkts[10].pkt.payload_len == 34);
  // Frame 19: the malformed 12-byte datagram; Ethernet padding trimmed.
  CHECK(pkts[18].pkt.payload_len == 12);
  CHECK(pkts[18].payload[0] == 'X');
}

TEST_CASE("link files: TCP handshake fields and options", "[decode]") {
  const auto pkts = decodeFile(linkData("sll2.pcap"));
  REQUIRE(pkts.size() == 20);
  const TcpHeader& syn = pkts[12].pkt.tcp;
  CHECK(pkts[12].pkt.l4 == L4::TCP);
  CHECK(syn.seq == 0x10000000);
  CHECK(syn.ack == 0);
  CHECK(syn.flags == 0x02);
  CHECK(syn.window == 64240);
  CHECK(syn.header_len == 40);
  CHECK(syn.options.mss == 1460);
  CHECK(syn.options.window_scale == 7);
  CHECK(syn.options.sack_permitted);
  CHECK(syn.options.has_timestamps);
  CHECK(syn.options.tsval == 100);
  CHECK(syn.options.tsecr == 0);
  CHECK(syn.options.sack_block_count == 0);

  const TcpHeader& synack = pkts[13].pkt.tcp;
  CHECK(synack.flags == 0x12);
  CHECK(synack.ack == 0x10000001);
  CHECK(synack.options.mss == 1400);
  CHECK(synack.options.window_scale == 8);
  CHECK(synack.options.tsval == 200);
  CHECK(synack.options.tsecr == 100);

  const TcpHeader& ack = pkts[14].pkt.tcp;
  CHECK(ack.flags == 0x10);
  CHECK(ack.header_len == 32);
  CHECK(ack.options.mss == 0);
  CHECK(ack.options.window_scale == -1);
  CHECK_FALSE(ack.options.sack_permitted);
  CHECK(ack.options.tsval == 101);

  CHECK(pkts[15].pkt.tcp.flags == 0x18);
  CHECK(pkts[15].pkt.payload_len == 100);
  CHECK(pkts[16].pkt.payload_len == 50);
  CHECK(pkts[16].pkt.tcp.ack == 0x10000065);

  const TcpHeader& sack = pkts[17].pkt.tcp;
  CHECK(sack.header_len == 44);
  CHECK(sack.options.tsval == 103);
  CHECK(sack.options.tsecr == 201);
  REQUIRE(sack.options.sack_block_count == 1);
  CHECK(sack.options.sack_blocks[0].first == 0x20000100);
  CHECK(sack.options.sack_blocks[0].second == 0x20000200);
  CHECK(pkts[17].pkt.payload_len == 0);
}

TEST_CASE("link files: the generator reproduces the committed captures", "[decode]") {
  TempDir tmp("regen");
  const std::string dir = tmp.path.string();
  const ProcessResult made = run({MAKE_LINK_CAPTURES, dir, EDITCAP_EXECUTABLE});
  INFO(made.err);
  REQUIRE(made.status == 0);
  // pcapng files embed the editcap version, so only the pcap files are compared.
  for (const char* name :
       {"eth.pcap", "eth_vlan.pcap", "eth_qinq.pcap", "sll.pcap", "sll2.pcap", "null.pcap", "loop.pcap",
        "raw.pcap", "eth_nsec.pcap", "eth_swapped.pcap", "eth_truncated.pcap"}) {
    INFO(name);
    CHECK(readBytes(dir + "/" + name) == readBytes(linkData(name)));
  }
}
