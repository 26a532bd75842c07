#include "store/row_decoders.h"

namespace rudp::store {

using sql::Statement;

namespace {
std::string endpoint(const std::string& ip, int64_t port) {
  bool v6 = ip.find(':') != std::string::npos;
  return (v6 ? "[" + ip + "]" : ip) + ":" + std::to_string(port);
}
uint64_t u64(const Statement& st, int col) { return static_cast<uint64_t>(st.int64(col)); }
std::optional<int64_t> optInt(const Statement& st, int col) {
  return st.isNull(col) ? std::nullopt : std::optional<int64_t>(st.int64(col));
}
std::optional<double> optReal(const Statement& st, int col) {
  return st.isNull(col) ? std::nullopt : std::optional<double>(st.real(col));
}
// offset, size, little-endian and fit at column c (NULL: none found); c moves past them.
ana::InferredField inferredField(const Statement& s, int& c) {
  ana::InferredField f;
  if (!s.isNull(c)) {
    f.offset = static_cast<uint8_t>(s.int64(c));
    f.size = static_cast<uint8_t>(s.int64(c + 1));
    f.little_endian = s.int64(c + 2) != 0;
    f.fit = s.real(c + 3);
  }
  c += 4;
  return f;
}
}  // namespace

const char* const kConnectionColumns = "SELECT * FROM connections";

ConnectionSummary connectionSummary(const Statement& st) {
  ConnectionSummary c;
  c.id = st.int64(0);
  c.protocol = st.text(1);
  c.client = endpoint(st.text(2), st.int64(3));
  c.server = endpoint(st.text(4), st.int64(5));
  c.roles_from_handshake = st.int64(6) != 0;
  c.has_conn_id = !st.isNull(7);
  c.conn_id = u64(st, 7);
  c.first_ts_ns = st.int64(8);
  c.last_ts_ns = st.int64(9);
  c.rebindings = static_cast<uint32_t>(st.int64(10));
  int col = 11;
  for (DirectionStats& s : c.dir) {
    s.packets = u64(st, col++);
    s.bytes = u64(st, col++);
    s.payload_bytes = u64(st, col++);
    s.segments = u64(st, col++);
    s.malformed = u64(st, col++);
    s.foreign = u64(st, col++);
    s.icmp_errors = u64(st, col++);
  }
  c.roles_reason = st.text(col);
  return c;
}

ConnectionAnalysisReader::ConnectionAnalysisReader(sql::Database& db)
    : conn_(db,
            "SELECT vantage, handshake_ms, connect_attempts, disconnected, timing_only"
            " FROM connection_analysis WHERE conn = ?"),
      dir_(db, "SELECT * FROM direction_metrics WHERE conn = ? AND dir = ?"),
      bursts_(db, "SELECT length, count FROM loss_bursts WHERE conn = ? AND dir = ? ORDER BY length"),
      stalls_(db, "SELECT * FROM stalls WHERE conn = ? AND dir = ? ORDER BY start_ns"),
      changes_(db,
               "SELECT kind, start_ns, end_ns, first_frame, last_frame, gaps, rate_hz, usual_hz, open"
               " FROM rate_changes WHERE conn = ? AND dir = ? ORDER BY start_ns"),
      icmp_(db, kIcmpErrorSelect) {}

const char* const kIcmpErrorSelect =
    "SELECT conn, dir, frame, ts_ns, family, type, code, reporter, description FROM icmp_errors"
    " WHERE ?1 = 0 OR conn = ?1 ORDER BY frame";

IcmpErrorRecord icmpErrorRecord(const sql::Statement& st) {
  IcmpErrorRecord e;
  e.conn = st.int64(0);
  e.dir = st.int64(1) == 0 ? Direction::ClientToServer : Direction::ServerToClient;
  e.frame = static_cast<uint64_t>(st.int64(2));
  e.ts_ns = st.int64(3);
  e.v6 = st.int64(4) == 6;
  e.type = static_cast<uint8_t>(st.int64(5));
  e.code = static_cast<uint8_t>(st.int64(6));
  e.reporter = st.text(7);
  e.description = st.text(8);
  return e;
}

ConnectionRecord ConnectionAnalysisReader::read(const ConnectionSummary& summary) {
  ConnectionRecord r;
  r.summary = summary;
  ana::ConnectionMetrics& m = r.metrics;
  for (int d = 0; d < 2; ++d) {
    m.dir[d].packets = summary.dir[d].packets;
    m.dir[d].bytes = summary.dir[d].bytes;
  }
  conn_.reset();
  conn_.bind(1, summary.id);
  if (conn_.step()) {
    r.has_analysis = true;
    m.vantage = ana::fromString(conn_.text(0), ana::Vantage::Middle, ana::Vantage::Unknown);
    m.handshake_ms = conn_.isNull(1) ? -1 : conn_.real(1);
    m.connect_attempts = static_cast<uint32_t>(conn_.int64(2));
    m.disconnected = conn_.int64(3) != 0;
    m.timing_only = conn_.int64(4) == 1;  // AnalysisWriter's analysisKind
    m.encrypted = conn_.int64(4) == 2;
  }
  for (int d = 0; d < 2; ++d)
    r.has_direction[d] = readDirection(summary.id, static_cast<Direction>(d), m.dir[d]);
  if (summary.dir[0].icmp_errors + summary.dir[1].icmp_errors > 0) {
    icmp_.reset();
    icmp_.bind(1, summary.id);
    while (icmp_.step()) r.icmp_errors.push_back(icmpErrorRecord(icmp_));
  }
  return r;
}

bool ConnectionAnalysisReader::readDirection(int64_t conn, Direction dir, ana::DirectionMetrics& m) {
  Statement& s = dir_;
  s.reset();
  s.bind(1, conn).bind(2, int64_t(dir));
  if (!s.step()) return false;
  // Columns in schema.cpp's order, after conn and dir.
  int c = 2;
  for (uint64_t* v :
       {&m.data_packets, &m.retransmissions, &m.retransmissions_timeout, &m.retransmissions_fast,
        &m.retransmissions_spurious, &m.retransmissions_inferred, &m.lost, &m.loss_unknown})
    *v = u64(s, c++);
  m.mean_loss_burst = s.real(c++);
  for (uint64_t* v : {&m.reordered, &m.duplicates, &m.network_duplicates, &m.rtt.samples}) *v = u64(s, c++);
  ana::RttStats& r = m.rtt;
  for (double* v : {&r.min, &r.p50, &r.p95, &r.p99, &r.max, &r.mean, &r.share_above[0], &r.share_above[1],
                    &r.share_above[2], &r.srtt, &r.rto})
    *v = s.real(c++);  // NULL (no samples) reads as 0, as the analyzers leave it
  r.span = ana::fromString(s.text(c++), ana::RttSpan::BeyondCapture, ana::RttSpan::Unknown);
  r.exact_percentiles = s.int64(c++) != 0;
  m.jitter_ms = optReal(s, c++);
  m.gaps.samples = u64(s, c++);
  for (double* v : {&m.gaps.p50, &m.gaps.p95, &m.gaps.p99, &m.gaps.max}) *v = s.real(c++);
  for (double* v : {&m.gaps.tick_hz, &m.hol_blocking_ms, &m.hol_max_ms}) *v = s.real(c++);
  m.hol_blocked_packets = u64(s, c++);
  m.hol_observable = s.int64(c++) != 0;
  m.min_window = s.isNull(c) ? UINT32_MAX : static_cast<uint32_t>(s.int64(c));
  ++c;
  ana::RttStats& resp = m.response;
  resp.samples = u64(s, c++);
  for (double* v : {&resp.min, &resp.p50, &resp.p95, &resp.p99, &resp.max, &resp.mean, &resp.share_above[0],
                    &resp.share_above[1], &resp.share_above[2]})
    *v = s.real(c++);
  resp.exact_percentiles = s.int64(c++) != 0;
  resp.span = r.span;
  m.seq_field = inferredField(s, c);
  m.ts_field = inferredField(s, c);
  if (m.ts_field.found()) m.ts_field.unit_hz = s.real(c);
  ++c;
  m.ack_field = inferredField(s, c);
  if (m.ack_field.found()) m.ack_field.echo_next = s.int64(c) != 0;

  bursts_.reset();
  bursts_.bind(1, conn).bind(2, int64_t(dir));
  while (bursts_.step()) m.loss_bursts[static_cast<uint32_t>(bursts_.int64(0))] = u64(bursts_, 1);
  stalls_.reset();
  stalls_.bind(1, conn).bind(2, int64_t(dir));
  while (stalls_.step()) m.stalls.push_back(stallEvent(stalls_, dir));
  changes_.reset();
  changes_.bind(1, conn).bind(2, int64_t(dir));
  while (changes_.step()) {
    ana::RateChangeEvent e;
    e.dir = dir;
    e.kind = changes_.text(0) == "drop" ? ana::RateChangeKind::Drop : ana::RateChangeKind::Burst;
    e.start_ns = changes_.int64(1);
    e.end_ns = changes_.int64(2);
    e.first_frame = u64(changes_, 3);
    e.last_frame = u64(changes_, 4);
    e.gaps = u64(changes_, 5);
    e.rate_hz = changes_.real(6);
    e.usual_hz = changes_.real(7);
    e.open = changes_.int64(8) != 0;
    m.rate_changes.push_back(e);
  }
  return true;
}

// Every event table's columns start with conn, dir. rtt_samples and rates
// are read through their chunk directories (schema.cpp): the chunks of the
// connection and direction that overlap the range, each a rowid range; the
// row conditions are the same as without the directory.
const char* const kRttSelect =
    "SELECT r.* FROM rtt_chunks c CROSS JOIN rtt_samples r"
    " WHERE c.conn = ?1 AND c.dir = ?2 AND c.max_ts_ns >= ?3 AND c.min_ts_ns < ?4"
    " AND r.rowid BETWEEN c.first_row AND c.last_row"
    " AND r.conn = ?1 AND r.dir = ?2 AND r.ts_ns >= ?3 AND r.ts_ns < ?4"
    " ORDER BY r.ts_ns, r.frame";
const char* const kRetxSelect =
    "SELECT * FROM retransmissions WHERE conn = ?1 AND dir = ?2 AND ts_ns >= ?3 AND ts_ns < ?4"
    " ORDER BY ts_ns, frame";
const char* const kLossSelect =
    "SELECT * FROM losses WHERE conn = ?1 AND dir = ?2 AND ts_ns >= ?3 AND ts_ns < ?4"
    " ORDER BY ts_ns, frame";
const char* const kStallSelect =
    "SELECT * FROM stalls WHERE conn = ?1 AND dir = ?2 AND end_ns >= ?3 AND start_ns < ?4"
    " ORDER BY start_ns";
const char* const kRateSelect =
    "SELECT r.* FROM rate_chunks c CROSS JOIN rates r"
    " WHERE c.conn = ?1 AND c.dir = ?2 AND c.max_ts_ns >= ?3 AND c.min_ts_ns < ?4"
    " AND r.rowid BETWEEN c.first_row AND c.last_row"
    " AND r.conn = ?1 AND r.dir = ?2 AND r.start_ns >= ?3 AND r.start_ns < ?4"
    " ORDER BY r.start_ns";

ana::RttEvent rttEvent(const Statement& st, Direction dir) {
  ana::RttEvent e;
  e.dir = dir;
  e.frame = u64(st, 2);
  e.data_frame = u64(st, 3);  // NULL: 0, as the analyzers mean it
  e.ts_ns = st.int64(4);
  e.rtt_ms = st.real(5);
  e.source = static_cast<ana::RttSource>(st.int64(6));
  e.span = static_cast<ana::RttSpan>(st.int64(7));
  e.srtt_ms = st.real(8);
  e.rto_ms = st.real(9);
  return e;
}

ana::RetransmissionEvent retransmissionEvent(const Statement& st, Direction dir) {
  ana::RetransmissionEvent e;
  e.dir = dir;
  e.frame = u64(st, 2);
  e.ts_ns = st.int64(3);
  e.seq = static_cast<uint32_t>(st.int64(4));
  e.original_frame = u64(st, 5);
  e.previous_frame = u64(st, 6);
  e.attempt = static_cast<uint32_t>(st.int64(7));
  e.since_previous_ms = st.isNull(8) ? -1 : st.real(8);
  e.cause = ana::fromString(st.text(9), ana::RetxCause::Spurious, ana::RetxCause::Timeout);
  return e;
}

ana::LossEvent lossEvent(const Statement& st, Direction dir) {
  ana::LossEvent e;
  e.dir = dir;
  e.frame = u64(st, 2);
  e.ts_ns = st.int64(3);
  e.first_seq = static_cast<uint32_t>(st.int64(4));
  e.count = static_cast<uint32_t>(st.int64(5));
  e.first_frame = u64(st, 6);
  return e;
}

ana::StallEvent stallEvent(const Statement& st, Direction dir) {
  ana::StallEvent e;
  e.dir = dir;
  e.start_ns = st.int64(2);
  e.end_ns = st.int64(3);
  e.duration_ms = st.real(4);
  e.cause =
      ana::fromString(st.text(5), ana::StallCause::OneSideQuiet, ana::StallCause::RetransmissionTimeout);
  e.first_frame = u64(st, 6);
  e.last_frame = u64(st, 7);
  e.retransmissions = static_cast<uint32_t>(st.int64(8));
  e.open = st.int64(9) != 0;
  e.estimated = st.int64(10) != 0;
  return e;
}

ana::RateEvent rateEvent(const Statement& st, Direction dir) {
  ana::RateEvent e;
  e.dir = dir;
  e.start_ns = st.int64(2);
  e.packets = static_cast<uint32_t>(st.int64(3));
  e.bytes = u64(st, 4);
  return e;
}

// With a connection, the frames come from its packet_chunks rows that
// overlap the frame and time ranges. Its chunks cover disjoint, increasing
// frame ranges, so ordering by chunk, then frame, is frame order, and SQLite
// sorts one chunk at a time (the first rows come without reading them all).
PacketSelect::PacketSelect(const PacketQuery& q, PacketJoins j) : joins(j), q_(q) {
  std::string columns, join;
  if (j.tcp_notes) {
    columns += ", n.flags, n.dup_ack_num, n.dup_ack_frame";
    join += " LEFT JOIN tcp_notes n ON n.frame = p.frame";
  }
  if (j.echo_replies) {
    columns += ", e.request, e.request_ts_ns";
    join += " LEFT JOIN icmp_echo_replies e ON e.frame = p.frame";
  }
  sql = "SELECT p.*" + columns;
  if (q.conn) {
    sql += std::string(" FROM packet_chunks c CROSS JOIN json_each(c.frames) j CROSS JOIN packets p") + join +
           " WHERE c.conn = ?5 AND c.chunk <= ?2 AND c.last_frame >= ?1"
           " AND c.max_ts_ns >= ?3 AND c.min_ts_ns < ?4";
    if (q.dir) sql += " AND c.dir = ?6";
    sql += " AND p.frame = j.value AND ";
  } else {
    sql += " FROM packets p" + join + " WHERE ";
  }
  sql += "p.frame BETWEEN ?1 AND ?2 AND p.ts_ns >= ?3 AND p.ts_ns < ?4";
  if (q.conn) sql += " AND p.conn = ?5";
  if (q.dir) sql += " AND p.dir = ?6";
  if (q.status_any) sql += " AND (p.status & ?7) != 0";
  sql += q.conn ? " ORDER BY c.chunk, p.frame" : " ORDER BY p.frame";
}

void PacketSelect::bind(Statement& st) const {
  const uint64_t maxFrame = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  st.bind(1, static_cast<int64_t>(std::min(q_.first_frame, maxFrame)))
      .bind(2, static_cast<int64_t>(std::min(q_.last_frame, maxFrame)))
      .bind(3, q_.time.from_ns)
      .bind(4, q_.time.to_ns);
  if (q_.conn) st.bind(5, *q_.conn);
  if (q_.dir) st.bind(6, int64_t(*q_.dir));
  if (q_.status_any) st.bind(7, int64_t{*q_.status_any});
}

PacketRecord packetRecord(const Statement& st, PacketJoins joins) {
  PacketRecord p;
  p.frame = u64(st, 0);
  p.ts_ns = st.int64(1);
  p.conn = st.int64(2);  // NULL: 0
  p.dir = static_cast<Direction>(st.int64(3));
  p.file_offset = u64(st, 4);
  p.caplen = static_cast<uint32_t>(st.int64(5));
  p.origlen = static_cast<uint32_t>(st.int64(6));
  p.status = static_cast<int>(st.int64(7));
  p.segments = static_cast<uint32_t>(st.int64(8));
  int c = 9;
  for (std::optional<int64_t>* v : {&p.kind, &p.role, &p.reliability, &p.seq, &p.ack, &p.ack_bits, &p.una,
                                    &p.ts, &p.ts_echo, &p.flags, &p.channel, &p.length, &p.window})
    *v = optInt(st, c++);
  if (joins.tcp_notes) {
    if (const auto notes = optInt(st, c)) {
      p.tcp_notes.flags = static_cast<uint16_t>(*notes);
      p.tcp_notes.dup_ack_num = static_cast<uint32_t>(st.int64(c + 1));
      p.tcp_notes.dup_ack_frame = u64(st, c + 2);
    }
    c += 3;
  }
  if (joins.echo_replies) {
    if (const auto request = optInt(st, c)) p.echo_request = EchoRequest{uint64_t(*request), st.int64(c + 1)};
  }
  return p;
}

}  // namespace rudp::store
