// Wireshark's TCP analysis notes ("[TCP Retransmission] ", "[TCP Dup ACK
// 5#1] ", ...) as the database stores them for the packet list
// (flow/tcp_notes.h), against the notes tshark 4.0 starts each frame's Info
// with, whatever protocol that row shows.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <regex>
#include <sstream>

#include "capture_files.h"
#include "link_scenario.h"
#include "process.h"
#include "store/store_reader.h"
#include "tshark_compare.h"

using namespace rudp;
using namespace rudp::test;
namespace fs = std::filesystem;
namespace tg = rudp::testgen;

namespace {

// The "[TCP ...] " notes Info starts with.
std::string leadingTcpNotes(const std::string& info) {
  static const std::regex notes(R"(^(\[TCP [^\]]*\] )+)");
  std::smatch m;
  return std::regex_search(info, m, notes) ? m.str() : std::string();
}

// Compares every frame's notes with tshark's; returns tshark's notes by kind.
std::map<std::string, size_t> compareNotes(const std::string& capture, const TempDir& dir) {
  INFO("capture " << capture);
  const std::string db = dir / (fs::path(capture).filename().string() + ".sqlite");
  const ProcessResult a = run({RUDPSCOPE_CLI, "analyze", capture, "--db", db});
  INFO(a.err);
  REQUIRE(a.status == 0);
  StoreReader reader(db);
  const ProcessResult r = run({TSHARK_EXECUTABLE, "-n", "-r", capture, "-T", "fields", "-e", "_ws.col.Info"});
  REQUIRE(r.status == 0);
  const std::vector<PacketRecord> rows = reader.packets({});
  const std::vector<std::string> lines = splitLines(r.out);
  REQUIRE(lines.size() == rows.size());
  std::map<std::string, size_t> kinds;
  static const std::regex kind(R"(\[TCP ([A-Za-z -]+?)( \d+#\d+)?\] )");
  for (size_t i = 0; i < rows.size(); ++i) {
    const std::string theirs = leadingTcpNotes(lines[i]);
    INFO("frame " << rows[i].frame << ": tshark " << lines[i]);
    CHECK(tcpNotesPrefix(rows[i].tcp_notes) == theirs);
    for (std::sregex_iterator m(theirs.begin(), theirs.end(), kind), end; m != end; ++m) ++kinds[(*m)[1]];
  }
  return kinds;
}

// The committed netns captures, and those RUDPSCOPE_TCP_NOTES_CAPTURES lists
// (space-separated: third-party captures measured on, never committed).
std::vector<std::string> notesCaptures() {
  std::vector<std::string> caps;
  for (const auto& e : fs::directory_iterator(fs::path(RUDPSCOPE_SOURCE_DIR) / "tests" / "netns" / "data"))
    for (const char* side : {"client.pcap", "server.pcap"}) caps.push_back((e.path() / side).string());
  if (const char* extra = std::getenv("RUDPSCOPE_TCP_NOTES_CAPTURES")) {
    std::istringstream in(extra);
    for (std::string path; in >> path;) caps.push_back(path);
  }
  std::sort(caps.begin(), caps.end());
  return caps;
}

// A TCP conversation (no window scaling) in which each note Wireshark knows
// comes up at least once: frames 1 ms apart unless `gapMs` says otherwise.
struct Step {
  bool toServer;
  uint32_t seq, ack;
  uint8_t flags;
  uint16_t window;
  size_t len;
  int64_t gapMs = 1;
};

std::string writeNotesCapture(const std::string& path) {
  using tg::kAckBit, tg::kSyn, tg::kPsh;
  const uint8_t data = kPsh | kAckBit;
  const std::vector<Step> steps = {
      {true, 1000, 0, kSyn, 1000, 0},  // handshake
      {false, 5000, 1001, kSyn | kAckBit, 100, 0},
      {true, 1001, 5001, kAckBit, 1000, 0},
      {true, 1001, 5001, data, 1000, 100},   // fills the server's 100-byte window
      {false, 5001, 1101, kAckBit, 0, 0},    // zero window
      {true, 1101, 5001, data, 1000, 1},     // zero window probe
      {false, 5001, 1101, kAckBit, 0, 0},    // its ack
      {false, 5001, 1101, kAckBit, 200, 0},  // window update
      {true, 1101, 5001, data, 1000, 50},
      {true, 1151, 5001, data, 1000, 50},
      {true, 1251, 5001, data, 1000, 50},  // 1201-1250 not captured
      {false, 5001, 1201, kAckBit, 200, 0},
      {false, 5001, 1201, kAckBit, 200, 0},  // dup acks
      {false, 5001, 1201, kAckBit, 200, 0},
      {true, 1201, 5001, data, 1000, 50},  // fast retransmission
      {false, 5001, 1301, kAckBit, 200, 0},
      {true, 1201, 5001, data, 1000, 50},    // spurious: acked already
      {true, 1300, 5001, kAckBit, 1000, 0},  // keep-alive
      {false, 5001, 1301, kAckBit, 200, 0},  // its ack
      {true, 1301, 5001, data, 1000, 10},
      {true, 1301, 5001, data, 1000, 10, 500},  // retransmission after a timeout
      {true, 1331, 5001, data, 1000, 10},       // 1311-1330 not captured yet
      {true, 1311, 5001, data, 1000, 20},       // out of order
      {false, 5001, 1400, kAckBit, 200, 0},     // acks bytes never seen
      {true, 9000, 0, kSyn, 1000, 0, 2000},     // the ports again, a new connection
  };
  tg::PcapBuilder pcap(1);
  int64_t us = 1'750'000'000'000'000;
  for (const Step& s : steps) {
    const auto f =
        tg::detail::tcp4Frame(s.toServer, s.seq, s.ack, s.flags, s.window, {}, tg::pattern(s.len, 0x41));
    us += s.gapMs * 1000;
    pcap.packet(us, tg::ethernet(s.toServer ? tg::kServerMac : tg::kClientMac,
                                 s.toServer ? tg::kClientMac : tg::kServerMac, f.ip));
  }
  tg::writeFile(path, pcap.bytes());
  return path;
}

}  // namespace

