#include <unistd.h>

#include <algorithm>
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

// A connection's JSON object as `analyze --json` prints it, read from the
// database with statements prepared once (the summary streams connection by
// connection, so a capture of a million connections prints in bounded memory).
class ConnectionJson {
 public:
  explicit ConnectionJson(sql::Database& db)
      : conn_(db, "SELECT vantage, handshake_ms, connect_attempts, disconnected"
                  " FROM connection_analysis WHERE conn = ?"),
        dir_(db, "SELECT * FROM direction_metrics WHERE conn = ? AND dir = ?"),
        bursts_(db, "SELECT length, count FROM loss_bursts WHERE conn = ? AND dir = ? ORDER BY length"),
        stalls_(db, "SELECT start_ns, end_ns, duration_ms, cause, first_frame, last_frame,"
                    " retransmissions, open, estimated FROM stalls WHERE conn = ? AND dir = ? ORDER BY start_ns") {
    sql::Statement lim(db, "SELECT key, value FROM meta WHERE key LIKE 'rtt_limit_%' ORDER BY key");
    while (lim.step()) limits_.emplace_back("rtt_above_" + lim.text(0).substr(10), lim.text(1));
  }

  nlohmann::json operator()(const ConnectionSummary& x) {
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
    conn_.reset();
    conn_.bind(1, x.id);
    if (conn_.step()) {
      j["vantage"] = conn_.text(0);
      j["handshake_ms"] = conn_.isNull(1) ? nlohmann::json(nullptr) : nlohmann::json(conn_.real(1));
      j["connect_attempts"] = conn_.int64(2);
      j["disconnected"] = conn_.int64(3) != 0;
    }
    addAnalysis(x.id, 0, j["directions"]["client_to_server"]);
    addAnalysis(x.id, 1, j["directions"]["server_to_client"]);
    return j;
  }

