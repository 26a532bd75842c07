#include "store/schema.h"

#include <string>

#include "analyzers/events.h"
#include "core/error.h"

namespace rudp::store {

namespace {
const char* kDdl = R"sql(
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE capture(
  id INTEGER PRIMARY KEY CHECK (id = 1),
  path TEXT NOT NULL, size INTEGER NOT NULL, hash TEXT NOT NULL, hash_algorithm TEXT NOT NULL,
  format TEXT NOT NULL, link_type INTEGER NOT NULL, link_type_name TEXT NOT NULL,
  first_ts_ns INTEGER, last_ts_ns INTEGER, packet_count INTEGER NOT NULL,
  truncated INTEGER NOT NULL, warning TEXT NOT NULL,
  decode_errors INTEGER NOT NULL, malformed INTEGER NOT NULL, lua_errors INTEGER NOT NULL);
-- One row when the capture was made live, none for a file.
CREATE TABLE live_capture(
  id INTEGER PRIMARY KEY CHECK (id = 1), interface TEXT NOT NULL, filter TEXT NOT NULL,
  snaplen INTEGER NOT NULL, promiscuous INTEGER NOT NULL,
  kernel_drops INTEGER NOT NULL, interface_drops INTEGER NOT NULL);
CREATE TABLE protocols(
  id INTEGER PRIMARY KEY, name TEXT NOT NULL, description TEXT NOT NULL, script TEXT NOT NULL,
  has_contract INTEGER NOT NULL);
CREATE TABLE connections(
  id INTEGER PRIMARY KEY, protocol TEXT NOT NULL,
  client_ip TEXT NOT NULL, client_port INTEGER NOT NULL,
  server_ip TEXT NOT NULL, server_port INTEGER NOT NULL,
  roles_from_handshake INTEGER NOT NULL, conn_id INTEGER,
  first_ts_ns INTEGER NOT NULL, last_ts_ns INTEGER NOT NULL, rebindings INTEGER NOT NULL,
  c2s_packets INTEGER NOT NULL, c2s_bytes INTEGER NOT NULL, c2s_payload_bytes INTEGER NOT NULL,
  c2s_segments INTEGER NOT NULL, c2s_malformed INTEGER NOT NULL, c2s_foreign INTEGER NOT NULL,
  c2s_icmp_errors INTEGER NOT NULL,
  s2c_packets INTEGER NOT NULL, s2c_bytes INTEGER NOT NULL, s2c_payload_bytes INTEGER NOT NULL,
  s2c_segments INTEGER NOT NULL, s2c_malformed INTEGER NOT NULL, s2c_foreign INTEGER NOT NULL,
  s2c_icmp_errors INTEGER NOT NULL, roles_reason TEXT NOT NULL);
-- One row per frame; the first segment's semantic fields inline, NULL where absent.
-- dir: 0 client->server, 1 server->client. role: SegmentRole; reliability: Reliability.
CREATE TABLE packets(
  frame INTEGER PRIMARY KEY, ts_ns INTEGER NOT NULL, conn INTEGER, dir INTEGER,
  file_offset INTEGER NOT NULL, caplen INTEGER NOT NULL, origlen INTEGER NOT NULL,
  status INTEGER NOT NULL, segments INTEGER NOT NULL,
  kind INTEGER, role INTEGER, reliability INTEGER, seq INTEGER, ack INTEGER, ack_bits INTEGER,
  una INTEGER, ts INTEGER, ts_echo INTEGER, flags INTEGER, channel INTEGER, length INTEGER,
  window INTEGER);
-- Segments after the first of a datagram (KCP and ENet pack several).
CREATE TABLE extra_segments(
  frame INTEGER NOT NULL, idx INTEGER NOT NULL,
  kind INTEGER, role INTEGER, reliability INTEGER, seq INTEGER, ack INTEGER, ack_bits INTEGER,
  una INTEGER, ts INTEGER, ts_echo INTEGER, channel INTEGER, length INTEGER, window INTEGER,
  PRIMARY KEY (frame, idx)) WITHOUT ROWID;
CREATE TABLE packet_errors(frame INTEGER NOT NULL, message TEXT NOT NULL);
-- Wireshark's TCP analysis notes of a TCP frame that has any (flow/tcp_notes.h):
-- flags are TcpNotes::Flag bits; a duplicate ack's number and the frame it repeats.
CREATE TABLE tcp_notes(frame INTEGER PRIMARY KEY, flags INTEGER NOT NULL, dup_ack_num INTEGER NOT NULL,
  dup_ack_frame INTEGER NOT NULL);
-- Where Wireshark's relative sequence numbers of a TCP connection's direction
-- start from `frame` on (flow/tcp_notes.h, TcpSeqBases): a row per change.
CREATE TABLE tcp_seq_bases(conn INTEGER NOT NULL, dir INTEGER NOT NULL, frame INTEGER NOT NULL,
  base INTEGER NOT NULL, PRIMARY KEY (conn, dir, frame)) WITHOUT ROWID;
-- ICMP and ICMPv6 echo replies and the requests they answer (flow/icmp_echoes.h).
CREATE TABLE icmp_echo_replies(frame INTEGER PRIMARY KEY, request INTEGER NOT NULL,
  request_ts_ns INTEGER NOT NULL);
-- ICMP and ICMPv6 errors quoting a connection's datagram; dir: the quoted
-- datagram's direction, reporter: who sent the error.
CREATE TABLE icmp_errors(conn INTEGER NOT NULL, dir INTEGER NOT NULL, frame INTEGER NOT NULL,
  ts_ns INTEGER NOT NULL, family INTEGER NOT NULL, type INTEGER NOT NULL, code INTEGER NOT NULL,
  reporter TEXT NOT NULL, description TEXT NOT NULL);

-- Connection analysis (analysis/analyzers). dir: the direction whose data the row is about.
CREATE TABLE connection_analysis(
  conn INTEGER PRIMARY KEY, vantage TEXT NOT NULL, handshake_ms REAL,
  connect_attempts INTEGER NOT NULL, disconnected INTEGER NOT NULL,
  timing_only INTEGER NOT NULL);  -- 1: no dissector, timing alone (analyzers/timing_analyzer.h)
CREATE TABLE direction_metrics(
  conn INTEGER NOT NULL, dir INTEGER NOT NULL,
  data_packets INTEGER NOT NULL, retransmissions INTEGER NOT NULL,
  retransmissions_timeout INTEGER NOT NULL, retransmissions_fast INTEGER NOT NULL,
  retransmissions_spurious INTEGER NOT NULL, retransmissions_inferred INTEGER NOT NULL,
  lost INTEGER NOT NULL, loss_unknown INTEGER NOT NULL, mean_loss_burst REAL NOT NULL,
  reordered INTEGER NOT NULL, duplicates INTEGER NOT NULL, network_duplicates INTEGER NOT NULL,
  rtt_samples INTEGER NOT NULL, rtt_min REAL, rtt_p50 REAL, rtt_p95 REAL, rtt_p99 REAL,
  rtt_max REAL, rtt_mean REAL, rtt_above_1 REAL, rtt_above_2 REAL, rtt_above_3 REAL,
  srtt REAL, rto REAL, rtt_span TEXT NOT NULL, rtt_exact INTEGER NOT NULL,
  jitter_ms REAL, gap_samples INTEGER NOT NULL, gap_p50 REAL, gap_p95 REAL,
  gap_p99 REAL, gap_max REAL, tick_hz REAL NOT NULL,
  hol_blocking_ms REAL NOT NULL, hol_max_ms REAL NOT NULL, hol_blocked_packets INTEGER NOT NULL,
  hol_observable INTEGER NOT NULL, min_window INTEGER,
  response_samples INTEGER NOT NULL, response_min REAL, response_p50 REAL, response_p95 REAL,
  response_p99 REAL, response_max REAL, response_mean REAL, response_above_1 REAL,
  response_above_2 REAL, response_above_3 REAL, response_exact INTEGER NOT NULL,
  -- fields inferred from the payloads of a flow no dissector claims, NULL: none found
  seq_offset INTEGER, seq_size INTEGER, seq_le INTEGER, seq_fit REAL,
  ts_offset INTEGER, ts_size INTEGER, ts_le INTEGER, ts_fit REAL, ts_unit_hz REAL,
  ack_offset INTEGER, ack_size INTEGER, ack_le INTEGER, ack_fit REAL, ack_next INTEGER,
  PRIMARY KEY (conn, dir)) WITHOUT ROWID;
CREATE TABLE loss_bursts(conn INTEGER NOT NULL, dir INTEGER NOT NULL, length INTEGER NOT NULL,
  count INTEGER NOT NULL, PRIMARY KEY (conn, dir, length)) WITHOUT ROWID;
-- A ticking flow no dissector claims: its rate drops and bursts (rate_watch.h).
CREATE TABLE rate_changes(conn INTEGER NOT NULL, dir INTEGER NOT NULL, kind TEXT NOT NULL,
  start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL, first_frame INTEGER NOT NULL,
  last_frame INTEGER NOT NULL, gaps INTEGER NOT NULL, rate_hz REAL NOT NULL, usual_hz REAL NOT NULL,
  open INTEGER NOT NULL);
-- The biggest event table (about one row per ack): source and span are
-- codes, named by the two small tables below.
CREATE TABLE rtt_samples(conn INTEGER NOT NULL, dir INTEGER NOT NULL, frame INTEGER NOT NULL,
  data_frame INTEGER, ts_ns INTEGER NOT NULL, rtt_ms REAL NOT NULL, source INTEGER NOT NULL,
  span INTEGER NOT NULL, srtt_ms REAL NOT NULL, rto_ms REAL NOT NULL);
CREATE TABLE rtt_source(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE rtt_span(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE retransmissions(conn INTEGER NOT NULL, dir INTEGER NOT NULL, frame INTEGER NOT NULL,
  ts_ns INTEGER NOT NULL, seq INTEGER NOT NULL, original_frame INTEGER, previous_frame INTEGER,
  attempt INTEGER NOT NULL, since_previous_ms REAL, cause TEXT NOT NULL);
CREATE TABLE losses(conn INTEGER NOT NULL, dir INTEGER NOT NULL, frame INTEGER NOT NULL,
  ts_ns INTEGER NOT NULL, first_seq INTEGER NOT NULL, count INTEGER NOT NULL, first_frame INTEGER);
CREATE TABLE stalls(conn INTEGER NOT NULL, dir INTEGER NOT NULL, start_ns INTEGER NOT NULL,
  end_ns INTEGER NOT NULL, duration_ms REAL NOT NULL, cause TEXT NOT NULL,
  first_frame INTEGER, last_frame INTEGER, retransmissions INTEGER NOT NULL, open INTEGER NOT NULL,
  estimated INTEGER NOT NULL);
-- Packets and wire bytes per 100 ms bucket, per direction.
CREATE TABLE rates(conn INTEGER NOT NULL, dir INTEGER NOT NULL, start_ns INTEGER NOT NULL,
  packets INTEGER NOT NULL, bytes INTEGER NOT NULL);

-- Directories for the per-connection queries, cheaper to write than indexes
-- (analysis/store/chunk_buffers.h). rtt_samples and rates are written in
-- per-(conn, dir) chunks: rowids first_row..last_row, times min_ts_ns..max_ts_ns.
CREATE TABLE rtt_chunks(conn INTEGER NOT NULL, dir INTEGER NOT NULL,
  first_row INTEGER NOT NULL, last_row INTEGER NOT NULL,
  min_ts_ns INTEGER NOT NULL, max_ts_ns INTEGER NOT NULL,
  PRIMARY KEY (conn, dir, first_row)) WITHOUT ROWID;
CREATE TABLE rate_chunks(conn INTEGER NOT NULL, dir INTEGER NOT NULL,
  first_row INTEGER NOT NULL, last_row INTEGER NOT NULL,
  min_ts_ns INTEGER NOT NULL, max_ts_ns INTEGER NOT NULL,
  PRIMARY KEY (conn, dir, first_row)) WITHOUT ROWID;
-- The frames of one connection and direction (a JSON array, ascending) in
-- chunk `chunk`, which starts at that frame; a connection's chunks cover
-- disjoint frame ranges in chunk order, both directions of a chunk sharing it.
-- (A rowid table: its rows of a few kB would overflow a WITHOUT ROWID page.)
CREATE TABLE packet_chunks(conn INTEGER NOT NULL, chunk INTEGER NOT NULL, dir INTEGER NOT NULL,
  last_frame INTEGER NOT NULL, min_ts_ns INTEGER NOT NULL, max_ts_ns INTEGER NOT NULL,
  frames TEXT NOT NULL);
CREATE UNIQUE INDEX packet_chunks_by_conn ON packet_chunks(conn, chunk, dir);
-- Every frame's number, lengths and time, packed (analysis/store/frame_index.h)
-- `frames` frames to a row in frame order: what a display filter over those
-- columns reads instead of the packets table.
CREATE TABLE frame_index(first_frame INTEGER PRIMARY KEY, frames INTEGER NOT NULL,
  data BLOB NOT NULL);
)sql";
}  // namespace

void createSchema(sql::Database& db) {
  db.exec(kDdl);
  sql::Statement src(db, "INSERT INTO rtt_source VALUES (?, ?)");
  for (auto v : {ana::RttSource::TsEcho, ana::RttSource::SeqAck, ana::RttSource::TcpAck,
                 ana::RttSource::TcpTimestamp, ana::RttSource::InferredEcho, ana::RttSource::SpinBit}) {
    src.bind(1, int64_t(v)).bind(2, std::string_view(ana::toString(v)));
    src.run();
  }
  sql::Statement span(db, "INSERT INTO rtt_span VALUES (?, ?)");
  for (auto v : {ana::RttSpan::Unknown, ana::RttSpan::RoundTrip, ana::RttSpan::ReceiverDelay,
                 ana::RttSpan::BeyondCapture}) {
    span.bind(1, int64_t(v)).bind(2, std::string_view(ana::toString(v)));
    span.run();
  }
  db.exec(("PRAGMA user_version = " + std::to_string(kSchemaVersion)).c_str());
  db.exec("INSERT INTO meta(key, value) VALUES ('complete', '0')");
}

void checkReadable(sql::Database& db) {
  int version = 0;
  {
    sql::Statement st(db, "PRAGMA user_version");
    if (st.step()) version = static_cast<int>(st.int64(0));
  }
  if (version == 0) throw StoreError("'" + db.path() + "' is not a rudpscope database");
  if (version != kSchemaVersion)
    throw StoreError("'" + db.path() + "' has schema version " + std::to_string(version) +
                     ", this rudpscope reads version " + std::to_string(kSchemaVersion) +
                     ": analyse the capture again");
  sql::Statement st(db, "SELECT value FROM meta WHERE key = 'complete'");
  if (!st.step() || st.text(0) != "1")
    throw StoreError("'" + db.path() + "' is incomplete (its analysis was interrupted)");
}

}  // namespace rudp::store
