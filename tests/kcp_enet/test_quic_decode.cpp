// QUIC decoded natively (analysis/decode/quic*.h) against Wireshark's quic
// dissector, field for field, on captures of the real quic-go (v0.65.0:
// lab.sh --proto quic), both opened with the endpoints' TLS key log; what is
// left without the key log; the key log's errors.
#include <fstream>
#include <map>
#include <set>

#include "kcp_enet_checks.h"

using namespace kcpenet;

namespace {

// Every quic.* field rudpscope gives (analysis/decode/quic_fields.cpp).
const std::vector<std::string> kFields = {"frame.number",
                                          "quic",
                                          "quic.connection.number",
                                          "quic.packet_length",
                                          "quic.header_form",
                                          "quic.fixed_bit",
                                          "quic.spin_bit",
                                          "quic.long.packet_type",
                                          "quic.version",
                                          "quic.dcil",
                                          "quic.dcid",
                                          "quic.scil",
                                          "quic.scid",
                                          "quic.token_length",
                                          "quic.length",
                                          "quic.packet_number",
                                          "quic.packet_number_length",
                                          "quic.key_phase",
                                          "quic.frame_type",
                                          "quic.padding_length",
                                          "quic.ack.largest_acknowledged",
                                          "quic.ack.ack_delay",
                                          "quic.ack.ack_range_count",
                                          "quic.ack.first_ack_range",
                                          "quic.ack.gap",
                                          "quic.ack.ack_range",
                                          "quic.ack.ect0_count",
                                          "quic.ack.ect1_count",
                                          "quic.ack.ecn_ce_count",
                                          "quic.rsts.stream_id",
                                          "quic.rsts.application_error_code",
                                          "quic.rsts.final_size",
                                          "quic.ss.stream_id",
                                          "quic.crypto.offset",
                                          "quic.crypto.length",
                                          "quic.nt.length",
                                          "quic.stream.fin",
                                          "quic.stream.stream_id",
                                          "quic.stream.offset",
                                          "quic.stream.length",
                                          "quic.md.maximum_data",
                                          "quic.msd.stream_id",
                                          "quic.msd.maximum_stream_data",
                                          "quic.ms.max_streams",
                                          "quic.nci.retire_prior_to",
                                          "quic.nci.sequence",
                                          "quic.nci.connection_id.length",
                                          "quic.nci.connection_id",
                                          "quic.rci.sequence",
                                          "quic.cc.error_code",
                                          "quic.dg.length"};

std::vector<std::string> fieldArgs(std::vector<std::string> argv, const std::vector<std::string>& fields) {
  for (const auto& f : fields) argv.insert(argv.end(), {"-e", f});
  return argv;
}

std::vector<std::string> lines(const std::vector<std::string>& argv) {
  const auto r = run(argv);
  INFO(r.err);
  REQUIRE(r.status == 0);
  return splitLines(r.out);
}

struct Run {
  std::string capture, keylog;
};

std::vector<Run> quicRuns() {
  std::vector<Run> out;
  for (const char* run : {"quic_loss0", "quic_loss5"})
    for (const char* side : {"client", "server"})
      out.push_back({dataDir(run) + "/" + side + ".pcap", dataDir(run) + "/" + side + ".keylog"});
  return out;
}

size_t countValues(const std::vector<std::string>& rows, size_t column, const std::string& value) {
  size_t n = 0;
  for (const auto& row : rows)
    for (const auto& v : split(split(row, '\t').at(column), ',')) n += v == value;
  return n;
}

size_t column(const std::string& field) {
  return size_t(std::find(kFields.begin(), kFields.end(), field) - kFields.begin());
}

// Every field of every frame, ours and tshark's with the same key log;
// returns ours, after checking that every packet opened.
std::vector<std::string> sameFieldsAsTshark(const Run& r) {
  const std::string keys = "tls.keylog_file:" + r.keylog;
  const auto ours = lines(fieldArgs({RUDPSCOPE_CLI, "decode", r.capture, "-o", keys}, kFields));
  const auto theirs =
      lines(fieldArgs({TSHARK_EXECUTABLE, "-r", r.capture, "-o", keys, "-T", "fields"}, kFields));
  REQUIRE(ours.size() == theirs.size());
  for (size_t i = 0; i < ours.size(); ++i) {
    INFO("frame " << i + 1);
    CHECK(ours[i] == theirs[i]);
  }
  size_t packets = 0, numbered = 0;
  for (const auto& row : ours) {
    packets += split(split(row, '\t').at(column("quic.packet_length")), ',').size();
    numbered += split(split(row, '\t').at(column("quic.packet_number")), ',').size();
  }
  CHECK(numbered == packets);
  return ours;
}

}  // namespace

TEST_CASE("quic: with the key log, every quic field of every frame equals tshark's on quic-go's captures") {
  for (const Run& r : quicRuns()) {
    INFO(r.capture);
    // The capture holds what the lab made: STREAM and DATAGRAM frames, a
    // key update (quic-go updates after 100 packets).
    const auto ours = sameFieldsAsTshark(r);
    CHECK(countValues(ours, column("quic.frame_type"), "48") > 100);  // DATAGRAM inputs or state
    CHECK(countValues(ours, column("quic.key_phase"), "1") > 0);
  }
}

