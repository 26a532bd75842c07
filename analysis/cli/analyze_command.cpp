#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "session/ingest.h"
#include "store/db_path.h"
#include "store/store_reader.h"

namespace rudp::cli {

namespace {

double seconds(int64_t ns) { return static_cast<double>(ns) / 1e9; }

nlohmann::json directionJson(const DirectionStats& s) {
  return {{"packets", s.packets},
          {"bytes", s.bytes},
          {"payload_bytes", s.payload_bytes},
          {"segments", s.segments},
          {"malformed", s.malformed}};
}

// One row of a query as a JSON object keyed by column name.
nlohmann::json rowJson(sql::Statement& st) {
  nlohmann::json j = nlohmann::json::object();
  sqlite3_stmt* h = st.handle();
  for (int i = 0; i < sqlite3_column_count(h); ++i) {
    const char* name = sqlite3_column_name(h, i);
    switch (sqlite3_column_type(h, i)) {
      case SQLITE_INTEGER: j[name] = st.int64(i); break;
      case SQLITE_FLOAT: j[name] = st.real(i); break;
      case SQLITE_NULL: j[name] = nullptr; break;
      default: j[name] = st.text(i); break;
    }
  }
  return j;
}

// The connection-analysis part of a direction: the JSON contract's keys
// (retransmissions*, lost, loss_bursts, reordered, duplicates, rtt_ms,
// jitter_ms, stalls) and the rest of direction_metrics as they are.
void addAnalysis(sql::Database& db, int64_t conn, int dir, nlohmann::json& d) {
  sql::Statement m(db, "SELECT * FROM direction_metrics WHERE conn = ? AND dir = ?");
  m.bind(1, conn).bind(2, int64_t{dir});
  if (!m.step()) return;
  nlohmann::json row = rowJson(m);
  nlohmann::json rtt = {{"samples", row["rtt_samples"]}};
  for (const char* k : {"min", "p50", "p95", "p99", "max", "mean"}) rtt[k] = row[std::string("rtt_") + k];
  rtt["srtt"] = row["srtt"];
  rtt["rto"] = row["rto"];
  rtt["span"] = row["rtt_span"];
  rtt["exact_percentiles"] = row["rtt_exact"] == 1;
  for (const char* k : {"conn", "dir", "rtt_samples", "rtt_min", "rtt_p50", "rtt_p95", "rtt_p99",
                        "rtt_max", "rtt_mean", "srtt", "rto", "rtt_span", "rtt_exact"})
    row.erase(k);
  for (auto& [k, v] : row.items()) d[k] = v;
  // The share of samples above each configured limit, keyed by the limit in ms.
  sql::Statement lim(db, "SELECT key, value FROM meta WHERE key LIKE 'rtt_limit_%' ORDER BY key");
  rtt["share_above"] = nlohmann::json::object();
  while (lim.step()) {
    std::string col = "rtt_above_" + lim.text(0).substr(10);
    rtt["share_above"][lim.text(1)] = d[col];
    d.erase(col);
  }
  d["rtt_ms"] = rtt;

  sql::Statement b(db, "SELECT length, count FROM loss_bursts WHERE conn = ? AND dir = ? ORDER BY length");
  b.bind(1, conn).bind(2, int64_t{dir});
  d["loss_bursts"] = nlohmann::json::object();
  while (b.step()) d["loss_bursts"][std::to_string(b.int64(0))] = b.int64(1);

  sql::Statement s(db, "SELECT start_ns, end_ns, duration_ms, cause, first_frame, last_frame,"
                       " retransmissions, open, estimated FROM stalls WHERE conn = ? AND dir = ? ORDER BY start_ns");
  s.bind(1, conn).bind(2, int64_t{dir});
  d["stalls"] = nlohmann::json::array();
  while (s.step()) {
    d["stalls"].push_back({{"start", seconds(s.int64(0))}, {"end", seconds(s.int64(1))},
                           {"duration_ms", s.real(2)}, {"cause", s.text(3)},
                           {"first_frame", s.int64(4)}, {"last_frame", s.isNull(5) ? nlohmann::json(nullptr) : nlohmann::json(s.int64(5))},
                           {"retransmissions", s.int64(6)}, {"open", s.int64(7) != 0},
                           {"estimated", s.int64(8) != 0}});
  }
}

nlohmann::json summaryJson(sql::Database& db, const std::string& dbPath, const CaptureInfo& c,
                           const std::vector<ConnectionSummary>& conns) {
  nlohmann::json out;
  out["database"] = dbPath;
  out["capture"] = {{"path", c.path},
                    {"size", c.size},
                    {"hash", c.hash},
                    {"hash_algorithm", c.hash_algorithm},
                    {"format", c.format},
                    {"link_type", c.link_type},
                    {"link_type_name", c.link_type_name},
                    {"first_time", seconds(c.first_ts_ns)},
                    {"last_time", seconds(c.last_ts_ns)},
                    {"packets", c.packet_count},
                    {"truncated", c.truncated},
                    {"warning", c.warning},
                    {"decode_errors", c.decode_errors},
                    {"malformed", c.malformed},
                    {"dissector_errors", c.lua_errors}};
  auto& list = out["connections"] = nlohmann::json::array();
  for (const auto& x : conns) {
    nlohmann::json j = {{"id", x.id},
                        {"protocol", x.protocol},
                        {"client", x.client},
                        {"server", x.server},
                        {"roles_from_handshake", x.roles_from_handshake},
                        {"first_time", seconds(x.first_ts_ns)},
                        {"last_time", seconds(x.last_ts_ns)},
                        {"rebindings", x.rebindings},
                        {"directions",
                         {{"client_to_server", directionJson(x.dir[0])},
                          {"server_to_client", directionJson(x.dir[1])}}}};
    j["conn_id"] = x.has_conn_id ? nlohmann::json(x.conn_id) : nlohmann::json(nullptr);
    j["vantage"] = "unknown";
    sql::Statement a(db, "SELECT vantage, handshake_ms, connect_attempts, disconnected"
                         " FROM connection_analysis WHERE conn = ?");
    a.bind(1, x.id);
    if (a.step()) {
      j["vantage"] = a.text(0);
      j["handshake_ms"] = a.isNull(1) ? nlohmann::json(nullptr) : nlohmann::json(a.real(1));
      j["connect_attempts"] = a.int64(2);
      j["disconnected"] = a.int64(3) != 0;
    }
    addAnalysis(db, x.id, 0, j["directions"]["client_to_server"]);
    addAnalysis(db, x.id, 1, j["directions"]["server_to_client"]);
    list.push_back(std::move(j));
  }
  return out;
}

void printTable(const std::string& dbPath, const CaptureInfo& c,
                const std::vector<ConnectionSummary>& conns) {
  std::printf("capture   %s (%s, %s, %" PRIu64 " packets, %.3f s)\n", c.path.c_str(),
              c.format.c_str(), c.link_type_name.c_str(), c.packet_count,
              c.packet_count ? seconds(c.last_ts_ns - c.first_ts_ns) : 0.0);
  std::printf("database  %s\n", dbPath.c_str());
  if (c.decode_errors || c.malformed || c.lua_errors)
    std::printf("problems  %" PRIu64 " undecodable, %" PRIu64 " malformed, %" PRIu64
                " dissector errors\n",
                c.decode_errors, c.malformed, c.lua_errors);
  std::printf("\n%4s  %-8s  %-26s  %-26s  %-10s  %9s  %9s  %11s  %9s  %11s\n", "#", "protocol",
              "client", "server", "conn_id", "seconds", "c>s pkts", "c>s bytes", "s>c pkts",
              "s>c bytes");
  for (const auto& x : conns) {
    char id[16] = "-";
    if (x.has_conn_id) std::snprintf(id, sizeof id, "0x%08" PRIx64, x.conn_id);
    std::printf("%4" PRId64 "  %-8s  %-26s  %-26s  %-10s  %9.3f  %9" PRIu64 "  %11" PRIu64
                "  %9" PRIu64 "  %11" PRIu64 "\n",
                x.id, x.protocol.c_str(), x.client.c_str(), x.server.c_str(), id,
                seconds(x.last_ts_ns - x.first_ts_ns), x.dir[0].packets, x.dir[0].bytes,
                x.dir[1].packets, x.dir[1].bytes);
  }
}

}  // namespace

int runAnalyze(const AnalyzeArgs& args) {
  const std::string db = args.db.empty() ? defaultDatabasePath(args.capture) : args.db;

  ProgressSink progress;
  const bool showProgress = !args.quiet && ::isatty(STDERR_FILENO);
  if (showProgress) {
    progress.report = [](const Progress& p) {
      int pct = p.total ? static_cast<int>(100.0 * static_cast<double>(p.done) / p.total) : 0;
      std::fprintf(stderr, "\ranalysing: %3d%% (%" PRIu64 " packets)", pct, p.packets);
    };
  }
  IngestOptions opts;
  if (!args.genre.empty()) opts.analysis.stall_ms = ana::genreStallMs(args.genre);
  if (args.stall_ms > 0) opts.analysis.stall_ms = args.stall_ms;  // explicit wins over the genre
  opts.dissector_lanes = args.jobs;
  opts.threaded_store = args.jobs != 1;
  IngestResult r = ingestCapture(args.capture, db, args.dissectors, opts, progress);
  if (showProgress) std::fprintf(stderr, "\r\033[K");
  if (r.capture.truncated) std::fprintf(stderr, "rudpscope-cli: warning: %s\n", r.capture.warning.c_str());

  // The summary is read back from the database, as the GUI will read it.
  StoreReader reader(r.db_path);
  CaptureInfo info = reader.capture();
  auto conns = reader.connections();
  if (args.json) std::printf("%s\n", summaryJson(reader.database(), r.db_path, info, conns).dump(2).c_str());
  else printTable(r.db_path, info, conns);
  return 0;
}

}  // namespace rudp::cli
