#include "store/store_reader.h"

#include <cstdlib>

#include "core/contract.h"
#include "core/error.h"
#include "store/frame_index.h"
#include "store/row_decoders.h"
#include "store/schema.h"

namespace rudp {

using sql::Statement;

struct StoreReader::Impl {
  sql::Database db;
  store::PacketJoins joins;  // the per-frame tables with rows
  explicit Impl(const std::string& path) : db(path, sql::Database::Mode::ReadOnly) {}
};

StoreReader::StoreReader(const std::string& dbPath) : d(std::make_unique<Impl>(dbPath)) {
  store::checkReadable(d->db);
  auto any = [&](const char* sql) {
    Statement st(d->db, sql);
    return st.step() && st.int64(0) != 0;
  };
  d->joins.tcp_notes = any("SELECT EXISTS (SELECT 1 FROM tcp_notes)");
  d->joins.echo_replies = any("SELECT EXISTS (SELECT 1 FROM icmp_echo_replies)");
}

StoreReader::~StoreReader() = default;

const std::string& StoreReader::path() const { return d->db.path(); }

CaptureInfo StoreReader::capture() {
  Statement st(d->db,
               "SELECT path, size, hash, hash_algorithm, format, link_type, link_type_name,"
               " first_ts_ns, last_ts_ns, packet_count, truncated, warning, decode_errors,"
               " malformed, lua_errors FROM capture WHERE id = 1");
  if (!st.step()) throw StoreError("'" + d->db.path() + "' has no capture row");
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

AnalysisSettings StoreReader::settings() {
  AnalysisSettings s;
  Statement st(
      d->db,
      "SELECT key, value FROM meta WHERE key IN ('stall_ms', 'analysed', 'dissectors', 'display_filter')");
  while (st.step()) {
    const std::string key = st.text(0), value = st.text(1);
    if (key == "stall_ms")
      s.stall_ms = std::strtod(value.c_str(), nullptr);
    else if (key == "analysed")
      s.analysed = value == "1";
    else if (key == "display_filter")
      s.display_filter = value;
    else
      s.dissectors = value;
  }
  // rtt_limit_1, rtt_limit_2, ...: ordered by their number, not as text.
  Statement lim(d->db,
                "SELECT value FROM meta WHERE key LIKE 'rtt_limit_%'"
                " ORDER BY CAST(substr(key, 11) AS INTEGER)");
  while (lim.step()) s.rtt_limits_ms.push_back(std::strtod(lim.text(0).c_str(), nullptr));
  return s;
}

std::optional<LiveCaptureRecord> StoreReader::liveCapture() {
  Statement st(d->db,
               "SELECT interface, filter, snaplen, promiscuous, kernel_drops, interface_drops"
               " FROM live_capture WHERE id = 1");
  if (!st.step()) return std::nullopt;
  return LiveCaptureRecord{st.text(0),
                           st.text(1),
                           static_cast<int>(st.int64(2)),
                           st.int64(3) != 0,
                           uint64_t(st.int64(4)),
                           uint64_t(st.int64(5))};
}

std::vector<ProtocolRecord> StoreReader::protocols() {
  std::vector<ProtocolRecord> out;
  Statement st(d->db, "SELECT name, description, script, has_contract FROM protocols ORDER BY id");
  while (st.step()) out.push_back({st.text(0), st.text(1), st.text(2), st.int64(3) != 0});
  return out;
}

std::vector<ConnectionSummary> StoreReader::connections() {
  std::vector<ConnectionSummary> out;
  forEachConnection([&](const ConnectionSummary& c) { out.push_back(c); });
  return out;
}

void StoreReader::forEachConnection(const std::function<void(const ConnectionSummary&)>& f) {
  Statement st(d->db, store::kConnectionColumns);
  while (st.step()) f(store::connectionSummary(st));
}

size_t StoreReader::connectionCount() {
  Statement st(d->db, "SELECT count(*) FROM connections");
  st.step();
  return static_cast<size_t>(st.int64(0));
}

std::vector<ConnectionRecord> StoreReader::connectionRecords() {
  std::vector<ConnectionRecord> out;
  forEachConnectionRecord([&](const ConnectionRecord& c) { out.push_back(c); });
  return out;
}

void StoreReader::forEachConnectionRecord(const std::function<void(const ConnectionRecord&)>& f) {
  store::ConnectionAnalysisReader analysis(d->db);
  forEachConnection([&](const ConnectionSummary& s) { f(analysis.read(s)); });
}

std::optional<ConnectionRecord> StoreReader::connection(int64_t id) {
  Statement st(d->db, (std::string(store::kConnectionColumns) + " WHERE id = ?").c_str());
  st.bind(1, id);
  if (!st.step()) return std::nullopt;
  store::ConnectionAnalysisReader analysis(d->db);
  return analysis.read(store::connectionSummary(st));
}

namespace {
// Runs `sql` (which must end in a WHERE clause taking conn, dir, from, to as
// ?1..?4) and decodes every row with `decode`.
template <class T, class Decode>
std::vector<T> eventsIn(sql::Database& db, const std::string& sql, int64_t conn, Direction dir,
                        TimeRange range, Decode decode) {
  Statement st(db, sql.c_str());
  st.bind(1, conn).bind(2, int64_t(dir)).bind(3, range.from_ns).bind(4, range.to_ns);
  std::vector<T> out;
  while (st.step()) out.push_back(decode(st, dir));
  return out;
}
}  // namespace

std::vector<ana::RttEvent> StoreReader::rttSamples(int64_t conn, Direction dir, TimeRange range) {
  return eventsIn<ana::RttEvent>(d->db, store::kRttSelect, conn, dir, range, store::rttEvent);
}

std::vector<ana::RetransmissionEvent> StoreReader::retransmissions(int64_t conn, Direction dir,
                                                                   TimeRange range) {
  return eventsIn<ana::RetransmissionEvent>(d->db, store::kRetxSelect, conn, dir, range,
                                            store::retransmissionEvent);
}

std::vector<ana::LossEvent> StoreReader::losses(int64_t conn, Direction dir, TimeRange range) {
  return eventsIn<ana::LossEvent>(d->db, store::kLossSelect, conn, dir, range, store::lossEvent);
}

std::vector<ana::StallEvent> StoreReader::stalls(int64_t conn, Direction dir, TimeRange range) {
  return eventsIn<ana::StallEvent>(d->db, store::kStallSelect, conn, dir, range, store::stallEvent);
}

std::vector<ana::RateEvent> StoreReader::rates(int64_t conn, Direction dir, TimeRange range) {
  return eventsIn<ana::RateEvent>(d->db, store::kRateSelect, conn, dir, range, store::rateEvent);
}

std::map<uint32_t, uint64_t> StoreReader::lossBursts(int64_t conn, Direction dir) {
  Statement st(d->db, "SELECT length, count FROM loss_bursts WHERE conn = ? AND dir = ? ORDER BY length");
  st.bind(1, conn).bind(2, int64_t(dir));
  std::map<uint32_t, uint64_t> out;
  while (st.step()) out[static_cast<uint32_t>(st.int64(0))] = static_cast<uint64_t>(st.int64(1));
  return out;
}

DataBytes StoreReader::dataBytes(int64_t conn, Direction dir) {
  // A contract protocol's data segments are role Data (first segment inline,
  // the others in extra_segments); a TCP row has no role, one segment, and
  // its length is the TCP payload.
  const int64_t data = int64_t(SegmentRole::Data);
  Statement all(
      d->db,
      "SELECT (SELECT COALESCE(SUM(length), 0) FROM packets WHERE conn = ?1 AND dir = ?2"
      " AND (role = ?3 OR role IS NULL))"
      " + (SELECT COALESCE(SUM(e.length), 0) FROM extra_segments e JOIN packets p ON p.frame = e.frame"
      " WHERE p.conn = ?1 AND p.dir = ?2 AND e.role = ?3)");
  all.bind(1, conn).bind(2, int64_t(dir)).bind(3, data);
  // A retransmission row names its copy by frame and seq (TCP: by frame).
  Statement retx(
      d->db,
      "SELECT COALESCE(SUM(COALESCE(p.length, e.length)), 0) FROM retransmissions r"
      " LEFT JOIN packets p ON p.frame = r.frame AND (p.role IS NULL OR (p.seq = r.seq AND p.role = ?3))"
      " LEFT JOIN extra_segments e ON p.frame IS NULL AND e.frame = r.frame AND e.seq = r.seq"
      " AND e.role = ?3 WHERE r.conn = ?1 AND r.dir = ?2");
  retx.bind(1, conn).bind(2, int64_t(dir)).bind(3, data);
  DataBytes out;
  if (all.step()) out.all = static_cast<uint64_t>(all.int64(0));
  if (retx.step()) out.retransmitted = static_cast<uint64_t>(retx.int64(0));
  return out;
}

std::vector<PacketRecord> StoreReader::packets(const PacketQuery& q) {
  std::vector<PacketRecord> out;
  forEachPacket(q, [&](const PacketRecord& p) { out.push_back(p); });
  return out;
}

void StoreReader::forEachPacket(const PacketQuery& q, const std::function<void(const PacketRecord&)>& f) {
  store::PacketSelect sel(q, d->joins);
  Statement st(d->db, sel.sql.c_str());
  sel.bind(st);
  size_t n = 0;
  while (n < q.limit && st.step()) {
    f(store::packetRecord(st, sel.joins));
    ++n;
  }
}

std::optional<PacketRecord> StoreReader::packet(uint64_t frame) {
  PacketQuery q;
  q.first_frame = q.last_frame = frame;
  q.limit = 1;
  std::vector<PacketRecord> one = packets(q);
  if (one.empty()) return std::nullopt;
  return one.front();
}

std::vector<uint64_t> StoreReader::framesWhere(const FrameCondition& condition,
                                               const std::atomic<bool>* cancel) {
  Statement st(d->db, "SELECT frames, data FROM frame_index ORDER BY first_frame");
  std::vector<uint64_t> out;
  while (st.step()) {
    if (cancel && cancel->load(std::memory_order_relaxed)) throw Cancelled();
    const bool whole = store::forEachIndexedFrame(
        st.blob(1), static_cast<size_t>(st.int64(0)), [&](const FrameColumns& frame) {
          if (condition.holdsFor(frame))
            out.push_back(static_cast<uint64_t>(frame[size_t(FrameCondition::Column::Frame)]));
        });
    if (!whole) throw StoreError("'" + d->db.path() + "' is damaged: its frame index is cut");
  }
  return out;
}

std::vector<std::pair<uint64_t, std::string>> StoreReader::packetErrors(uint64_t firstFrame, size_t limit) {
  Statement st(d->db, "SELECT frame, message FROM packet_errors WHERE frame >= ? ORDER BY frame, rowid");
  st.bind(1, static_cast<int64_t>(firstFrame));
  std::vector<std::pair<uint64_t, std::string>> out;
  while (out.size() < limit && st.step()) out.emplace_back(st.int64(0), st.text(1));
  return out;
}

std::vector<TcpSeqBaseChange> StoreReader::tcpSeqBases(int64_t conn) {
  Statement st(d->db, "SELECT dir, frame, base FROM tcp_seq_bases WHERE conn = ? ORDER BY frame, dir");
  st.bind(1, conn);
  std::vector<TcpSeqBaseChange> out;
  while (st.step())
    out.push_back({static_cast<Direction>(st.int64(0)), static_cast<uint64_t>(st.int64(1)),
                   static_cast<uint32_t>(st.int64(2))});
  return out;
}

std::vector<IcmpErrorRecord> StoreReader::icmpErrors(int64_t conn) {
  Statement st(d->db, store::kIcmpErrorSelect);
  st.bind(1, conn);
  std::vector<IcmpErrorRecord> out;
  while (st.step()) out.push_back(store::icmpErrorRecord(st));
  return out;
}

}  // namespace rudp
