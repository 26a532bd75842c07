// Plain structs the store's readers return and the CLI and the GUI share.
// No SQL and no Lua here: include this to read a database.
#pragma once
#include <array>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/events.h"
#include "analyzers/metrics.h"
#include "flow/connection.h"
#include "flow/icmp_echoes.h"
#include "flow/tcp_notes.h"

namespace rudp {

struct CaptureInfo {
  std::string path;
  uint64_t size = 0;
  std::string hash, hash_algorithm;
  std::string format;
  int link_type = 0;
  std::string link_type_name;
  int64_t first_ts_ns = 0, last_ts_ns = 0;
  uint64_t packet_count = 0;
  bool truncated = false;
  std::string warning;
  uint64_t decode_errors = 0, malformed = 0, lua_errors = 0;
};

// A capture made live (rudpscope-cli capture, Capture > Start): how it was
// taken and what the kernel and the interface dropped (pcap_stats at Stop).
struct LiveCaptureRecord {
  std::string interface, filter;
  int snaplen = 0;
  bool promiscuous = false;
  uint64_t kernel_drops = 0, interface_drops = 0;
};

// The settings a database's figures were computed with (its meta table).
struct AnalysisSettings {
  double stall_ms = 0;
  std::vector<double> rtt_limits_ms;  // the share_above limits, in order
  bool analysed = true;               // false: made with --no-analysis
  std::string dissectors;             // dissectorFingerprint() of the run (lua/dissector_files.h)
  std::string display_filter;         // only the frames it passed were analysed; empty: all
};

struct ProtocolRecord {
  std::string name, description, script;
  bool has_contract = false;
};

struct ConnectionSummary {
  int64_t id = 0;
  std::string protocol;
  std::string client, server;  // "ip:port"
  bool roles_from_handshake = false;
  std::string roles_reason;  // how client and server were told apart (RoleEvidence)
  bool has_conn_id = false;
  uint64_t conn_id = 0;
  int64_t first_ts_ns = 0, last_ts_ns = 0;
  uint32_t rebindings = 0;
  DirectionStats dir[2];
};

// An ICMP or ICMPv6 error quoting one of a connection's datagrams: port
// unreachable (the peer went away), TTL exceeded, packet too big, ...
struct IcmpErrorRecord {
  int64_t conn = 0;
  Direction dir = Direction::ClientToServer;  // the quoted datagram's
  uint64_t frame = 0;
  int64_t ts_ns = 0;
  bool v6 = false;
  uint8_t type = 0, code = 0;
  std::string reporter;     // the error's source address
  std::string description;  // "port unreachable", as Wireshark names it
};

// A connection with its analysis: `metrics.dir[d]` holds direction_metrics,
// the loss-burst histogram and the stalls; `has_analysis` is false for a
// connection the analyzers did not see (--no-analysis). Per-direction
// figures that are absent in the database read as in the analyzers: RTT
// fields with rtt.samples == 0, gap fields with gaps.samples == 0,
// min_window == UINT32_MAX, handshake_ms < 0.
struct ConnectionRecord {
  ConnectionSummary summary;
  bool has_analysis = false;
  std::array<bool, 2> has_direction{};  // a direction_metrics row exists
  ana::ConnectionMetrics metrics;
  // A live capture's figures so far (LiveConnection): only what its events
  // tell is known; views show the rest (vantage, loss %, jitter, ...) as
  // unknown until Stop.
  bool in_progress = false;
  std::vector<IcmpErrorRecord> icmp_errors;  // ICMP errors quoting its datagrams, in frame order
};

// A half-open capture-time interval [from_ns, to_ns); the default is all time.
// Application data of one direction: the contract's segment length summed
// over data segments (every copy), and over the retransmitted copies.
struct DataBytes {
  uint64_t all = 0, retransmitted = 0;
};

struct TimeRange {
  int64_t from_ns = std::numeric_limits<int64_t>::min();
  int64_t to_ns = std::numeric_limits<int64_t>::max();
  bool contains(int64_t t) const { return t >= from_ns && t < to_ns; }
};

// One row of the per-packet index: the frame and its first segment's header
// fields (TCP: seq, ack, tsval/tsecr, flags, payload length, window).
struct PacketRecord {
  uint64_t frame = 0;
  int64_t ts_ns = 0;
  int64_t conn = 0;  // 0: no connection
  Direction dir = Direction::ClientToServer;
  uint64_t file_offset = 0;
  uint32_t caplen = 0, origlen = 0;
  int status = 0;  // store::PacketStatus bits
  uint32_t segments = 0;
  std::optional<int64_t> kind, role, reliability, seq, ack, ack_bits, una, ts, ts_echo, flags, channel,
      length, window;
  TcpNotes tcp_notes;                       // Wireshark's analysis notes (TCP frames)
  std::optional<EchoRequest> echo_request;  // an ICMP/ICMPv6 echo reply's request (IcmpEchoes)
};

// Which packets: every member that is set must match.
struct PacketQuery {
  std::optional<int64_t> conn;
  std::optional<Direction> dir;
  uint64_t first_frame = 1, last_frame = std::numeric_limits<uint64_t>::max();  // inclusive
  TimeRange time;
  std::optional<int> status_any;  // at least one of these PacketStatus bits
  size_t limit = std::numeric_limits<size_t>::max();
};

}  // namespace rudp