 private:
  // The connection-analysis part of a direction: the JSON contract's keys
  // (retransmissions*, lost, loss_bursts, reordered, duplicates, rtt_ms,
  // jitter_ms, stalls) and the rest of direction_metrics as they are.
  void addAnalysis(int64_t conn, int dir, nlohmann::json& d) {
    dir_.reset();
    dir_.bind(1, conn).bind(2, int64_t{dir});
    if (!dir_.step()) return;
    nlohmann::json row = rowJson(dir_);
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
    rtt["share_above"] = nlohmann::json::object();
    for (const auto& [col, limit] : limits_) {
      rtt["share_above"][limit] = d[col];
      d.erase(col);
    }
    d["rtt_ms"] = rtt;

    bursts_.reset();
    bursts_.bind(1, conn).bind(2, int64_t{dir});
    d["loss_bursts"] = nlohmann::json::object();
    while (bursts_.step()) d["loss_bursts"][std::to_string(bursts_.int64(0))] = bursts_.int64(1);

    sql::Statement& s = stalls_;
    s.reset();
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

  sql::Statement conn_, dir_, bursts_, stalls_;
  std::vector<std::pair<std::string, std::string>> limits_;  // column, limit in ms
};

nlohmann::json captureJson(const CaptureInfo& c) {
  return {{"path", c.path},
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
}

// `v.dump(2)` nested `depth` levels deep in an indent-2 document.
std::string nested(const nlohmann::json& v, int depth) {
  std::string out = v.dump(2), pad(size_t(depth) * 2, ' ');
  std::string r;
  r.reserve(out.size() + out.size() / 8);
  for (char ch : out) {
    r += ch;
    if (ch == '\n') r += pad;
  }
  return r;
}

// The JSON document, streamed: what `json{capture, connections, database}.dump(2)` would print.
void printJson(StoreReader& reader, const std::string& dbPath, const CaptureInfo& info) {
  std::printf("{\n  \"capture\": %s,\n  \"connections\": [", nested(captureJson(info), 1).c_str());
  ConnectionJson conn(reader.database());
  bool any = false;
  reader.forEachConnection([&](const ConnectionSummary& x) {
    std::printf("%s\n    %s", any ? "," : "", nested(conn(x), 2).c_str());
    any = true;
  });
  std::printf("%s],\n  \"database\": %s\n}\n", any ? "\n  " : "", nlohmann::json(dbPath).dump().c_str());
}

std::string num(const nlohmann::json& v, const char* fmt = "%.1f") {
  if (!v.is_number()) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, fmt, v.get<double>());
  return buf;
}

// The human-readable summary: one line per connection, one per direction.
void printTableHeader(const nlohmann::json& c, const std::string& dbPath) {
  std::printf("capture   %s (%s, %s, %s packets, %.3f s)\n", c["path"].get<std::string>().c_str(),
              c["format"].get<std::string>().c_str(), c["link_type_name"].get<std::string>().c_str(),
              c["packets"].dump().c_str(),
              c["packets"].get<uint64_t>() ? c["last_time"].get<double>() - c["first_time"].get<double>() : 0.0);
  std::printf("database  %s\n", dbPath.c_str());
  if (c["decode_errors"] != 0 || c["malformed"] != 0 || c["dissector_errors"] != 0)
    std::printf("problems  %s undecodable, %s malformed, %s dissector errors\n",
                c["decode_errors"].dump().c_str(), c["malformed"].dump().c_str(),
                c["dissector_errors"].dump().c_str());
  std::printf("\n%4s  %-8s  %-44s  %-10s  %-7s  %8s\n", "#", "protocol", "client -> server", "conn_id",
              "vantage", "seconds");
  std::printf("      %-4s %8s %10s %5s %5s %5s %5s %6s %8s %8s %8s %7s %7s  %s\n", "dir", "packets",
              "bytes", "retx", "tmo", "fast", "spur", "lost", "rtt p50", "rtt p95", "rtt max",
              ">300ms", "jitter", "stalls");
}

void printTableRows(const nlohmann::json& x) {
  {
    char id[16] = "-";
    if (x["conn_id"].is_number())
      std::snprintf(id, sizeof id, "0x%08" PRIx64, x["conn_id"].get<uint64_t>());
    std::string ends = x["client"].get<std::string>() + " -> " + x["server"].get<std::string>();
    std::printf("%4s  %-8s  %-44s  %-10s  %-7s  %8.3f\n", x["id"].dump().c_str(),
                x["protocol"].get<std::string>().c_str(), ends.c_str(), id,
                x["vantage"].get<std::string>().c_str(),
                x["last_time"].get<double>() - x["first_time"].get<double>());
    for (const char* dir : {"client_to_server", "server_to_client"}) {
      const auto& d = x["directions"][dir];
      auto n = [&](const char* k) { return d.contains(k) ? d[k].dump() : std::string("-"); };
      std::string stalls = "-";
      if (d.contains("stalls") && !d["stalls"].empty()) {
        double longest = 0;
        for (const auto& st : d["stalls"]) longest = std::max(longest, st["duration_ms"].get<double>());
        stalls = std::to_string(d["stalls"].size()) + " (longest " + num(longest, "%.0f") + " ms)";
      }
      const nlohmann::json none;
      const auto& rtt = d.contains("rtt_ms") ? d["rtt_ms"] : none;
      // Samples that are not full round trips (the capture is at the data's
      // receiver, or in the middle) are marked, since they read differently.
      const bool partial = rtt.is_object() && rtt["span"].is_string() && rtt["span"] != "round_trip" &&
                           rtt["samples"].is_number() && rtt["samples"].get<uint64_t>() > 0;
      const char* mark = partial ? "~" : "";
      std::string above = "-";
      if (rtt.is_object() && rtt["share_above"].contains("300") && rtt["share_above"]["300"].is_number())
        above = num(rtt["share_above"]["300"].get<double>() * 100, "%.1f%%");
      std::printf("      %-4s %8s %10s %5s %5s %5s %5s %6s %8s %8s %8s %7s %7s  %s\n",
                  dir[0] == 'c' ? "c>s" : "s>c", n("packets").c_str(), n("bytes").c_str(),
                  n("retransmissions").c_str(), n("retransmissions_timeout").c_str(),
                  n("retransmissions_fast").c_str(), n("retransmissions_spurious").c_str(),
                  n("lost").c_str(), (num(rtt.is_object() ? rtt["p50"] : none) + mark).c_str(),
                  (num(rtt.is_object() ? rtt["p95"] : none) + mark).c_str(),
                  (num(rtt.is_object() ? rtt["max"] : none) + mark).c_str(), above.c_str(),
                  num(d.contains("jitter_ms") ? d["jitter_ms"] : none).c_str(), stalls.c_str());
    }
  }
}

void printTableFooter() {
  std::printf("\nRTT in ms, for the direction whose data was acknowledged; ~: not a full round trip"
              " (the capture sits at that data's receiver or mid-path); >300ms: share of RTT samples"
              " above 300 ms.\n");
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
  opts.analyze_connections = !args.no_analysis;
  opts.threaded_store = args.jobs != 1;
  if (args.max_open > 0) opts.max_open_connections = args.max_open;
  IngestResult r = ingestCapture(args.capture, db, args.dissectors, opts, progress);
  if (showProgress) std::fprintf(stderr, "\r\033[K");
  if (r.capture.truncated) std::fprintf(stderr, "rudpscope-cli: warning: %s\n", r.capture.warning.c_str());
  if (r.closed_early > 0)
    std::fprintf(stderr,
                 "rudpscope-cli: warning: %zu connections were closed early: more than %zu were open at once"
                 " (--max-open); their later packets were counted as new connections\n",
                 r.closed_early, opts.max_open_connections);

  // The summary is read back from the database, as the GUI will read it.
  StoreReader reader(r.db_path);
  CaptureInfo info = reader.capture();
  if (args.json) {
    printJson(reader, r.db_path, info);
    return 0;
  }
  printTableHeader(captureJson(info), r.db_path);
  ConnectionJson conn(reader.database());
  reader.forEachConnection([&](const ConnectionSummary& x) { printTableRows(conn(x)); });
  printTableFooter();
  return 0;
}

}  // namespace rudp::cli
