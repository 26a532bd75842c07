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

nlohmann::json summaryJson(const std::string& dbPath, const CaptureInfo& c,
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
  LuaHost host;
  loadDissectors(host, args.dissectors);
  const std::string db = args.db.empty() ? defaultDatabasePath(args.capture) : args.db;

  ProgressSink progress;
  const bool showProgress = !args.quiet && ::isatty(STDERR_FILENO);
  if (showProgress) {
    progress.report = [](const Progress& p) {
      int pct = p.total ? static_cast<int>(100.0 * static_cast<double>(p.done) / p.total) : 0;
      std::fprintf(stderr, "\ranalysing: %3d%% (%" PRIu64 " packets)", pct, p.packets);
    };
  }
  IngestResult r = ingestCapture(args.capture, db, host, progress);
  if (showProgress) std::fprintf(stderr, "\r\033[K");
  if (r.capture.truncated) std::fprintf(stderr, "rudpscope-cli: warning: %s\n", r.capture.warning.c_str());

  // The summary is read back from the database, as the GUI will read it.
  StoreReader reader(r.db_path);
  CaptureInfo info = reader.capture();
  auto conns = reader.connections();
  if (args.json) std::printf("%s\n", summaryJson(r.db_path, info, conns).dump(2).c_str());
  else printTable(r.db_path, info, conns);
  return 0;
}

}  // namespace rudp::cli
