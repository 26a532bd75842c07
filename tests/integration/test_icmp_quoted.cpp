// The datagram an ICMP error quotes goes to the dissectors, as in Wireshark
// (pinfo.in_error_pkt set): a port unreachable about a GRUDP datagram shows
// the ICMP layer's items, the quoted IP and UDP layers under it and the
// Game Reliable UDP layer; -Y grudp selects it and -e grudp.seq prints its
// seq. Each capture is built here around one GRUDP flow; `decode -V` must
// print exactly what tshark 4.0 prints, and `analyze -Y grudp` keeps the
// errors tshark's -Y selects without counting them as the flow's packets.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>

#include "capture_checks.h"
#include "grudp_flow.h"

using namespace rudp;
using namespace rudp::test;
using namespace rudp::testgen;
using namespace rudp::testgen::flow;

namespace {

// An ICMP message with its second word set (MTU, pointer, gateway) and its
// checksum made again; `damage` spoils the checksum.
Bytes withSecondWord(Bytes icmp, uint32_t word, bool damage = false) {
  for (int i = 0; i < 4; ++i) icmp[size_t(4 + i)] = uint8_t(word >> (24 - 8 * i));
  icmp[2] = icmp[3] = 0;
  const uint16_t c = fold(sum16(icmp.data(), icmp.size())) ^ (damage ? 0x1111 : 0);
  icmp[2] = uint8_t(c >> 8);
  icmp[3] = uint8_t(c);
  return icmp;
}

std::vector<std::string> withDissectors(std::vector<std::string> argv) {
  for (const auto& a : tsharkDissectorArgs()) argv.push_back(a);
  return argv;
}

// `decode -V` of the whole capture is tshark's; returns it.
std::string detailsLikeTshark(const std::string& capture) {
  const ProcessResult t = run(withDissectors({TSHARK_EXECUTABLE, "-n", "-r", capture, "-V"})),
                      o = run({RUDPSCOPE_CLI, "decode", capture, "-V"});
  REQUIRE(t.status == 0);
  INFO(o.err);
  REQUIRE(o.status == 0);
  CHECK(o.out == t.out);
  return o.out;
}

std::string frames(const std::string& capture, const std::string& filter, bool tshark) {
  const ProcessResult r = tshark
                              ? run(withDissectors({TSHARK_EXECUTABLE, "-n", "-r", capture, "-Y", filter,
                                                    "-T", "fields", "-e", "frame.number"}))
                              : run({RUDPSCOPE_CLI, "decode", capture, "-Y", filter, "-e", "frame.number"});
  INFO(filter << "\n" << r.err);
  CHECK(r.status == 0);
  return r.out;
}

}  // namespace

