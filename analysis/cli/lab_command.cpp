// rudpscope-cli lab: every stack at every loss rate and delay, each run in
// fresh network namespaces (tests/lab/lab_cell.sh), captured at the client,
// analysed, checked against the endpoints' own counters, and the capture
// set's matrix at the end. See tests/lab/README.md.
#include "cli/lab_command.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "cli/commands.h"
#include "cli/lab_enet_resends.h"
#include "cli/lab_report.h"
#include "cli/lab_tools.h"
#include "cli/summary_json.h"
#include "compare/metric_list.h"
#include "core/error.h"
#include "session/capture_set.h"
#include "store/store_reader.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace rudp::cli {
namespace {

// The client's address in lab_cell.sh (three_ns_setup rlab 79).
const std::string kLabClientIp = "10.79.1.2";

void checkArgs(const LabArgs& args) {
  for (const auto& s : args.stacks)
    if (std::find(labStacks().begin(), labStacks().end(), s) == labStacks().end()) {
      std::string known;
      for (const auto& k : labStacks()) known += (known.empty() ? "" : ", ") + k;
      throw Error("lab: unknown stack '" + s + "' (known: " + known + ")");
    }
  for (double l : args.loss_percent)
    if (!(l >= 0 && l <= 100)) throw Error("lab: loss " + labNumber(l) + " % is not within 0-100");
  for (double d : args.delay_ms)
    if (!(d >= 0 && d <= 10000)) throw Error("lab: delay " + labNumber(d) + " ms is not within 0-10000");
  cmp::metric(args.metric);  // throws for an unknown metric, before any run
}

// The stacks whose programs are there; one line for each that is not.
std::vector<std::string> usableStacks(const std::vector<std::string>& stacks, const std::string& tools) {
  std::vector<std::string> out;
  for (const auto& s : stacks) {
    if (std::find(out.begin(), out.end(), s) != out.end()) continue;
    if (const std::string missing = missingLabTool(tools, s); !missing.empty())
      std::printf("%-9s skipped: %s\n", s.c_str(), missing.c_str());
    else
      out.push_back(s);
  }
  return out;
}

// The capture's connections as `analyze --json` prints them.
json analysedConnections(const std::string& db) {
  StoreReader reader(db);
  const std::vector<double> limits = reader.settings().rtt_limits_ms;
  json all = json::array();
  reader.forEachConnectionRecord(
      [&](const ConnectionRecord& x) { all.push_back(connectionJson(x, limits)); });
  return all;
}

// The capture set's TLS key log: each QUIC cell's client secrets appended,
// so every analysis of the set (the cells', the matrix's, a user's later
// `compare DIR/*.pcapng -o tls.keylog_file:DIR/tls.keylog`) reads QUIC alike.
fs::path labKeyLog(const std::string& output) { return fs::path(output) / "tls.keylog"; }

DissectorOptions labDissectorOptions(const std::string& output) {
  DissectorOptions opts;
  if (fs::exists(labKeyLog(output))) opts.prefs.emplace_back("tls.keylog_file", labKeyLog(output).string());
  return opts;
}

void appendKeyLog(const LabCellOutcome& o, const std::string& output) {
  const fs::path cellKeys = fs::path(o.files.counters) / "client.keylog";
  std::ifstream in(cellKeys);
  std::ofstream out(labKeyLog(output), std::ios::app);
  if (!in || !(out << in.rdbuf()) || !out.flush())
    throw Error("lab: cannot append " + cellKeys.string() + " to " + labKeyLog(output).string());
}

void analyseAndCheck(LabCellOutcome& o, const json& counters, const std::string& output) {
  std::ofstream(o.files.sidecar) << o.cell.labelText() << "\n";
  if (o.cell.stack == "quic") appendKeyLog(o, output);
  const cmp::AnalysedCapture a =
      cmp::ensureAnalysed(o.files.capture, labDissectorOptions(output), ingestOptions(AnalyzeArgs{}));
  for (const auto& w : a.warnings) std::fprintf(stderr, "rudpscope-cli: warning: %s\n", w.c_str());
  const uint64_t discResends =
      o.cell.stack == "enet" ? enetDisconnectResends(o.files.capture, kLabClientIp, DissectorOptions{}) : 0;
  o.check = checkLabCell(o.cell, counters, analysedConnections(a.db), discResends);
  o.captured = true;
  o.state = o.check.pass ? LabCellOutcome::State::Passed : LabCellOutcome::State::Failed;
}

LabCellOutcome runCell(const LabArgs& args, const std::string& tools, const LabCell& cell) {
  LabCellOutcome o;
  o.cell = cell;
  o.files = labCellFiles(args.output, cell);
  fs::create_directories(o.files.counters);
  const int status = runLabCell(tools, cell, {args.seconds, args.seed, args.capture_as}, o.files);
  const json counters = readLabCounters(o.files.counters);
  if (labInterrupted()) {
    o.why = "interrupted";
  } else if (status == 77) {
    o.state = LabCellOutcome::State::Skipped;
    o.why = "cannot run here (the line above says why)";
  } else if (status != 0) {
    o.why = "the run failed (status " + std::to_string(status) + "), see " + o.files.counters + "/lab.log";
  } else {
    analyseAndCheck(o, counters, args.output);
  }
  writeLabCellResult(o, counters, args.seconds);
  printLabCellLine(o);
  return o;
}

cmp::MatrixRequest matrixRequest(const LabArgs& args) {
  cmp::MatrixRequest q;
  q.metric = args.metric;
  return q;  // x = loss, one line per stack, one panel per delay, client -> server
}

int finish(const LabArgs& args, const std::vector<LabCellOutcome>& outcomes) {
  std::vector<std::string> captures;
  size_t passed = 0, failed = 0, skipped = 0;
  for (const auto& o : outcomes) {
    if (o.captured) captures.push_back(o.files.capture);
    passed += o.state == LabCellOutcome::State::Passed;
    failed += o.state == LabCellOutcome::State::Failed;
    skipped += o.state == LabCellOutcome::State::Skipped;
  }
  if (!captures.empty()) {
    const cmp::Matrix m =
        writeLabMatrix(args.output, captures, matrixRequest(args), labDissectorOptions(args.output));
    std::printf(
        "matrix: %s (%s against loss, one line per stack, one panel per delay, client->server; "
        "every metric in comparison.csv)\n",
        (fs::path(args.output) / "matrix.csv").string().c_str(), m.request.metric.c_str());
    for (const auto& s : m.skipped) std::printf("matrix: left out %s\n", s.c_str());
  }
  std::printf("%zu cells: %zu passed, %zu failed, %zu skipped\n", outcomes.size(), passed, failed, skipped);
  return failed > 0 || passed == 0 ? 1 : 0;
}

}  // namespace

