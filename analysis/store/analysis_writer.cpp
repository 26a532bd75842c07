#include "store/analysis_writer.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "store/batched_insert.h"
#include "store/chunk_buffers.h"

namespace rudp {

using sql::Statement;

namespace {
int64_t i64(uint64_t v) { return static_cast<int64_t>(v); }

void writeRateChange(sql::Statement& s, int64_t conn, const ana::RateChangeEvent& e) {
  s.bind(1, conn).bind(2, int64_t(e.dir)).bind(3, std::string_view(ana::toString(e.kind)));
  s.bind(4, e.start_ns).bind(5, e.end_ns).bind(6, i64(e.first_frame)).bind(7, i64(e.last_frame));
  s.bind(8, i64(e.gaps)).bind(9, e.rate_hz).bind(10, e.usual_hz).bind(11, int64_t{e.open});
  s.run();
}

// offset, size, little-endian and fit of an inferred field; NULLs when none was found.
void bindInferred(sql::Statement& s, int& c, const ana::InferredField& f) {
  if (!f.found()) {
    for (int i = 0; i < 4; ++i) s.bindNull(c++);
    return;
  }
  for (int64_t v : {int64_t{f.offset}, int64_t{f.size}, int64_t{f.little_endian}}) s.bind(c++, v);
  s.bind(c++, f.fit);
}
std::optional<int64_t> frameOrNull(uint64_t f) {
  return f ? std::optional<int64_t>(static_cast<int64_t>(f)) : std::nullopt;
}
using RttRow = std::pair<int64_t, ana::RttEvent>;
using RateRow = std::pair<int64_t, ana::RateEvent>;
void bindRtt(Statement& st, int at, const RttRow& row) {
  const auto& [conn, e] = row;
  st.bind(at + 1, conn)
      .bind(at + 2, int64_t(e.dir))
      .bind(at + 3, i64(e.frame))
      .bind(at + 4, frameOrNull(e.data_frame))
      .bind(at + 5, e.ts_ns)
      .bind(at + 6, e.rtt_ms)
      .bind(at + 7, int64_t(e.source))
      .bind(at + 8, int64_t(e.span))
      .bind(at + 9, e.srtt_ms)
      .bind(at + 10, e.rto_ms);
}
void bindRate(Statement& st, int at, const RateRow& row) {
  const auto& [conn, e] = row;
  st.bind(at + 1, conn)
      .bind(at + 2, int64_t(e.dir))
      .bind(at + 3, e.start_ns)
      .bind(at + 4, int64_t{e.packets})
      .bind(at + 5, i64(e.bytes));
}
int64_t rttTime(const RttRow& r) { return r.second.ts_ns; }
int64_t rateTime(const RateRow& r) { return r.second.start_ns; }

// Rows per (connection, direction) chunk, and rows held in all chunks: 64
// connections make chunks of about 256 rows (13 kB of rtt_samples).
constexpr size_t kChunkRows = 1024;
constexpr size_t kMaxHeldRows = 32768;

// A row of rtt_chunks or rate_chunks.
struct Chunk {
  int64_t conn, dir, first_row, last_row, min_ts_ns, max_ts_ns;
};
void bindChunk(Statement& st, int at, const Chunk& c) {
  st.bind(at + 1, c.conn)
      .bind(at + 2, c.dir)
      .bind(at + 3, c.first_row)
      .bind(at + 4, c.last_row)
      .bind(at + 5, c.min_ts_ns)
      .bind(at + 6, c.max_ts_ns);
}

// An event table written in per-(connection, direction) chunks: each chunk
// is a run of consecutive rowids that its directory lists with its time
// span, so a query for one connection reads its runs and nothing else. The
// rows themselves are unchanged; only their order in the table is grouped.
template <class Row>
class ChunkedTable {
 public:
  using Bind = typename sql::BatchedInsert<Row>::Bind;
  ChunkedTable(StoreWriter& w, const char* table, const char* directory, int cols, Bind bind,
               int64_t (*time)(const Row&))
      : w_(w),
        table_(table),
        rows_(w.database(), table, cols, 32, bind),
        dir_(w.database(), directory, 6, 32, bindChunk),
        time_(time),
        chunks_(kChunkRows, kMaxHeldRows,
                [this](int64_t key, const std::vector<Row>& rows) { writeChunk(key, rows); }) {}