TEST_CASE("the GRUDP datagrams ICMP errors quote are dissected as tshark dissects them") {
  TempDir dir("icmp-quoted");
  const Bytes fromClient = grudpPacket(0, false), fromServer = grudpPacket(3, false);
  const std::vector<Bytes> errors = {
      // 7: the client's game exited: port unreachable quoting all of server packet 3.
      inEthernet(ipv4(kClient, kServer, 1, icmp4Error(3, 3, fromServer))),
      // 8: TTL exceeded quoting 8 payload bytes: GRUDP's "shorter than its header" expert.
      inEthernet(ipv4(kRouter, kClient, 1, icmp4Error(11, 0, head(fromClient, 36)))),
      // 9: fragmentation needed, next hop's MTU 1400.
      inEthernet(ipv4(kRouter, kClient, 1, withSecondWord(icmp4Error(3, 4, fromClient), 1400))),
      // 10: the IP and UDP headers only: no dissector is called.
      inEthernet(ipv4(kRouter, kClient, 1, icmp4Error(3, 3, head(fromClient, 28)))),
      // 11: a redirect: tshark reads its quote's IP header and 8 bytes only.
      inEthernet(ipv4(kRouter, kClient, 1, withSecondWord(icmp4Error(5, 1, fromClient), 0xc0000201))),
      // 12: parameter problem, pointer 8; 13: a bad checksum.
      inEthernet(ipv4(kRouter, kClient, 1, withSecondWord(icmp4Error(12, 0, fromClient), 8u << 24))),
      inEthernet(ipv4(kClient, kServer, 1, withSecondWord(icmp4Error(3, 3, fromServer), 0, true))),
      // 14: a datagram to a port no dissector takes: its payload is Data.
      inEthernet(ipv4(
          kClient, kServer, 1,
          icmp4Error(3, 3, ipv4(kClient, kServer, 17, udp(kClient, kServer, 50000, 9999, pattern(12, 7)))))),
      // 15: RFC 4884: 4 words of the datagram and 4 bytes of padding; tshark
      // cuts the quote at the header's 5 words and those 4 (8 GRUDP bytes).
      inEthernet(
          ipv4(kRouter, kClient, 1, withSecondWord(icmp4Error(11, 0, head(fromClient, 40)), 4u << 16)))};
  const std::string capture = writeCapture(
      dir / "icmp-quoted.pcap", 1, false, [](int, const Bytes& ip) { return inEthernet(ip); }, errors);
  INFO(capture);
  const std::string details = detailsLikeTshark(capture);
  // The flow's 6 packets and the 6 errors whose quote holds GRUDP bytes.
  CHECK(occurrences(details, "\nGame Reliable UDP\n") == 12);
  CHECK(occurrences(details, "[Protocols in frame: eth:ethertype:ip:icmp:ip:udp:grudp]") == 6);
  CHECK(occurrences(details, "\n    Length: 4\n    [Length of original datagram: 16]\n") == 1);
  CHECK(occurrences(details, "\n    User Datagram Protocol, Src Port: 7777, Dst Port: 50000\n") == 2);
  CHECK(occurrences(details,
                    "[Expert Info (Error/Malformed): Datagram shorter than the 32-byte GRUDP header]") == 2);
  // Depth 1: the flow's 6 UDP layers' and the 9 ICMP layers'.
  CHECK(occurrences(details, "\n    Checksum: ") == 15);
  CHECK(occurrences(details, "incorrect, should be ") == 1);
  CHECK(occurrences(details, "\nData (12 bytes)\n") == 1);
  CHECK(occurrences(details, "    MTU of next hop: 1400\n") == 1);
  CHECK(occurrences(details, "    Gateway Address: 192.0.2.1\n") == 1);

  const std::vector<std::pair<std::string, std::string>> filters = {
      {"grudp", "1\n2\n3\n4\n5\n6\n7\n8\n9\n12\n13\n15\n"},
      {"icmp && grudp", "7\n8\n9\n12\n13\n15\n"},
      {"icmp && !grudp", "10\n11\n14\n"},
      {"icmp && grudp contains 52:55", "7\n8\n9\n12\n13\n15\n"},  // the magic, in the quoted bytes
      {"icmp && grudp.seq == 2", "7\n13\n"},
      {"grudp.seq == 2", "3\n4\n7\n13\n"},
      {"grudp.type == 0 && icmp.type == 3", "9\n"},  // DATA (0): the client's
      {"data", "14\n"},
      {"data.len == 12 && udp.dstport == 9999", "14\n"},
      // The flag is there when the quote holds the flags' byte whole (not 8's).
      {"grudp.flags.reliable && icmp", "7\n9\n12\n13\n"},
      {"grudp.flags.reliable == 1 && icmp", "9\n12\n"},
      {"udp.stream == 0 && icmp.code == 3 && grudp", "7\n13\n"}};
  for (const auto& [filter, expected] : filters) {
    CHECK(frames(capture, filter, true) == expected);
    CHECK(frames(capture, filter, false) == expected);
  }
  CHECK(compareWithTshark(capture, {"frame.number", "grudp.seq", "grudp.type", "grudp.conn_id", "udp.stream",
                                    "icmp.type", "icmp.code"}) == kPackets + errors.size());

  // analyze -Y: the errors tshark selects, attached to the flow, which still
  // counts its own 6 packets only; with two dissector lanes, so each error's
  // datagram must reach its flow's lane with its own bytes.
  for (const auto& [filter, expected] : std::vector<std::pair<std::string, std::vector<uint64_t>>>{
           {"grudp", {7, 8, 9, 12, 13, 15}}, {"grudp.seq == 2 || (udp && !icmp)", {7, 13}}}) {
    INFO(filter);
    const ProcessResult a = run({RUDPSCOPE_CLI, "analyze", capture, "--db", dir / "y.sqlite", "-Y", filter,
                                 "-j", "2", "--json", "-q"});
    INFO(a.err);
    REQUIRE(a.status == 0);
    const nlohmann::json j = nlohmann::json::parse(a.out);
    REQUIRE(j["connections"].size() == 1);
    CHECK(packetsOf(j["connections"][0]) == kPackets);
    std::vector<uint64_t> attached;
    for (const auto& e : j["connections"][0]["icmp_errors"]) attached.push_back(e["frame"].get<uint64_t>());
    CHECK(attached == expected);
  }
}

