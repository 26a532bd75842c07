// rudpscope-cli report: the HTML report of a capture, from its database when
// that is a complete analysis of the same file with the same settings, else
// from a fresh analysis (as `analyze` makes it).
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>

#include "cli/commands.h"
#include "core/error.h"
#include "core/file_hash.h"
#include "report/html_report.h"
#include "store/db_path.h"
#include "store/store_reader.h"

namespace fs = std::filesystem;

namespace rudp::cli {

namespace {

bool sameSetting(double a, double b) {
  // The database keeps settings with 6 significant digits ("%g").
  return std::abs(a - b) <= 1e-5 * std::max(1.0, std::abs(a));
}

bool sameLimits(const std::vector<double>& stored, const std::array<double, 3>& wanted) {
  if (stored.size() != wanted.size()) return false;
  for (size_t i = 0; i < stored.size(); ++i)
    if (!sameSetting(stored[i], wanted[i])) return false;
  return true;
}

// A database names the script of each protocol by its file name only.
std::string scriptName(const std::string& path) { return fs::path(path).filename().string(); }

// The names of the dissector scripts a run with these options would load.
std::set<std::string> scriptsFor(const DissectorOptions& d) {
  std::set<std::string> out;
  if (d.load_defaults) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(defaultDissectorDir(), ec))
      if (e.is_regular_file() && e.path().extension() == ".lua") out.insert(scriptName(e.path().string()));
  }
  for (const auto& s : d.extra_scripts) out.insert(scriptName(s));
  return out;
}

// Why the database cannot stand for analysing the capture now (empty: it can).
// Preferences (-o) are not recorded in a database, so a run with any is
// analysed afresh; the scripts are, by name, through the protocols they
// registered.
std::string whyNotReusable(const std::string& db, const AnalyzeArgs& args) {
  if (!fs::exists(db)) return "no database yet";
  if (!args.dissectors.prefs.empty()) return "preferences given";
  if (args.no_analysis) return "--no-analysis";
  try {
    StoreReader reader(db);
    const CaptureInfo info = reader.capture();
    if (info.hash_algorithm != kFileHashAlgorithm || info.hash != hashFile(args.capture))
      return "the capture changed";
    const AnalysisSettings stored = reader.settings();
    const ana::AnalyzerConfig wanted = ingestOptions(args).analysis;
    if (!sameSetting(stored.stall_ms, wanted.stall_ms) || !sameLimits(stored.rtt_limits_ms, wanted.rtt_limits_ms))
      return "other analysis settings";
    const std::set<std::string> loaded = scriptsFor(args.dissectors);
    std::set<std::string> used;
    for (const auto& p : reader.protocols()) used.insert(scriptName(p.script));
    for (const auto& s : used)
      if (!loaded.count(s)) return "other dissectors";
    for (const auto& s : args.dissectors.extra_scripts)
      if (!used.count(scriptName(s))) return "other dissectors";
    if (auto first = reader.connection(1); first && !first->has_analysis) return "made with --no-analysis";
  } catch (const StoreError& e) {
    return e.what();
  }
  return {};
}

}  // namespace

int runReport(const ReportArgs& args) {
  std::string db = args.analysis.db.empty() ? defaultDatabasePath(args.analysis.capture) : args.analysis.db;
  if (!whyNotReusable(db, args.analysis).empty()) {
    db = ingestWithWarnings(args.analysis, db).db_path;
  } else if (!args.analysis.quiet) {
    std::fprintf(stderr, "rudpscope-cli: using the analysis in %s\n", db.c_str());
  }

  StoreReader reader(db);
  const std::vector<Problem> problems = findProblems(reader);
  report::HtmlReportOptions options;
  options.top_connections = args.top;
  options.generator = std::string("rudpscope-cli ") + RUDPSCOPE_VERSION;
  report::writeHtmlReportFile(reader, problems, args.output, options);
  if (!args.analysis.quiet)
    std::printf("%s: %zu problem%s%s%s\n", args.output.c_str(), problems.size(), problems.size() == 1 ? "" : "s",
                problems.empty() ? "" : "; worst: ", problems.empty() ? "" : problems.front().text.c_str());
  return 0;
}

}  // namespace rudp::cli
