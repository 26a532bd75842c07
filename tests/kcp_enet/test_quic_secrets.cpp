// A capture that carries its own TLS secrets (a pcapng decryption secrets
// block, as `editcap --inject-secrets tls,KEYLOG` and Wireshark write it)
// opens without a key log, as in tshark; secrets placed after the first
// packet, or not a key log, are said in one line.
#include <cstring>

#include "kcp_enet_checks.h"

using namespace kcpenet;

namespace {

const std::vector<std::string> kFields = {"frame.number",       "quic.long.packet_type",
                                          "quic.packet_number", "quic.key_phase",
                                          "quic.frame_type",    "quic.ack.largest_acknowledged",
                                          "quic.stream.offset", "quic.stream.length",
                                          "quic.crypto.offset", "quic.dg.length"};

std::vector<std::string> fieldLines(std::vector<std::string> argv) {
  for (const auto& f : kFields) argv.insert(argv.end(), {"-e", f});
  const auto r = run(argv);
  INFO(r.err);
  REQUIRE(r.status == 0);
  return splitLines(r.out);
}

std::string readBytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A little-endian pcapng's blocks, each whole (as editcap writes on this machine).
std::vector<std::string> blocks(const std::string& file) {
  std::vector<std::string> out;
  for (size_t at = 0; at + 8 <= file.size();) {
    uint32_t length;
    std::memcpy(&length, file.data() + at + 4, 4);
    REQUIRE(length >= 12);
    out.push_back(file.substr(at, length));
    at += length;
  }
  return out;
}

uint32_t blockType(const std::string& block) {
  uint32_t type;
  std::memcpy(&type, block.data(), 4);
  return type;
}

std::string u32le(uint32_t v) { return std::string(reinterpret_cast<const char*>(&v), 4); }

// A decryption secrets block of `kind` holding `text` (pcapng 4.7).
std::string secretsBlock(const std::string& text, uint32_t kind = 0x544c534b) {
  const uint32_t padded = uint32_t(text.size() + 3) / 4 * 4, length = 20 + padded;
  return u32le(0x0000000A) + u32le(length) + u32le(kind) + u32le(uint32_t(text.size())) + text +
         std::string(padded - text.size(), '\0') + u32le(length);
}

// The capture rebuilt into `file`: its section and interface blocks, `before` in front
// of the first packet, `after` behind it, then the other packets.
fs::path rebuilt(const fs::path& file, const std::string& pcapng, const std::string& before,
                 const std::string& after) {
  std::string out;
  bool first = true;
  for (const auto& b : blocks(pcapng)) {
    if (blockType(b) == 0x0000000A) continue;  // editcap's own
    const bool packet = blockType(b) == 6;
    out += packet && first ? before + b + after : b;
    first = first && !packet;
  }
  std::ofstream(file, std::ios::binary) << out;
  return file;
}

// A lab run's client capture with its key log injected by editcap.
struct Injected {
  explicit Injected(const std::string& run_name)
      : capture(dataDir(run_name) + "/client.pcap"),
        keylog(dataDir(run_name) + "/client.keylog"),
        with_secrets(dir / "client.pcapng") {
    const auto r = run({"editcap", "--inject-secrets", "tls," + keylog, capture, with_secrets});
    INFO(r.err);
    REQUIRE(r.status == 0);
  }
  rudp::test::TempDir dir{"quic-secrets"};
  std::string capture, keylog, with_secrets;
};

}  // namespace

TEST_CASE("quic: a capture carrying its TLS secrets opens without a key log, field for field as tshark") {
  for (const char* run_name : {"quic_loss0", "quic_loss5"}) {
    INFO(run_name);
    const Injected x(run_name);
    const auto ours = fieldLines({RUDPSCOPE_CLI, "decode", x.with_secrets});
    CHECK(ours == fieldLines({TSHARK_EXECUTABLE, "-r", x.with_secrets, "-T", "fields"}));
    // The same as the key log gives the capture without the block.
    CHECK(ours == fieldLines({RUDPSCOPE_CLI, "decode", x.capture, "-o", "tls.keylog_file:" + x.keylog}));
    // Not every packet's frames are there without the secrets.
    CHECK(ours != fieldLines({RUDPSCOPE_CLI, "decode", x.capture}));
  }
}

TEST_CASE("quic: analyze reads the capture's own secrets as it reads the key log") {
  const Injected x("quic_loss5");
  const json embedded = connection(analyze(x.with_secrets), "quic");
  rudp::test::TempDir tmp("quic-secrets-keylog");
  const auto r = run({RUDPSCOPE_CLI, "analyze", x.capture, "-o", "tls.keylog_file:" + x.keylog, "--db",
                      tmp / "a.sqlite", "--json", "-q"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  const json given = connection(json::parse(r.out), "quic");
  CHECK(embedded["analysis"] == "decoded");
  CHECK(given["analysis"] == "decoded");
  CHECK(embedded["directions"] == given["directions"]);
  // quic_loss5's client: 45 packets declared lost, 9 stream resends (test_quic_analysis.cpp).
  CHECK(embedded["directions"]["client_to_server"]["lost"] == 45);
  CHECK(embedded["directions"]["client_to_server"]["retransmissions"] == 9);
}

TEST_CASE("quic: secrets after the first packet are one warning and are not used, as the line says") {
  const Injected x("quic_loss0");
  const fs::path late =
      rebuilt(x.dir.path / "late.pcapng", readBytes(x.with_secrets), "", secretsBlock(readBytes(x.keylog)));
  const auto r = run({RUDPSCOPE_CLI, "analyze", late.string(), "--db", x.dir / "late.sqlite", "--json"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.err.find("'" + late.string() +
                   "': 1 decryption secrets block comes after the first packet and was not used: put the "
                   "secrets first (editcap --inject-secrets tls,FILE)") != std::string::npos);
  const json c = connection(json::parse(r.out), "quic");
  CHECK(c["analysis"] == "encrypted: give the key log to analyse it (-o tls.keylog_file:FILE)");
  // The same bytes first: read.
  const fs::path early =
      rebuilt(x.dir.path / "early.pcapng", readBytes(x.with_secrets), secretsBlock(readBytes(x.keylog)), "");
  CHECK(connection(analyze(early.string()), "quic")["analysis"] == "decoded");
}

TEST_CASE(
    "quic: a secrets block that is not a key log is one error naming the capture; other kinds are skipped") {
  const Injected x("quic_loss0");
  const fs::path bad = rebuilt(x.dir.path / "bad.pcapng", readBytes(x.with_secrets),
                               secretsBlock("CLIENT_RANDOM short 00\n"), "");
  const auto r = run({RUDPSCOPE_CLI, "decode", bad.string()});
  CHECK(r.status != 0);
  CHECK(r.out.empty());
  CHECK(r.err == "rudpscope-cli: " + bad.string() +
                     ": its decryption secrets block, line 1: the client random is not 64 hex digits\n");
  // A WireGuard key log ("WGKL") is not QUIC's: read past, nothing opened by it.
  const fs::path other = rebuilt(x.dir.path / "wireguard.pcapng", readBytes(x.with_secrets),
                                 secretsBlock("LOCAL_STATIC_PRIVATE_KEY = x\n", 0x57474b4c), "");
  const auto rows = fieldLines({RUDPSCOPE_CLI, "decode", other.string()});
  CHECK(rows == fieldLines({RUDPSCOPE_CLI, "decode", x.capture}));
}
