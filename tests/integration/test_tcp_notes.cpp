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
#include <string_view>

#include "capture_files.h"
#include "flow/stream_fields.h"
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

// `snap`: frames cut to that many bytes (0: captured whole).
std::string writeNotesCapture(const std::string& path, size_t snap = 0) {
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
  tg::PcapBuilder pcap(1, snap ? uint32_t(snap) : 262144);
  int64_t us = 1'750'000'000'000'000;
  for (const Step& s : steps) {
    const auto f =
        tg::detail::tcp4Frame(s.toServer, s.seq, s.ack, s.flags, s.window, {}, tg::pattern(s.len, 0x41));
    us += s.gapMs * 1000;
    tg::Bytes frame = tg::ethernet(s.toServer ? tg::kServerMac : tg::kClientMac,
                                   s.toServer ? tg::kClientMac : tg::kServerMac, f.ip);
    const auto wire = uint32_t(frame.size());
    if (snap && frame.size() > snap) frame.resize(snap);
    pcap.packet(us, frame, wire);
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

// Every segment of the built conversation is captured whole, so tshark's
// reassembly code sees each: a retransmission's payload is shown as
// "Retransmitted TCP segment data" and goes to no dissector, and so does a
// spurious one's, without the line; an out-of-order one's goes to none
// either; the others' (a fast retransmission's too) are Data.
TEST_CASE("the TCP layer and Data of whole retransmitted segments are tshark's") {
  TempDir dir("tcp-notes-data");
  const std::string capture = writeNotesCapture(dir / "notes.pcap");
  const ProcessResult t = run({TSHARK_EXECUTABLE, "-n", "-r", capture, "-V", "-O", "tcp,data"});
  const ProcessResult o = run({RUDPSCOPE_CLI, "decode", capture, "-V", "-O", "tcp,data"});
  INFO(t.err << o.err);
  REQUIRE(t.status == 0);
  REQUIRE(o.status == 0);
  CHECK(o.out == t.out);
  size_t lines = 0;
  for (const std::string& line : splitLines(o.out))
    lines += line.starts_with("    Retransmitted TCP segment data (");
  CHECK(lines == 1);  // frame 21's, 10 bytes
  const auto frames = [&](const std::string& program, const std::vector<std::string>& args) {
    std::vector<std::string> argv = {program};
    argv.insert(argv.end(), args.begin(), args.end());
    const ProcessResult r = run(argv);
    REQUIRE(r.status == 0);
    return r.out;
  };
  const std::string dataFrames =
      frames(TSHARK_EXECUTABLE, {"-n", "-r", capture, "-Y", "data", "-T", "fields", "-e", "frame.number"});
  CHECK(frames(RUDPSCOPE_CLI, {"decode", capture, "-Y", "data", "-e", "frame.number"}) == dataFrames);
  CHECK(dataFrames == "4\n6\n9\n10\n11\n15\n20\n22\n");  // not 17 (spurious), 21, 23 (out of order)
}

// The same conversation snapped at 60 bytes (6 of each payload captured): a
// cut segment skips tshark's reassembly code, so no retransmission has the
// line, and a spurious one's payload is Data again.
TEST_CASE("the TCP layer and Data of snapped retransmitted segments are tshark's") {
  TempDir dir("tcp-notes-snapped");
  const std::string capture = writeNotesCapture(dir / "snapped.pcap", 60);
  // tshark's RTPS heuristic takes the cut payloads for its protocol.
  const ProcessResult t =
      run({TSHARK_EXECUTABLE, "-n", "-r", capture, "-V", "-O", "tcp,data", "--disable-protocol", "rtps"});
  const ProcessResult o = run({RUDPSCOPE_CLI, "decode", capture, "-V", "-O", "tcp,data"});
  INFO(t.err << o.err);
  REQUIRE(t.status == 0);
  REQUIRE(o.status == 0);
  CHECK(o.out == t.out);
  CHECK(o.out.find("Retransmitted TCP segment data") == std::string::npos);
  const ProcessResult td = run({TSHARK_EXECUTABLE, "-n", "-r", capture, "-Y", "data", "--disable-protocol",
                                "rtps", "-T", "fields", "-e", "frame.number"});
  const ProcessResult od = run({RUDPSCOPE_CLI, "decode", capture, "-Y", "data", "-e", "frame.number"});
  REQUIRE(td.status == 0);
  REQUIRE(od.status == 0);
  CHECK(od.out == td.out);
  CHECK(td.out == "4\n6\n9\n10\n11\n15\n17\n20\n22\n");  // 17: the spurious retransmission
}

namespace {

// Segments from the client: data, the same cut at its TCP header, and resets
// carrying text (RFC 1122): plain, with bytes past 0x7f and controls, with
// stray bytes after a NUL, and longer than a label holds.
[[gnu::noinline]] std::string writeResetCapture(const std::string& path) {
  const std::string longText(300, 'x');
  struct Step {
    uint8_t flags;
    tg::Bytes payload;
    size_t snap = 0;  // bytes captured; 0: all
  };
  const std::vector<Step> steps = {
      {uint8_t(tg::kPsh | tg::kAckBit), tg::pattern(20, 0x41)},
      {uint8_t(tg::kPsh | tg::kAckBit), tg::pattern(20, 0x41), 54},  // Ethernet, IPv4 and TCP headers only
      {uint8_t(tg::kRst | tg::kAckBit), {'i', 'd', 'l', 'e', '\n'}},
      {tg::kRst, {'c', 'a', 'f', 0xc3, 0xa9, 0x01, '\t', 0x7f, '\\'}},
      {tg::kRst, {'o', 'k', 0, 'x', 'y'}},
      {tg::kRst, tg::Bytes(longText.begin(), longText.end())}};
  tg::PcapBuilder pcap(1, 262144);
  int64_t us = 1'750'000'000'000'000;
  for (const Step& step : steps) {
    const auto f = tg::detail::tcp4Frame(true, 1000, 5000, step.flags, 1000, {}, step.payload);
    tg::Bytes frame = tg::ethernet(tg::kServerMac, tg::kClientMac, f.ip);
    const auto wire = uint32_t(frame.size());
    if (step.snap) frame.resize(step.snap);
    pcap.packet(us += 1000, frame, wire);
  }
  tg::writeFile(path, pcap.bytes());
  return path;
}

}  // namespace

TEST_CASE("a reset's text is tshark's Reset cause, and a segment cut at its header has no payload item") {
  TempDir dir("tcp-reset-cause");
  const std::string capture = writeResetCapture(dir / "reset.pcap");
  const ProcessResult t = run({TSHARK_EXECUTABLE, "-n", "-r", capture, "-V", "-O", "tcp"}),
                      o = run({RUDPSCOPE_CLI, "decode", capture, "-V", "-O", "tcp"});
  INFO(t.err << o.err);
  REQUIRE(t.status == 0);
  REQUIRE(o.status == 0);
  CHECK(o.out == t.out);
  auto count = [&o](const std::string& what) {
    size_t n = 0;
    for (size_t at = o.out.find(what); at != std::string::npos; at = o.out.find(what, at + 1)) ++n;
    return n;
  };
  CHECK(count("\n    TCP payload (20 bytes)\n") == 1);
  CHECK(count("\n    Reset cause") == 4);
  CHECK(count("\n    Reset cause: idle\\n\n") == 1);
  CHECK(count("\n    Reset cause: caf\xEF\xBF\xBD\xEF\xBF\xBD\\001\\t\\177\\\n") == 1);
  CHECK(
      count("\n    Reset cause: ok\n        [Expert Info (Warning/Undecoded): Trailing stray characters]") ==
      1);
  CHECK(count("\n    Reset cause [truncated]: " + std::string(238 - 25, 'x') + "\n") == 1);
}

namespace {

// tshark's -T fields arguments for every tcp.analysis.* field the notes give.
// The tcp.analysis.* flag fields, then the stream and SEQ/ACK analysis ones
// (tcp.stream, tcp.analysis.ack_rtt, bytes_in_flight, ...).
std::vector<std::string_view> analysisFieldNames() {
  std::vector<std::string_view> names = tcpNoteFieldNames();
  for (std::string_view f : streamFieldNames())
    if (f.starts_with("tcp.")) names.push_back(f);
  return names;
}

std::vector<std::string> noteFieldArgs() {
  std::vector<std::string> args = {"-e", "frame.number"};
  for (std::string_view f : analysisFieldNames()) args.insert(args.end(), {"-e", std::string(f)});
  return args;
}

// Filters over the tcp.analysis.* fields, the awkward ones included: the
// default "Bad TCP" coloring rule, a field that occurs twice in a frame
// (duplicate_ack) or that fast and spurious retransmissions carry too
// (retransmission), numbers, negations.
const std::vector<std::string> kNoteFilters = {
    "tcp.analysis.flags",
    "tcp.analysis.flags && !tcp.analysis.window_update && !tcp.analysis.keep_alive && "
    "!tcp.analysis.keep_alive_ack",
    "tcp.analysis.retransmission && !tcp.analysis.fast_retransmission",
    "tcp.analysis.duplicate_ack_num >= 2 || tcp.analysis.spurious_retransmission",
    "tcp && !tcp.analysis.duplicate_ack",
    "tcp.analysis.duplicate_ack_frame in {5..400} and tcp.analysis.duplicate_ack_num == 1",
    "tcp.analysis.lost_segment or tcp.analysis.ack_lost_segment or tcp.analysis.out_of_order",
    "tcp.analysis.window_full || tcp.analysis.zero_window || tcp.analysis.zero_window_probe || "
    "tcp.analysis.zero_window_probe_ack",
    "tcp.analysis.keep_alive || tcp.analysis.keep_alive_ack || tcp.analysis.reused_ports",
    "frame.number > 300 && tcp.analysis.window_update",
    // Relative sequence numbers, Wireshark's default.
    "tcp.seq == 1 || tcp.ack == 1",
    // The stream and SEQ/ACK analysis items.
    "tcp.analysis.ack_rtt > 0.03",
    "tcp.analysis.bytes_in_flight >= 300 && tcp.analysis.push_bytes_sent < 200",
    "tcp.stream == 0 && tcp.analysis.rto && tcp.analysis.rto_frame > 10",
    "tcp.completeness == 31 || tcp.nxtseq == 1",
    "tcp.analysis && !tcp.analysis.acks_frame && tcp.analysis.initial_rtt < 0.001",
    "tcp.time_delta > 0.2 || tcp.time_relative < 0.0001",
    "tcp.seq > 10000 && tcp.seq < 20000 && tcp.ack > 1000",
};

std::vector<std::string> withCapture(std::vector<std::string> argv, const std::vector<std::string>& more) {
  argv.insert(argv.end(), more.begin(), more.end());
  return argv;
}

}  // namespace

TEST_CASE("decode -e prints tshark's tcp.analysis fields and SEQ/ACK analysis of every frame") {
  TempDir dir("tcp-note-fields");
  std::vector<std::string> captures = notesCaptures();
  // Cut after the handshake: bytes in flight count from the first segment seen.
  const std::string cut = dir / "cut.pcap";
  REQUIRE(run({"editcap", "-r", RUDPSCOPE_SOURCE_DIR "/tests/netns/data/loss5-nodelay/client.pcap", cut,
               "20-200"})
              .status == 0);
  captures.push_back(cut);
  captures.push_back(writeNotesCapture(dir / "notes.pcap"));
  for (const std::string& capture : captures) {
    INFO("capture " << capture);
    const ProcessResult t =
        run(withCapture({TSHARK_EXECUTABLE, "-n", "-r", capture, "-T", "fields"}, noteFieldArgs()));
    const ProcessResult o = run(withCapture({RUDPSCOPE_CLI, "decode", capture}, noteFieldArgs()));
    INFO(o.err);
    REQUIRE(t.status == 0);
    REQUIRE(o.status == 0);
    const auto tl = splitLines(t.out), ol = splitLines(o.out);
    REQUIRE(ol.size() == tl.size());
    for (size_t i = 0; i < tl.size(); ++i) {
      INFO("line " << i + 1);
      CHECK(ol[i] == tl[i]);
    }
  }
  // The built conversation gives every one of the fields.
  const ProcessResult t =
      run(withCapture({TSHARK_EXECUTABLE, "-n", "-r", captures.back(), "-T", "fields"}, noteFieldArgs()));
  const std::vector<std::string_view> names = analysisFieldNames();
  std::vector<bool> present(names.size() + 1);
  for (const std::string& line : splitLines(t.out)) {
    std::istringstream cells(line);
    std::string cell;
    for (size_t column = 0; std::getline(cells, cell, '\t') && column < present.size(); ++column)
      if (!cell.empty()) present[column] = true;
  }
  for (size_t i = 0; i < names.size(); ++i) {
    INFO(names[i]);
    CHECK(present[i + 1]);
  }
}

TEST_CASE("decode -Y over tcp.analysis fields selects tshark's frames") {
  TempDir dir("tcp-note-filters");
  std::vector<std::string> captures = notesCaptures();
  captures.push_back(writeNotesCapture(dir / "notes.pcap"));
  std::map<std::string, size_t> selected;
  for (const std::string& capture : captures)
    for (const std::string& filter : kNoteFilters) {
      INFO("capture " << capture << "\nfilter " << filter);
      const ProcessResult t =
          run({TSHARK_EXECUTABLE, "-n", "-r", capture, "-Y", filter, "-T", "fields", "-e", "frame.number"});
      const ProcessResult o = run({RUDPSCOPE_CLI, "decode", capture, "-Y", filter, "-e", "frame.number"});
      INFO(t.err << o.err);
      REQUIRE(t.status == 0);
      REQUIRE(o.status == 0);
      CHECK(o.out == t.out);
      selected[filter] += splitLines(t.out).size();
    }
  // Each filter selects frames somewhere, so none passes by selecting nothing.
  for (const auto& [filter, n] : selected) {
    INFO(filter);
    CHECK(n > 0);
  }
}

// analyze -Y keeps the frames a filter passes, with the notes tshark -Y shows
// on them: worked out from every frame, the ones left out included.
TEST_CASE("analyze -Y stores tshark -Y's notes on the frames it keeps") {
  TempDir dir("tcp-notes-analyze-y");
  const std::string filter = "tcp.len > 0";  // no acks: their dup acks and what they acked unseen
  size_t noted = 0;
  for (const std::string& capture : notesCaptures()) {
    INFO("capture " << capture);
    const std::string db = dir / (fs::path(capture).parent_path().filename().string() + ".sqlite");
    const ProcessResult a = run({RUDPSCOPE_CLI, "analyze", capture, "-Y", filter, "--db", db, "-q"});
    INFO(a.err);
    REQUIRE(a.status == 0);
    const ProcessResult t = run({TSHARK_EXECUTABLE, "-n", "-r", capture, "-Y", filter, "-T", "fields", "-e",
                                 "frame.number", "-e", "_ws.col.Info"});
    REQUIRE(t.status == 0);
    const std::vector<PacketRecord> rows = StoreReader(db).packets({});
    const auto lines = splitLines(t.out);
    REQUIRE(rows.size() == lines.size());
    for (size_t i = 0; i < rows.size(); ++i) {
      INFO("tshark: " << lines[i]);
      CHECK(std::to_string(rows[i].frame) == lines[i].substr(0, lines[i].find('\t')));
      const std::string theirs = leadingTcpNotes(lines[i].substr(lines[i].find('\t') + 1));
      CHECK(tcpNotesPrefix(rows[i].tcp_notes) == theirs);
      noted += !theirs.empty();
    }
  }
  CHECK(noted >= 100);
}
