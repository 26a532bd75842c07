#include "store/store_reader.h"

#include "core/error.h"
#include "store/schema.h"

namespace rudp {

namespace {
std::string endpoint(const std::string& ip, int64_t port) {
  bool v6 = ip.find(':') != std::string::npos;
  return (v6 ? "[" + ip + "]" : ip) + ":" + std::to_string(port);
}
}  // namespace

StoreReader::StoreReader(const std::string& dbPath)
    : db_(dbPath, sql::Database::Mode::ReadOnly) {
  store::checkReadable(db_);
}

CaptureInfo StoreReader::capture() {
  sql::Statement st(db_,
                    "SELECT path, size, hash, hash_algorithm, format, link_type, link_type_name,"
                    " first_ts_ns, last_ts_ns, packet_count, truncated, warning, decode_errors,"
                    " malformed, lua_errors FROM capture WHERE id = 1");
  if (!st.step()) throw StoreError("'" + db_.path() + "' has no capture row");
  CaptureInfo c;
  c.path = st.text(0);
  c.size = st.int64(1);
  c.hash = st.text(2);
  c.hash_algorithm = st.text(3);
  c.format = st.text(4);
  c.link_type = static_cast<int>(st.int64(5));
  c.link_type_name = st.text(6);
  c.first_ts_ns = st.int64(7);
  c.last_ts_ns = st.int64(8);
  c.packet_count = st.int64(9);
  c.truncated = st.int64(10) != 0;
  c.warning = st.text(11);
  c.decode_errors = st.int64(12);
  c.malformed = st.int64(13);
  c.lua_errors = st.int64(14);
  return c;
}

std::vector<ConnectionSummary> StoreReader::connections() {
  std::vector<ConnectionSummary> out;
  forEachConnection([&](const ConnectionSummary& c) { out.push_back(c); });
  return out;
}

void StoreReader::forEachConnection(const std::function<void(const ConnectionSummary&)>& f) {
  sql::Statement st(db_, "SELECT * FROM connections ORDER BY id");
  while (st.step()) {
    ConnectionSummary c;
    c.id = st.int64(0);
    c.protocol = st.text(1);
    c.client = endpoint(st.text(2), st.int64(3));
    c.server = endpoint(st.text(4), st.int64(5));
    c.roles_from_handshake = st.int64(6) != 0;
    c.has_conn_id = !st.isNull(7);
    c.conn_id = st.int64(7);
    c.first_ts_ns = st.int64(8);
    c.last_ts_ns = st.int64(9);
    c.rebindings = static_cast<uint32_t>(st.int64(10));
    int col = 11;
    for (DirectionStats& s : c.dir) {
      s.packets = st.int64(col++);
      s.bytes = st.int64(col++);
      s.payload_bytes = st.int64(col++);
      s.segments = st.int64(col++);
      s.malformed = st.int64(col++);
    }
    f(c);
  }
}

}  // namespace rudp
