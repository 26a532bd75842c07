// rudpscope-cli subcommands. Each returns the process exit status.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/progress.h"
#include "lua/dissector_files.h"
#include "session/ingest.h"

namespace rudp::cli {

struct DecodeArgs {
  std::string capture;
  std::vector<std::string> fields;
  bool details = false;             // -V: the details tree instead of fields
  std::vector<std::string> expand;  // -O: the protocols -V expands (implies -V)
  std::string display_filter;       // -Y: only the frames it passes
  DissectorOptions dissectors;
  bool keep_damaged = false;  // a damaged capture: exit 0 after the frames before the damage
};

struct AnalyzeArgs {
  std::string capture;
  std::string db;  // empty: default location
  bool json = false;
  bool quiet = false;
  unsigned jobs = 0;     // dissector lanes; 0 = one per core
  double stall_ms = -1;  // <0: default or the genre's
  std::string genre;
  std::vector<double> rtt_limits;  // empty: default or the genre's
  bool no_analysis = false;        // packet index and connections only (benchmarks)
  size_t max_open = 0;             // 0: IngestOptions' default
  bool keep_damaged = false;       // IngestOptions::keep_damaged
  std::string display_filter;      // IngestOptions::display_filter (-Y)
  DissectorOptions dissectors;
};

struct ReportArgs {
  AnalyzeArgs analysis;  // how to analyse the capture when no database can be reused
  std::string output;    // the HTML file (-w/--output: -o is the preference option)
  size_t top = 3;        // timelines of the worst N connections
};

// rudpscope-cli dissector infer (dissector_command.cpp).
struct DissectorInferArgs {
  AnalyzeArgs analysis;  // how to analyse the capture when no database can be reused
  std::string output;    // the Lua file (-w)
};

// rudpscope-cli wireshark ACTION (wireshark_command.cpp).
struct WiresharkArgs {
  std::string action;  // install, status, uninstall, open
  bool force = false;  // install: overwrite files rudpscope did not install
  // open: the capture, which frames (--frames LIST or --conn N from its
  // database), where to write them, and what to ask of Wireshark.
  std::string capture, frames, db, output, displayFilter;
  int64_t conn = 0;
  uint64_t goToFrame = 0;
  bool dryRun = false;
};

// rudpscope-cli capture: a live capture analysed as it runs (capture_command.cpp).
struct CaptureArgs {
  AnalyzeArgs analysis;        // analysis.capture is the pcapng written (-w)
  LiveOptions live;            // live.output is set from analysis.capture
  bool noPromiscuous = false;  // -p, as tcpdump and dumpcap spell it
  std::string ring;            // --ring N:MB
};

// rudpscope-cli compare: the comparison table and matrix of captures (compare_command.cpp).
struct CompareArgs {
  AnalyzeArgs analysis;             // settings for captures that need analysing; capture unused
  std::vector<std::string> inputs;  // captures and folders of captures
  std::vector<std::string> labels;  // KEY=VALUE, over every capture's own
  bool json = false, csv = false;
  std::string html;  // also write the comparison as an HTML page
  std::string metric = "share_over_300", x = "loss", group = "stack", panel = "delay";
  std::string direction = "c2s";  // c2s or s2c: the direction the matrix reads
};

int runDecode(const DecodeArgs& args);
int runDissectorInfer(const DissectorInferArgs& args);
int runCompare(const CompareArgs& args);
int runCapture(CaptureArgs& args);
int runInterfaces(bool json);
int runAnalyze(const AnalyzeArgs& args);
int runReport(const ReportArgs& args);
int runWireshark(const WiresharkArgs& args);

// Shared by the subcommands that analyse (ingest_run.cpp).
// The ingest settings the arguments ask for (--genre, then --stall-ms wins).
IngestOptions ingestOptions(const AnalyzeArgs& args);
// A progress line on stderr when it is a terminal and not --quiet.
ProgressSink terminalProgress(bool quiet);
// Each line as "rudpscope-cli: warning: LINE" on stderr.
void printWarnings(const std::vector<std::string>& lines);
// Analyses the capture into `db` and prints the one-line warnings (cut-off
// capture, connections closed early) on stderr.
IngestResult ingestWithWarnings(const AnalyzeArgs& args, const std::string& db);
// Prints the summary `analyze` prints (a table, or JSON) from the database.
void printSummary(const std::string& dbPath, bool json);

}  // namespace rudp::cli
