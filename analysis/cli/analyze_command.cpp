
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/summary_json.h"
#include "cli/summary_table.h"
#include "session/ingest.h"
#include "store/db_path.h"
#include "store/store_reader.h"

namespace rudp::cli {

namespace {

// The JSON document, streamed connection by connection (memory independent of
// the count): what `json{capture, connections, database}.dump(2)` would print.
void printJson(StoreReader& reader, const std::string& dbPath, const CaptureInfo& info) {
  nlohmann::json capture = captureJson(info);
  if (auto live = reader.liveCapture()) capture["live"] = liveCaptureJson(*live);
  auto nested = [](const nlohmann::json& v, int depth) {
    std::string out = v.dump(2), pad(size_t(depth) * 2, ' '), r;
    r.reserve(out.size() + out.size() / 8);
    for (char ch : out) {
      r += ch;
      if (ch == '\n') r += pad;
    }
    return r;
  };
  std::printf("{\n  \"capture\": %s,\n  \"connections\": [", nested(capture, 1).c_str());
  const std::vector<double> limits = reader.settings().rtt_limits_ms;
  bool any = false;
  reader.forEachConnectionRecord([&](const ConnectionRecord& x) {
    std::printf("%s\n    %s", any ? "," : "", nested(connectionJson(x, limits), 2).c_str());
    any = true;
  });
  std::printf("%s],\n  \"database\": %s\n}\n", any ? "\n  " : "", nlohmann::json(dbPath).dump().c_str());
}

}  // namespace

void printSummary(const std::string& dbPath, bool json) {
  // The summary is read back from the database, as the GUI reads it.
  StoreReader reader(dbPath);
  CaptureInfo info = reader.capture();
  if (json) {
    printJson(reader, dbPath, info);
    return;
  }
  printTableHeader(info, dbPath);
  if (auto live = reader.liveCapture()) printLiveCapture(*live);
  const std::vector<double> limits = reader.settings().rtt_limits_ms;
  reader.forEachConnectionRecord([&](const ConnectionRecord& x) { printTableRows(x, limits); });
  printTableFooter();
}

int runAnalyze(const AnalyzeArgs& args) {
  const std::string db = args.db.empty() ? defaultDatabasePath(args.capture) : args.db;
  IngestResult r = ingestWithWarnings(args, db);
  printSummary(r.db_path, args.json);
  return 0;
}

}  // namespace rudp::cli
