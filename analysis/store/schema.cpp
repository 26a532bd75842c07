#include "store/schema.h"

#include <string>

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
  c2s_segments INTEGER NOT NULL, c2s_malformed INTEGER NOT NULL,
  s2c_packets INTEGER NOT NULL, s2c_bytes INTEGER NOT NULL, s2c_payload_bytes INTEGER NOT NULL,
  s2c_segments INTEGER NOT NULL, s2c_malformed INTEGER NOT NULL);
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
)sql";
}  // namespace

void createSchema(sql::Database& db) {
  db.exec(kDdl);
  db.exec(("PRAGMA user_version = " + std::to_string(kSchemaVersion)).c_str());
  db.exec("INSERT INTO meta(key, value) VALUES ('complete', '0')");
}

void checkReadable(sql::Database& db) {
  int version = 0;
  {
    sql::Statement st(db, "PRAGMA user_version");
    if (st.step()) version = static_cast<int>(st.int64(0));
  }
  if (version == 0)
    throw StoreError("'" + db.path() + "' is not a rudpscope database");
  if (version != kSchemaVersion)
    throw StoreError("'" + db.path() + "' has schema version " + std::to_string(version) +
                     ", this rudpscope reads version " + std::to_string(kSchemaVersion) +
                     ": analyse the capture again");
  sql::Statement st(db, "SELECT value FROM meta WHERE key = 'complete'");
  if (!st.step() || st.text(0) != "1")
    throw StoreError("'" + db.path() + "' is incomplete (its analysis was interrupted)");
}

}  // namespace rudp::store
