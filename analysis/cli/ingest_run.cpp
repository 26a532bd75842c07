// Analysing a capture for a subcommand: settings from the arguments, the
// progress line and the warnings.
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <functional>

#include "analyzers/genre.h"
#include "cli/commands.h"
#include "decode/capture_warnings.h"
#include "filter/filter_syntax.h"

namespace rudp::cli {

IngestOptions ingestOptions(const AnalyzeArgs& args) {
  IngestOptions opts;
  if (!args.genre.empty()) opts.analysis.stall_ms = ana::genreStallMs(args.genre);
  if (args.stall_ms > 0) opts.analysis.stall_ms = args.stall_ms;  // explicit wins over the genre
  if (const auto limits = ana::genreRttLimitsMs(args.genre)) opts.analysis.rtt_limits_ms = *limits;
  if (!args.rtt_limits.empty()) {
    auto& limits = opts.analysis.rtt_limits_ms;
    if (args.rtt_limits.size() != limits.size() ||
        !std::is_sorted(args.rtt_limits.begin(), args.rtt_limits.end(), std::less_equal<>()))
      throw Error("--rtt-limits takes three rising limits in ms, e.g. --rtt-limits 150,250,300");
    std::copy(args.rtt_limits.begin(), args.rtt_limits.end(), limits.begin());
  }
  opts.dissector_lanes = args.jobs;
  opts.analyze_connections = !args.no_analysis;
  opts.threaded_store = args.jobs != 1;
  opts.threaded_flows = args.jobs != 1;
  if (args.max_open > 0) opts.max_open_connections = args.max_open;
  opts.keep_damaged = args.keep_damaged;
  opts.display_filter = args.display_filter;
  return opts;
}

void printWarnings(const std::vector<std::string>& lines) {
  for (const std::string& line : lines) std::fprintf(stderr, "rudpscope-cli: warning: %s\n", line.c_str());
}

ProgressSink terminalProgress(bool quiet) {
  ProgressSink progress;
  if (quiet || !::isatty(STDERR_FILENO)) return progress;
  progress.report = [](const Progress& p) {
    int pct = p.total ? static_cast<int>(100.0 * static_cast<double>(p.done) / p.total) : 0;
    std::fprintf(stderr, "\ranalysing: %3d%% (%" PRIu64 " packets)", pct, p.packets);
  };
  return progress;
}

IngestResult ingestWithWarnings(const AnalyzeArgs& args, const std::string& db) {
  const IngestOptions opts = ingestOptions(args);
  const ProgressSink progress = terminalProgress(args.quiet);
  IngestResult r;
  try {
    r = ingestCapture(args.capture, db, args.dissectors, opts, progress);
  } catch (const FilterError& e) { throw Error(describeFilterError("-Y", args.display_filter, e)); }
  if (progress.report) std::fprintf(stderr, "\r\033[K");
  printWarnings(splitLines(r.capture.warning));
  if (r.closed_early > 0)
    std::fprintf(stderr,
                 "rudpscope-cli: warning: %zu connections were closed early: more than %zu were open at once"
                 " (--max-open); their later packets were counted as new connections\n",
                 r.closed_early, opts.max_open_connections);
  if (!opts.display_filter.empty())
    std::fprintf(stderr, "rudpscope-cli: -Y \"%s\": %" PRIu64 " frames analysed, %" PRIu64 " left out\n",
                 opts.display_filter.c_str(), r.capture.packet_count, r.filtered_out);
  return r;
}

}  // namespace rudp::cli