TEST_CASE("ICMPv6 errors' quoted GRUDP datagrams are dissected as tshark dissects them") {
  TempDir dir("icmp6-quoted");
  const Bytes fromClient = grudpPacket(2, true), fromServer = grudpPacket(5, true);
  const std::vector<Bytes> errors = {
      inEthernet(ipv6(kClient6, kServer6, 58, {}, icmp6Error(kClient6, kServer6, 1, 4, fromServer))),
      inEthernet(ipv6(kRouter6, kClient6, 58, {}, icmp6Error(kRouter6, kClient6, 2, 0, fromClient))),
      inEthernet(
          ipv6(kRouter6, kClient6, 58, {}, icmp6Error(kRouter6, kClient6, 3, 0, head(fromClient, 48)))),
      inEthernet(ipv6(kRouter6, kClient6, 58, {}, icmp6Error(kRouter6, kClient6, 4, 0, fromClient)))};
  const std::string capture = writeCapture(
      dir / "icmp6-quoted.pcap", 1, true, [](int, const Bytes& ip) { return inEthernet(ip); }, errors);
  INFO(capture);
  const std::string details = detailsLikeTshark(capture);
  CHECK(occurrences(details, "\nGame Reliable UDP\n") == kPackets + 3);
  CHECK(occurrences(details, "[Protocols in frame: eth:ethertype:ipv6:icmpv6:ipv6:udp:grudp]") == 3);
  CHECK(occurrences(details, "\n    [Checksum Status: Good]\n") == 4);
  CHECK(occurrences(details, "    MTU: 1280\n") == 1);
  CHECK(frames(capture, "icmpv6 && grudp", true) == "7\n8\n10\n");
  CHECK(frames(capture, "icmpv6 && grudp", false) == "7\n8\n10\n");
}

TEST_CASE("a dissector sees pinfo.in_error_pkt, the quoted addresses and ports, as in tshark") {
  TempDir dir("icmp-pinfo");
  const std::string script = dir / "in_error.lua";
  std::ofstream(script) << R"(local p = Proto("inerr", "In error test")
local f_err = ProtoField.bool("inerr.in_error", "In error")
local f_src = ProtoField.uint16("inerr.src_port", "Source port")
local f_len = ProtoField.uint32("inerr.len", "Bytes")
p.fields = {f_err, f_src, f_len}
function p.dissector(tvb, pinfo, tree)
  local t = tree:add(p, tvb())
  t:add(f_err, pinfo.in_error_pkt)
  t:add(f_src, pinfo.src_port)
  t:add(f_len, tvb:reported_length_remaining())
  t:append_text(" from " .. tostring(pinfo.src))
  return tvb:len()
end
DissectorTable.get("udp.port"):add(7777, p)
)";
  const std::vector<Bytes> errors = {
      inEthernet(ipv4(kClient, kServer, 1, icmp4Error(3, 3, grudpPacket(3, false)))),
      inEthernet(ipv4(kRouter, kClient, 1, icmp4Error(11, 0, head(grudpPacket(0, false), 40))))};
  const std::string capture = writeCapture(
      dir / "pinfo.pcap", 1, false, [](int, const Bytes& ip) { return inEthernet(ip); }, errors);
  const std::vector<std::string> fields = {"-e", "frame.number",   "-e", "inerr.in_error",
                                           "-e", "inerr.src_port", "-e", "inerr.len"};
  std::vector<std::string> ours = {RUDPSCOPE_CLI,         "decode", capture, "--no-default-dissectors", "-X",
                                   "lua_script:" + script};
  std::vector<std::string> theirs = {TSHARK_EXECUTABLE,      "-n", "-r",    capture, "-X",
                                     "lua_script:" + script, "-T", "fields"};
  ours.insert(ours.end(), fields.begin(), fields.end());
  theirs.insert(theirs.end(), fields.begin(), fields.end());
  const ProcessResult o = run(ours), t = run(theirs);
  INFO(o.err);
  REQUIRE(o.status == 0);
  CHECK(o.out == t.out);
  const std::vector<std::string> lines = splitLines(o.out);
  REQUIRE(lines.size() == size_t(kPackets) + 2);
  CHECK(lines[6] == "7\t1\t7777\t32");  // the server's ack, all of its 32-byte GRUDP header
  CHECK(lines[7] == "8\t1\t50000\t12");
  CHECK(lines[0] == "1\t0\t50000\t" + std::to_string(grudpPacket(0, false).size() - 28));
  // The details name the quoted datagram's source, as tshark's.
  std::vector<std::string> v = {
      RUDPSCOPE_CLI, "decode", capture, "--no-default-dissectors", "-X", "lua_script:" + script,
      "-V",          "-Y",     "icmp"};
  const ProcessResult ov = run(v), tv = run({TSHARK_EXECUTABLE, "-n", "-r", capture, "-X",
                                             "lua_script:" + script, "-V", "-Y", "icmp"});
  CHECK(ov.out == tv.out);
  CHECK(occurrences(ov.out, "\nIn error test from 10.0.0.2\n") == 1);
}
