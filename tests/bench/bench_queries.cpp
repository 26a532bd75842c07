// Times the per-connection queries of rudp::StoreReader on a finished
// database (tests/bench/bench_queries.sh runs it after an ingest).
//
//   bench-queries DB [CONN] [REPEAT=7]
//   bench-queries DB --dump     every query's rows for every connection, to
//                               compare two builds' readers (diff or md5sum)
//
// CONN defaults to the middle connection by id. Each query covers both
// directions (two calls) and runs REPEAT times on one reader, as the GUI's
// reading thread would; it prints the first call (SQLite's page cache
// cold, the OS cache as it is) and the median of the others in
// milliseconds, wall and the thread's CPU time (which busy neighbours
// disturb less), with the row count so runs on two builds can be compared.
// Last, the whole capture's frames under a stored-column display filter.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "store/store_reader.h"

using namespace rudp;

namespace {
using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

double threadCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// A query over both directions of one connection; returns the rows it read.
using Query = std::function<size_t(StoreReader&, int64_t conn, Direction dir)>;

struct Case {
  const char* name;
  Query query;
};

void timeCase(StoreReader& reader, int64_t conn, int repeat, const Case& c) {
  std::vector<double> times, cpu;
  size_t rows = 0;
  for (int i = 0; i < repeat; ++i) {
    auto t0 = Clock::now();
    const double cpu0 = threadCpuMs();
    rows = 0;
    for (Direction d : {Direction::ClientToServer, Direction::ServerToClient})
      rows += c.query(reader, conn, d);
    times.push_back(msSince(t0));
    cpu.push_back(threadCpuMs() - cpu0);
  }
  const double first = times.front();
  times.erase(times.begin());
  cpu.erase(cpu.begin());
  std::printf("%-30s %10zu %12.2f %12.2f %12.2f\n", c.name, rows, first, median(times), median(cpu));
}

// The Packets page's stored-column display filter `frame.len > 150 &&
// frame.time_relative >= 10` over the whole capture (once, not per direction).
Case storedFilterCase(int64_t captureStartNs) {
  FrameCondition longer{
      FrameCondition::Kind::Compare, FrameCondition::Column::WireLength, FrameCondition::Op::Gt, 150, {}};
  FrameCondition later{FrameCondition::Kind::Compare,
                       FrameCondition::Column::TimeNs,
                       FrameCondition::Op::Ge,
                       captureStartNs + 10'000'000'000,
                       {}};
  FrameCondition both{FrameCondition::Kind::And, {}, {}, 0, {longer, later}};
  return {"frames where len>150, t>=10 s", [both](StoreReader& r, int64_t, Direction d) {
            return d == Direction::ClientToServer ? r.framesWhere(both).size() : size_t{0};
          }};
}

std::vector<Case> cases(const ConnectionSummary& s) {
  // A 5 s window in the middle of the connection.
  const int64_t mid = s.first_ts_ns + (s.last_ts_ns - s.first_ts_ns) / 2;
  const TimeRange window{mid, mid + 5'000'000'000};
  return {
      {"rtt samples, all", [](StoreReader& r, int64_t c, Direction d) { return r.rttSamples(c, d).size(); }},
      {"rtt samples, 5 s",
       [window](StoreReader& r, int64_t c, Direction d) { return r.rttSamples(c, d, window).size(); }},
      {"retransmissions, all",
       [](StoreReader& r, int64_t c, Direction d) { return r.retransmissions(c, d).size(); }},
      {"losses, all", [](StoreReader& r, int64_t c, Direction d) { return r.losses(c, d).size(); }},
      {"stalls, all", [](StoreReader& r, int64_t c, Direction d) { return r.stalls(c, d).size(); }},
      {"rates, all", [](StoreReader& r, int64_t c, Direction d) { return r.rates(c, d).size(); }},
      {"rates, 5 s",
       [window](StoreReader& r, int64_t c, Direction d) { return r.rates(c, d, window).size(); }},
      {"packets by conn+dir, all",
       [](StoreReader& r, int64_t c, Direction d) {
         PacketQuery q;
         q.conn = c;
         q.dir = d;
         return r.packets(q).size();
       }},
      {"packets by conn+dir, 5 s",
       [window](StoreReader& r, int64_t c, Direction d) {
         PacketQuery q;
         q.conn = c;
         q.dir = d;
         q.time = window;
         return r.packets(q).size();
       }},
      {"packets by conn, first 1000",
       [](StoreReader& r, int64_t c, Direction d) {
         if (d != Direction::ClientToServer) return size_t{0};  // once per connection
         PacketQuery q;
         q.conn = c;
         q.limit = 1000;
         return r.packets(q).size();
       }},
  };
}
// One line per row, every field, doubles exact.
void dumpConnection(StoreReader& r, const ConnectionSummary& s) {
  const int64_t c = s.id;
  const int64_t mid = s.first_ts_ns + (s.last_ts_ns - s.first_ts_ns) / 2;
  for (Direction d : {Direction::ClientToServer, Direction::ServerToClient}) {
    const int dir = int(d);
    for (TimeRange range : {TimeRange{}, TimeRange{mid, mid + 5'000'000'000}}) {
      std::printf("conn %lld dir %d range %lld..%lld\n", static_cast<long long>(c), dir,
                  static_cast<long long>(range.from_ns), static_cast<long long>(range.to_ns));
      for (const auto& e : r.rttSamples(c, d, range))
        std::printf("rtt %llu %llu %lld %.17g %d %d %.17g %.17g\n", static_cast<unsigned long long>(e.frame),
                    static_cast<unsigned long long>(e.data_frame), static_cast<long long>(e.ts_ns), e.rtt_ms,
                    int(e.source), int(e.span), e.srtt_ms, e.rto_ms);
      for (const auto& e : r.retransmissions(c, d, range))
        std::printf("retx %llu %lld %u %u\n", static_cast<unsigned long long>(e.frame),
                    static_cast<long long>(e.ts_ns), e.seq, e.attempt);
      for (const auto& e : r.losses(c, d, range))
        std::printf("loss %llu %lld %u %u\n", static_cast<unsigned long long>(e.frame),
                    static_cast<long long>(e.ts_ns), e.first_seq, e.count);
      for (const auto& e : r.stalls(c, d, range))
        std::printf("stall %lld %lld %.17g\n", static_cast<long long>(e.start_ns),
                    static_cast<long long>(e.end_ns), e.duration_ms);
      for (const auto& e : r.rates(c, d, range))
        std::printf("rate %lld %u %llu\n", static_cast<long long>(e.start_ns), e.packets,
                    static_cast<unsigned long long>(e.bytes));
      PacketQuery q;
      q.conn = c;
      q.dir = d;
      q.time = range;
      for (const auto& p : r.packets(q))
        std::printf("packet %llu %lld %d\n", static_cast<unsigned long long>(p.frame),
                    static_cast<long long>(p.ts_ns), int(p.dir));
    }
  }
  PacketQuery q;  // both directions, a frame window, a page
  q.conn = c;
  q.first_frame = 1000;
  q.last_frame = 500000;
  q.limit = 300;
  for (const auto& p : r.packets(q))
    std::printf("packet %llu %lld %d\n", static_cast<unsigned long long>(p.frame),
                static_cast<long long>(p.ts_ns), int(p.dir));
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench-queries DB [CONN] [REPEAT=7]\n");
    return 2;
  }
  try {
    auto t0 = Clock::now();
    StoreReader reader(argv[1]);
    const double openMs = msSince(t0);
    std::vector<ConnectionSummary> conns = reader.connections();
    if (conns.empty()) throw std::runtime_error("no connections");
    if (argc > 2 && std::string(argv[2]) == "--dump") {
      for (const ConnectionSummary& c : conns) dumpConnection(reader, c);
      return 0;
    }
    int64_t id = argc > 2 ? std::atoll(argv[2]) : conns[conns.size() / 2].id;
    const int repeat = std::max(2, argc > 3 ? std::atoi(argv[3]) : 7);
    auto it = std::find_if(conns.begin(), conns.end(), [&](const auto& c) { return c.id == id; });
    if (it == conns.end()) throw std::runtime_error("no connection " + std::to_string(id));
    std::printf(
        "database %s: %zu connections; connection %lld (%llu + %llu packets);"
        " open %.2f ms\n",
        argv[1], conns.size(), static_cast<long long>(id),
        static_cast<unsigned long long>(it->dir[0].packets),
        static_cast<unsigned long long>(it->dir[1].packets), openMs);
    std::printf("%-30s %10s %12s %12s %12s\n", "query (both directions)", "rows", "first ms", "median ms",
                "median CPU");
    for (const Case& c : cases(*it)) timeCase(reader, id, repeat, c);
    timeCase(reader, id, repeat, storedFilterCase(reader.capture().first_ts_ns));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench-queries: %s\n", e.what());
    return 1;
  }
  return 0;
}