  void add(const Row& r) { chunks_.add(key(r.first, r.second.dir), r); }
  // The connection has finished: its rows go now.
  void flush(int64_t conn) {
    chunks_.flush(key(conn, Direction::ClientToServer));
    chunks_.flush(key(conn, Direction::ServerToClient));
  }
  // Writes every held row; throws unless the rowids are those the directory
  // assumed (SQLite gives an appended row the largest rowid plus one).
  void finish() {
    chunks_.flushAll();
    rows_.flush();
    dir_.flush();
    Statement st(w_.database(), ("SELECT coalesce(max(rowid), 0) FROM " + table_).c_str());
    if (!st.step() || st.int64(0) != written_)
      throw StoreError("database '" + w_.database().path() + "': " + table_ +
                       " rowids out of step with its chunk directory");
  }

 private:
  static int64_t key(int64_t conn, Direction dir) { return conn * 2 + int64_t(dir); }
  void writeChunk(int64_t key, const std::vector<Row>& rows) {
    int64_t lo = time_(rows.front()), hi = lo;
    for (const Row& r : rows) {
      rows_.add(r);
      w_.tick();
      lo = std::min(lo, time_(r));
      hi = std::max(hi, time_(r));
    }
    dir_.add({key / 2, key % 2, written_ + 1, written_ + static_cast<int64_t>(rows.size()), lo, hi});
    written_ += static_cast<int64_t>(rows.size());
  }