TEST_CASE("quic: a second implementation's capture (aioquic) decodes field for field as tshark's") {
  // tests/kcp_enet/aioquic_capture.py: aioquic 1.7.2's client and server
  // through a 40 ms path with 5 % loss; truth.json holds what they sent.
  const std::string dir = dataDir("aioquic_loss5");
  const Run r{dir + "/client.pcap", dir + "/client.keylog"};
  const auto ours = sameFieldsAsTshark(r);
  std::ifstream in(dir + "/truth.json");
  const json truth = json::parse(in);
  // Every input the client sent is one DATAGRAM frame in its capture (taken
  // before the path's loss; aioquic never resends a DATAGRAM frame).
  size_t inputs = 0;
  for (const auto& row : lines({RUDPSCOPE_CLI, "decode", r.capture, "-o", "tls.keylog_file:" + r.keylog, "-e",
                                "ip.src", "-e", "quic.frame_type"})) {
    const auto cols = split(row, '\t');
    if (cols.at(0) != "10.0.0.1" || cols.size() < 2) continue;
    for (const auto& type : split(cols[1], ',')) inputs += type == "48" || type == "49";
  }
  CHECK(inputs == truth.at("client").at("inputs").get<size_t>());
  // aioquic spins the spin bit (quic-go never sets it): both values occur.
  CHECK(countValues(ours, column("quic.spin_bit"), "1") > 0);
  CHECK(countValues(ours, column("quic.spin_bit"), "0") > 0);
  const std::string keys = "tls.keylog_file:" + r.keylog;
  CHECK(lines({RUDPSCOPE_CLI, "decode", r.capture, "-o", keys}) ==
        lines({TSHARK_EXECUTABLE, "-r", r.capture, "-o", keys}));
}

// The frames a game's traffic never holds (tests/kcp_enet/README.md,
// aioquic_frames): flow control and its blocked frames, resets, the four
// kinds of stream, a NAT rebinding with its path validation, a transport
// CONNECTION_CLOSE. Each side's frames, counted by wire type from the
// capture, are what its packet builder wrote (truth.json).
TEST_CASE(
    "quic: aioquic's frames scenario decodes field for field as tshark's, each frame as its sender wrote "
    "it") {
  const std::string dir = dataDir("aioquic_frames");
  const Run r{dir + "/client.pcap", dir + "/client.keylog"};
  sameFieldsAsTshark(r);
  std::ifstream in(dir + "/truth.json");
  const json truth = json::parse(in);
  std::map<std::string, std::map<uint64_t, size_t>> counted;  // side -> frame type -> frames
  std::set<std::string> connections;
  for (const auto& row : lines({RUDPSCOPE_CLI, "decode", r.capture, "-o", "tls.keylog_file:" + r.keylog, "-e",
                                "ip.src", "-e", "quic.frame_type", "-e", "quic.connection.number"})) {
    const auto cols = split(row, '\t');
    REQUIRE(cols.size() == 3);
    const std::string side = cols[0] == "10.0.0.1" ? "client" : "server";
    for (const auto& type : split(cols[1], ','))
      if (!type.empty() && type != "0") ++counted[side][std::stoull(type)];  // PADDING is not counted
    connections.insert(cols[2]);
  }
  for (const std::string side : {"client", "server"}) {
    INFO(side);
    std::map<uint64_t, size_t> wrote;
    for (const auto& [key, n] : truth.at(side).at("frames_sent").items())
      wrote[std::stoull(key.substr(0, key.find(' ')), nullptr, 16)] = n.get<size_t>();
    CHECK(counted[side] == wrote);
  }
  CHECK(counted["server"].count(0x1a) == 1);         // PATH_CHALLENGE after the rebinding ...
  CHECK(counted["client"].count(0x1b) == 1);         // ... and its answer
  CHECK(connections == std::set<std::string>{"0"});  // one connection across the rebinding
  // The analysis too: one connection, every datagram in it, the move counted.
  const json analysis = analyze(r.capture, {"-o", "tls.keylog_file:" + r.keylog});
  REQUIRE(analysis.at("connections").size() == 1);
  const json& c = analysis.at("connections").at(0);
  CHECK(c.at("rebindings") == 1);
  CHECK(c.at("client") == "10.0.0.1:50001");  // where it went
  CHECK(c.at("directions").at("client_to_server").at("packets") == truth.at("client").at("datagrams_sent"));
  CHECK(c.at("directions").at("server_to_client").at("packets") == truth.at("server").at("datagrams_sent"));
}

