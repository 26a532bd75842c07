#include "store/analysis_writer.h"

#include <optional>
#include <utility>

#include "store/batched_insert.h"

namespace rudp {

using sql::Statement;

namespace {
int64_t i64(uint64_t v) { return static_cast<int64_t>(v); }
std::optional<int64_t> frameOrNull(uint64_t f) {
  return f ? std::optional<int64_t>(static_cast<int64_t>(f)) : std::nullopt;
}
using RttRow = std::pair<int64_t, ana::RttEvent>;
using RateRow = std::pair<int64_t, ana::RateEvent>;
void bindRtt(Statement& st, int at, const RttRow& row) {
  const auto& [conn, e] = row;
  st.bind(at + 1, conn).bind(at + 2, int64_t(e.dir)).bind(at + 3, i64(e.frame))
      .bind(at + 4, frameOrNull(e.data_frame)).bind(at + 5, e.ts_ns).bind(at + 6, e.rtt_ms)
      .bind(at + 7, int64_t(e.source)).bind(at + 8, int64_t(e.span)).bind(at + 9, e.srtt_ms)
      .bind(at + 10, e.rto_ms);
}
void bindRate(Statement& st, int at, const RateRow& row) {
  const auto& [conn, e] = row;
  st.bind(at + 1, conn).bind(at + 2, int64_t(e.dir)).bind(at + 3, e.start_ns)
      .bind(at + 4, int64_t{e.packets}).bind(at + 5, i64(e.bytes));
}
}  // namespace

// The two big event tables (an RTT sample per data packet, a rate row per
// 100 ms and direction) go 32 rows per statement (batched_insert.h).
struct AnalysisWriter::Impl {
  StoreWriter& w;
  Statement retx, loss, stall, conn, dir, burst;
  sql::BatchedInsert<RttRow> rtt;
  sql::BatchedInsert<RateRow> rate;
  explicit Impl(StoreWriter& writer)
      : w(writer),
        retx(w.database(), "INSERT INTO retransmissions VALUES (?,?,?,?,?,?,?,?,?,?)"),
        loss(w.database(), "INSERT INTO losses VALUES (?,?,?,?,?,?,?)"),
        stall(w.database(), "INSERT INTO stalls VALUES (?,?,?,?,?,?,?,?,?,?,?)"),
        conn(w.database(), "INSERT INTO connection_analysis VALUES (?,?,?,?,?)"),
        dir(w.database(), "INSERT INTO direction_metrics VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,"
                          "?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"),
        burst(w.database(), "INSERT INTO loss_bursts VALUES (?,?,?,?)"),
        rtt(w.database(), "rtt_samples", 10, 32, bindRtt),
        rate(w.database(), "rates", 5, 32, bindRate) {}
};

AnalysisWriter::AnalysisWriter(StoreWriter& writer) : d(std::make_unique<Impl>(writer)) {}
AnalysisWriter::~AnalysisWriter() = default;

void AnalysisWriter::rtt(int64_t conn, const ana::RttEvent& e) {
  d->rtt.add({conn, e});
  d->w.tick();
}

void AnalysisWriter::flush() {
  d->rtt.flush();
  d->rate.flush();
}

void AnalysisWriter::retransmission(int64_t conn, const ana::RetransmissionEvent& e) {
  std::optional<double> since;
  if (e.since_previous_ms >= 0) since = e.since_previous_ms;
  d->retx.bind(1, conn).bind(2, int64_t(e.dir)).bind(3, i64(e.frame)).bind(4, e.ts_ns)
      .bind(5, int64_t{e.seq}).bind(6, frameOrNull(e.original_frame))
      .bind(7, frameOrNull(e.previous_frame)).bind(8, int64_t{e.attempt}).bind(9, since)
      .bind(10, std::string_view(ana::toString(e.cause)));
  d->retx.run();
  d->w.tick();
}

void AnalysisWriter::loss(int64_t conn, const ana::LossEvent& e) {
  d->loss.bind(1, conn).bind(2, int64_t(e.dir)).bind(3, i64(e.frame)).bind(4, e.ts_ns)
      .bind(5, int64_t{e.first_seq}).bind(6, int64_t{e.count}).bind(7, frameOrNull(e.first_frame));
  d->loss.run();
  d->w.tick();
}

void AnalysisWriter::stall(int64_t conn, const ana::StallEvent& e) {
  d->stall.bind(1, conn).bind(2, int64_t(e.dir)).bind(3, e.start_ns).bind(4, e.end_ns)
      .bind(5, e.duration_ms).bind(6, std::string_view(ana::toString(e.cause)))
      .bind(7, frameOrNull(e.first_frame)).bind(8, frameOrNull(e.last_frame))
      .bind(9, int64_t{e.retransmissions}).bind(10, int64_t{e.open}).bind(11, int64_t{e.estimated});
  d->stall.run();
  d->w.tick();
}

void AnalysisWriter::rate(int64_t conn, const ana::RateEvent& e) {
  d->rate.add({conn, e});
  d->w.tick();
}

void AnalysisWriter::metrics(int64_t conn, const ana::ConnectionMetrics& m) {
  std::optional<double> hs;
  if (m.handshake_ms >= 0) hs = m.handshake_ms;
  d->conn.bind(1, conn).bind(2, std::string_view(ana::toString(m.vantage))).bind(3, hs)
      .bind(4, int64_t{m.connect_attempts}).bind(5, int64_t{m.disconnected});
  d->conn.run();
  for (int dir = 0; dir < 2; ++dir) {
    const ana::DirectionMetrics& x = m.dir[dir];
    const bool rtt = x.rtt.samples > 0, gaps = x.gaps.samples > 0;
    auto opt = [](bool present, double v) { return present ? std::optional<double>(v) : std::nullopt; };
    Statement& s = d->dir;
    int c = 1;
    // One bind per statement: chained `bind(c++)` calls are ordered since
    // C++17, but GCC still warns about them.
    s.bind(c++, conn);
    s.bind(c++, int64_t{dir});
    for (uint64_t v : {x.data_packets, x.retransmissions, x.retransmissions_timeout,
                       x.retransmissions_fast, x.retransmissions_spurious,
                       x.retransmissions_inferred, x.lost, x.loss_unknown})
      s.bind(c++, i64(v));
    s.bind(c++, x.mean_loss_burst);
    for (uint64_t v : {x.reordered, x.duplicates, x.network_duplicates, x.rtt.samples})
      s.bind(c++, i64(v));
    for (double v : {x.rtt.min, x.rtt.p50, x.rtt.p95, x.rtt.p99, x.rtt.max, x.rtt.mean,
                     x.rtt.share_above[0], x.rtt.share_above[1], x.rtt.share_above[2],
                     x.rtt.srtt, x.rtt.rto})
      s.bind(c++, opt(rtt, v));
    s.bind(c++, std::string_view(ana::toString(x.rtt.span)));
    s.bind(c++, int64_t{x.rtt.exact_percentiles});
    s.bind(c++, x.jitter_ms);
    s.bind(c++, i64(x.gaps.samples));
    for (double v : {x.gaps.p50, x.gaps.p95, x.gaps.p99, x.gaps.max}) s.bind(c++, opt(gaps, v));
    for (double v : {x.gaps.tick_hz, x.hol_blocking_ms, x.hol_max_ms}) s.bind(c++, v);
    s.bind(c++, i64(x.hol_blocked_packets));
    s.bind(c++, int64_t{x.hol_observable});
    if (x.min_window == UINT32_MAX) s.bindNull(c++);
    else s.bind(c++, int64_t{x.min_window});
    s.run();
    for (const auto& [len, count] : x.loss_bursts) {
      d->burst.bind(1, conn).bind(2, int64_t{dir}).bind(3, int64_t{len}).bind(4, i64(count));
      d->burst.run();
    }
  }
  d->w.tick();
}

void AnalysisWriter::createIndexes() {
  flush();
  // Only the small event tables: an index over rtt_samples or rates costs
  // more than a fifth of ingest time; readers filter those by conn on a scan.
  auto& db = d->w.database();
  db.exec("CREATE INDEX retx_by_conn ON retransmissions(conn, dir, ts_ns)");
  db.exec("CREATE INDEX loss_by_conn ON losses(conn, dir, ts_ns)");
  db.exec("CREATE INDEX stall_by_conn ON stalls(conn, dir, start_ns)");
}

}  // namespace rudp
