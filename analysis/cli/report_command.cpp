// rudpscope-cli report: the HTML report of a capture, from its database when
// that is a complete analysis of the same file with the same settings, else
// from a fresh analysis (as `analyze` makes it).
#include <cstdio>

#include "cli/commands.h"
#include "report/html_report.h"
#include "session/reuse.h"
#include "store/db_path.h"
#include "store/store_reader.h"

namespace rudp::cli {

int runReport(const ReportArgs& args) {
  std::string db = args.analysis.db.empty() ? defaultDatabasePath(args.analysis.capture) : args.analysis.db;
  if (!whyNotReusable(args.analysis.capture, db, args.analysis.dissectors, ingestOptions(args.analysis))
           .empty()) {
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
    std::printf("%s: %zu problem%s%s%s\n", args.output.c_str(), problems.size(),
                problems.size() == 1 ? "" : "s",
                problems.empty() ? "" : "; worst: ", problems.empty() ? "" : problems.front().text.c_str());
  return 0;
}

}  // namespace rudp::cli