TEST_CASE("quic: display filters over quic fields pass the frames tshark's pass") {
  const Run r = quicRuns()[3];  // quic_loss5, the server's capture
  const std::string keys = "tls.keylog_file:" + r.keylog;
  for (const char* filter : {"quic.frame_type == 48", "quic.ack.ack_range_count > 0",
                             "quic.stream.offset >= 1000 && quic.header_form == 0", "quic.key_phase == 1",
                             "quic.long.packet_type == 2", "quic.scil == 4"}) {
    INFO(filter);
    const auto ours =
        lines({RUDPSCOPE_CLI, "decode", r.capture, "-o", keys, "-Y", filter, "-e", "frame.number"});
    const auto theirs = lines(
        {TSHARK_EXECUTABLE, "-r", r.capture, "-o", keys, "-Y", filter, "-T", "fields", "-e", "frame.number"});
    CHECK(ours == theirs);
    CHECK_FALSE(ours.empty());
  }
}

TEST_CASE("quic: without the key log Initial packets still open, and later ones keep their header only") {
  const Run r = quicRuns()[0];  // quic_loss0, the client's capture
  const auto rows = lines({RUDPSCOPE_CLI, "decode", r.capture, "-e", "quic.long.packet_type", "-e",
                           "quic.packet_number", "-e", "quic.dcid", "-e", "quic.frame_type"});
  // Frame 1: the client's first Initial, opened with the keys its
  // destination connection id gives (RFC 9001 5.2): its two CRYPTO frames.
  REQUIRE(split(rows.at(0), '\t').at(0) == "0");
  CHECK(split(rows.at(0), '\t').at(1) == "0");
  CHECK(split(rows.at(0), '\t').at(3) == "6,6");
  // A 1-RTT packet: its connection id, but no packet number and no frames.
  const auto last = split(rows.back(), '\t');
  CHECK(last.at(0).empty());
  CHECK(last.at(1).empty());
  CHECK_FALSE(last.at(2).empty());
  CHECK(last.at(3).empty());
}

TEST_CASE("quic: a bad key log is one error naming its file and line, and nothing is printed") {
  const fs::path dir = fs::temp_directory_path() / ("rudp-quic-keylog-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path bad = dir / "bad.keylog";
  std::ofstream(bad) << "CLIENT_TRAFFIC_SECRET_0 " << std::string(64, 'a') << " 00\nCLIENT_RANDOM short 00\n";
  const auto r =
      run({RUDPSCOPE_CLI, "decode", quicRuns()[0].capture, "-o", "tls.keylog_file:" + bad.string()});
  CHECK(r.status != 0);
  CHECK(r.out.empty());
  CHECK(r.err ==
        "rudpscope-cli: key log " + bad.string() + " line 2: the client random is not 64 hex digits\n");
  const auto missing =
      run({RUDPSCOPE_CLI, "decode", quicRuns()[0].capture, "-o", "tls.keylog_file:/nonexistent/k"});
  CHECK(missing.status != 0);
  CHECK(missing.err == "rudpscope-cli: cannot read the key log /nonexistent/k\n");
  fs::remove_all(dir);
}

namespace {
// A summary line without a short header's ", DCID=…" at its end.
std::string withoutShortHeaderDcid(const std::string& line) {
  const size_t at = line.rfind(", DCID=");
  return at != std::string::npos && line.find("Protected Payload", 0) != std::string::npos &&
                 line.find(',', at + 1) == std::string::npos
             ? line.substr(0, at)
             : line;
}
}  // namespace

TEST_CASE("quic: decode's summary lines (Protocol, Info) are tshark's, with the key log and without") {
  for (const Run& r : quicRuns()) {
    INFO(r.capture);
    const std::string keys = "tls.keylog_file:" + r.keylog;
    CHECK(lines({RUDPSCOPE_CLI, "decode", r.capture, "-o", keys}) ==
          lines({TSHARK_EXECUTABLE, "-r", r.capture, "-o", keys}));
    // Without it, two differences, both tshark's connection tracking: the
    // client's Initial sent to a connection id announced in an encrypted
    // frame makes tshark start a second connection, so (1) the 1-RTT
    // packets it cannot place lose their ", DCID=…" (rudpscope places them by
    // the address pair) and (2) in that Initial's datagram (frame 5 in the
    // client's capture, absent from quic_loss5's server capture) tshark
    // takes the 1-RTT packet after the Handshake one for padding and shows
    // the Handshake one; rudpscope shows the last, as with the key log.
    const auto ours = lines({RUDPSCOPE_CLI, "decode", r.capture});
    const auto theirs = lines({TSHARK_EXECUTABLE, "-r", r.capture});
    REQUIRE(ours.size() == theirs.size());
    size_t differ = 0;
    for (size_t i = 0; i < ours.size(); ++i) {
      if (withoutShortHeaderDcid(ours[i]) == withoutShortHeaderDcid(theirs[i])) continue;
      INFO("frame " << i + 1 << "\n ours:   " << ours[i] << "\n tshark: " << theirs[i]);
      CHECK(i + 1 == 5);
      CHECK(ours[i].find("Protected Payload (KP0)") != std::string::npos);
      CHECK(theirs[i].find("QUIC 1322 Handshake, DCID=") != std::string::npos);
      ++differ;
    }
    const bool clientCapture = r.capture.find("client.pcap") != std::string::npos;
    CHECK(differ == (clientCapture || r.capture.find("quic_loss0") != std::string::npos ? 1u : 0u));
  }
}