TEST_CASE("Wireshark's TCP analysis notes of every frame are tshark's") {
  TempDir dir("tcp-notes");
  std::map<std::string, size_t> kinds;
  for (const std::string& capture : notesCaptures())
    for (const auto& [k, n] : compareNotes(capture, dir)) kinds[k] += n;
  for (const auto& [k, n] : kinds) UNSCOPED_INFO("[TCP " << k << "]: " << n);
  // What the committed captures exercise (tshark's counts on them).
  CHECK(kinds["Dup ACK"] >= 200);
  CHECK(kinds["Out-Of-Order"] >= 200);
  CHECK(kinds["Retransmission"] >= 70);
  CHECK(kinds["Previous segment not captured"] >= 60);
  CHECK(kinds["Window Update"] >= 40);
  CHECK(kinds["Fast Retransmission"] >= 10);
  CHECK(kinds["Spurious Retransmission"] >= 2);
}

TEST_CASE("every kind of TCP analysis note agrees with tshark on a conversation built for them") {
  TempDir dir("tcp-notes-built");
  const auto kinds = compareNotes(writeNotesCapture(dir / "notes.pcap"), dir);
  for (const auto& [k, n] : kinds) UNSCOPED_INFO("[TCP " << k << "]: " << n);
  for (const char* k : {"Window Full", "ZeroWindow", "ZeroWindowProbe", "ZeroWindowProbeAck", "Window Update",
                        "Previous segment not captured", "Dup ACK", "Fast Retransmission",
                        "Spurious Retransmission", "Keep-Alive", "Keep-Alive ACK", "Retransmission",
                        "Out-Of-Order", "ACKed unseen segment", "Port numbers reused"}) {
    INFO("[TCP " << k << "]");
    CHECK(kinds.count(k) == 1);
  }
}