CLI::App* addLabCommand(CLI::App& app, LabArgs& args) {
  auto* cmd = app.add_subcommand("lab", "Run the stack comparison experiment in network namespaces (root)");
  cmd->add_option("--stacks", args.stacks, "tcp-cubic,tcp-bbr,grudp,enet,kcp,quic,udt,raknet")
      ->delimiter(',')
      ->required();
  cmd->add_option("--loss", args.loss_percent, "Loss rates in %, e.g. 1,3,5")->delimiter(',')->required();
  cmd->add_option("--delay", args.delay_ms, "One-way delays in ms, e.g. 30,50")->delimiter(',')->required();
  cmd->add_option("--seconds", args.seconds, "Seconds per run (default 60)")->check(CLI::PositiveNumber);
  cmd->add_option("-o,--output", args.output, "Folder for the capture set")->required();
  cmd->add_option("--metric", args.metric, "The matrix's metric (default share_over_300; see compare)");
  cmd->add_option("--seed", args.seed, "Seed of the endpoints' message streams (default 1)");
  cmd->add_option("--capture-as", args.capture_as,
                  "Capture as USER, a member of the wireshark group, through dumpcap (default: as root)");
  return cmd;
}

int runLab(const LabArgs& args) {
  if (::geteuid() != 0) {
    std::fprintf(stderr, "lab needs root: it creates network namespaces; run it with sudo\n");
    return 2;
  }
  checkArgs(args);
  const std::string tools = labToolsDir();
  if (tools.empty())
    throw Error(
        "lab: its programs (lab_cell.sh, delay_relay, ...) are not installed beside rudpscope-cli "
        "(lib/rudpscope/lab) nor in the build tree (tests/lab/tools); set RUDPSCOPE_LAB_DIR");
  const std::vector<std::string> stacks = usableStacks(args.stacks, tools);
  if (stacks.empty()) throw Error("lab: no stack can run here");
  fs::create_directories(args.output);
  std::printf("%s\n", labImpairmentLine().c_str());
  catchLabSignals();
  std::vector<LabCellOutcome> outcomes;
  for (const auto& stack : stacks)
    for (double loss : args.loss_percent)
      for (double delay : args.delay_ms) {
        outcomes.push_back(runCell(args, tools, LabCell{stack, loss, delay}));
        if (labInterrupted()) {
          std::fprintf(stderr, "lab: interrupted; the namespaces were removed, %s keeps the cells so far\n",
                       args.output.c_str());
          return 130;
        }
      }
  return finish(args, outcomes);
}

}  // namespace rudp::cli