  StoreWriter& w_;
  std::string table_;
  sql::BatchedInsert<Row> rows_;
  sql::BatchedInsert<Chunk> dir_;
  int64_t (*time_)(const Row&);
  int64_t written_ = 0;
  sql::ChunkBuffers<int64_t, Row, std::function<void(int64_t, const std::vector<Row>&)>> chunks_;
};
}  // namespace

// The two big event tables (an RTT sample per data packet, a rate row per
// 100 ms and direction) go in per-connection chunks, 32 rows per statement
// (batched_insert.h); the small ones row by row, indexed at the end.
struct AnalysisWriter::Impl {
  StoreWriter& w;
  Statement retx, loss, stall, conn, dir, burst, change;
  ChunkedTable<RttRow> rtt;
  ChunkedTable<RateRow> rate;
  explicit Impl(StoreWriter& writer)
      : w(writer),
        retx(w.database(), "INSERT INTO retransmissions VALUES (?,?,?,?,?,?,?,?,?,?)"),
        loss(w.database(), "INSERT INTO losses VALUES (?,?,?,?,?,?,?)"),
        stall(w.database(), "INSERT INTO stalls VALUES (?,?,?,?,?,?,?,?,?,?,?)"),
        conn(w.database(), "INSERT INTO connection_analysis VALUES (?,?,?,?,?,?)"),
        dir(w.database(),
            "INSERT INTO direction_metrics VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,"
            "?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,"
            "?,?,?,?,?,?,?,?,?,?)"),
        burst(w.database(), "INSERT INTO loss_bursts VALUES (?,?,?,?)"),
        change(w.database(), "INSERT INTO rate_changes VALUES (?,?,?,?,?,?,?,?,?,?,?)"),
        rtt(w, "rtt_samples", "rtt_chunks", 10, bindRtt, rttTime),
        rate(w, "rates", "rate_chunks", 5, bindRate, rateTime) {}
};

AnalysisWriter::AnalysisWriter(StoreWriter& writer) : d(std::make_unique<Impl>(writer)) {}
AnalysisWriter::~AnalysisWriter() = default;

void AnalysisWriter::rtt(int64_t conn, const ana::RttEvent& e) { d->rtt.add({conn, e}); }

void AnalysisWriter::retransmission(int64_t conn, const ana::RetransmissionEvent& e) {
  std::optional<double> since;
  if (e.since_previous_ms >= 0) since = e.since_previous_ms;
  d->retx.bind(1, conn)
      .bind(2, int64_t(e.dir))
      .bind(3, i64(e.frame))
      .bind(4, e.ts_ns)
      .bind(5, int64_t{e.seq})
      .bind(6, frameOrNull(e.original_frame))
      .bind(7, frameOrNull(e.previous_frame))
      .bind(8, int64_t{e.attempt})
      .bind(9, since)
      .bind(10, std::string_view(ana::toString(e.cause)));
  d->retx.run();
  d->w.tick();
}

void AnalysisWriter::loss(int64_t conn, const ana::LossEvent& e) {
  d->loss.bind(1, conn)
      .bind(2, int64_t(e.dir))
      .bind(3, i64(e.frame))
      .bind(4, e.ts_ns)
      .bind(5, int64_t{e.first_seq})
      .bind(6, int64_t{e.count})
      .bind(7, frameOrNull(e.first_frame));
  d->loss.run();
  d->w.tick();
}

void AnalysisWriter::stall(int64_t conn, const ana::StallEvent& e) {
  d->stall.bind(1, conn)
      .bind(2, int64_t(e.dir))
      .bind(3, e.start_ns)
      .bind(4, e.end_ns)
      .bind(5, e.duration_ms)
      .bind(6, std::string_view(ana::toString(e.cause)))
      .bind(7, frameOrNull(e.first_frame))
      .bind(8, frameOrNull(e.last_frame))
      .bind(9, int64_t{e.retransmissions})
      .bind(10, int64_t{e.open})
      .bind(11, int64_t{e.estimated});
  d->stall.run();
  d->w.tick();
}

void AnalysisWriter::rate(int64_t conn, const ana::RateEvent& e) { d->rate.add({conn, e}); }

namespace {
// connection_analysis.timing_only: 0 decoded, 1 timing alone (no
// dissector), 2 QUIC left encrypted (no key log for it).
int64_t analysisKind(const ana::ConnectionMetrics& m) { return m.timing_only ? 1 : m.encrypted ? 2 : 0; }
}  // namespace

void AnalysisWriter::metrics(int64_t conn, const ana::ConnectionMetrics& m) {
  d->rtt.flush(conn);
  d->rate.flush(conn);
  std::optional<double> hs;
  if (m.handshake_ms >= 0) hs = m.handshake_ms;
  d->conn.bind(1, conn)
      .bind(2, std::string_view(ana::toString(m.vantage)))
      .bind(3, hs)
      .bind(4, int64_t{m.connect_attempts})
      .bind(5, int64_t{m.disconnected})
      .bind(6, analysisKind(m));
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
    for (uint64_t v : {x.data_packets, x.retransmissions, x.retransmissions_timeout, x.retransmissions_fast,
                       x.retransmissions_spurious, x.retransmissions_inferred, x.lost, x.loss_unknown})
      s.bind(c++, i64(v));
    s.bind(c++, x.mean_loss_burst);
    for (uint64_t v : {x.reordered, x.duplicates, x.network_duplicates, x.rtt.samples}) s.bind(c++, i64(v));
    for (double v : {x.rtt.min, x.rtt.p50, x.rtt.p95, x.rtt.p99, x.rtt.max, x.rtt.mean, x.rtt.share_above[0],
                     x.rtt.share_above[1], x.rtt.share_above[2], x.rtt.srtt, x.rtt.rto})
      s.bind(c++, opt(rtt, v));
    s.bind(c++, std::string_view(ana::toString(x.rtt.span)));
    s.bind(c++, int64_t{x.rtt.exact_percentiles});
    s.bind(c++, x.jitter_ms);
    s.bind(c++, i64(x.gaps.samples));
    for (double v : {x.gaps.p50, x.gaps.p95, x.gaps.p99, x.gaps.max}) s.bind(c++, opt(gaps, v));
    for (double v : {x.gaps.tick_hz, x.hol_blocking_ms, x.hol_max_ms}) s.bind(c++, v);
    s.bind(c++, i64(x.hol_blocked_packets));
    s.bind(c++, int64_t{x.hol_observable});
    if (x.min_window == UINT32_MAX)
      s.bindNull(c++);
    else
      s.bind(c++, int64_t{x.min_window});
    const ana::RttStats& r = x.response;
    s.bind(c++, i64(r.samples));
    for (double v :
         {r.min, r.p50, r.p95, r.p99, r.max, r.mean, r.share_above[0], r.share_above[1], r.share_above[2]})
      s.bind(c++, opt(r.samples > 0, v));
    s.bind(c++, int64_t{r.exact_percentiles});
    bindInferred(s, c, x.seq_field);
    bindInferred(s, c, x.ts_field);
    s.bind(c++, opt(x.ts_field.found(), x.ts_field.unit_hz));
    bindInferred(s, c, x.ack_field);
    if (x.ack_field.found())
      s.bind(c++, int64_t{x.ack_field.echo_next});
    else
      s.bindNull(c++);
    s.run();
    for (const auto& [len, count] : x.loss_bursts) {
      d->burst.bind(1, conn).bind(2, int64_t{dir}).bind(3, int64_t{len}).bind(4, i64(count));
      d->burst.run();
    }
    for (const ana::RateChangeEvent& e : x.rate_changes) writeRateChange(d->change, conn, e);
  }
  d->w.tick();
}

void AnalysisWriter::createIndexes() {
  d->rtt.finish();
  d->rate.finish();
  // Only the small event tables: an index over rtt_samples or rates costs
  // a fifth of ingest time; their chunk directories cost next to nothing.
  auto& db = d->w.database();
  db.exec("CREATE INDEX retx_by_conn ON retransmissions(conn, dir, ts_ns)");
  db.exec("CREATE INDEX loss_by_conn ON losses(conn, dir, ts_ns)");
  db.exec("CREATE INDEX stall_by_conn ON stalls(conn, dir, start_ns)");
}

}  // namespace rudp
