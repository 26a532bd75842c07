#include "cli/lab_report.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "cli/commands.h"
#include "cli/compare_output.h"
#include "cli/lab_tools.h"
#include "core/error.h"
#include "session/capture_set.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace rudp::cli {
namespace {

const char* stateName(LabCellOutcome::State s) {
  switch (s) {
    case LabCellOutcome::State::Passed: return "PASS";
    case LabCellOutcome::State::Failed: return "FAIL";
    case LabCellOutcome::State::Skipped: return "SKIP";
  }
  return "?";
}

void writeFile(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out) throw Error("lab: cannot write " + path);
}

std::string figure(const json& figures, const char* key, const char* format) {
  const auto it = figures.find(key);
  if (it == figures.end() || !it->is_number()) return "–";
  char buf[32];
  std::snprintf(buf, sizeof buf, format, it->get<double>());
  return buf;
}

}  // namespace

void writeLabCellResult(const LabCellOutcome& o, const json& counters, double seconds) {
  const json doc = {
      {"cell",
       {{"stack", o.cell.stack},
        {"loss_percent", o.cell.loss_percent},
        {"delay_ms", o.cell.delay_ms},
        {"seconds", seconds}}},
      {"labels", o.cell.labelText()},
      {"capture", fs::path(o.files.capture).filename().string()},
      {"impairment",
       "one-way delay: delay_relay (AF_PACKET bridge in the router namespace, every frame held "
       "delay_ms each way); loss: nftables numgen random drop on the relay's output (netdev egress), "
       "each direction"},
      {"netem_available", kernelHasNetem()},
      {"result", stateName(o.state)},
      {"why", o.why},
      {"checks", o.check.checks},
      {"failures", o.check.failures},
      {"figures", o.check.figures},
      {"counters", counters}};
  writeFile(o.files.result, doc.dump(2) + "\n");
}

void printLabCellLine(const LabCellOutcome& o) {
  const json& f = o.check.figures;
  std::printf("%-9s loss %4s%%  delay %4s ms  %s", o.cell.stack.c_str(),
              labNumber(o.cell.loss_percent).c_str(), labNumber(o.cell.delay_ms).c_str(), stateName(o.state));
  if (o.state == LabCellOutcome::State::Skipped || !o.why.empty()) {
    std::printf("  %s\n", o.why.c_str());
  } else {
    std::printf(
        "  path rtt %s ms (asked 2x%s)  c2s rtt p50 %s  c2s retx %s  s2c retx %s  drops %s/%s  checks %zu\n",
        figure(f, "path_rtt_ms", "%.2f").c_str(), labNumber(o.cell.delay_ms).c_str(),
        figure(f, "c2s_rtt_p50_ms", "%.2f").c_str(), figure(f, "c2s_retransmissions", "%.0f").c_str(),
        figure(f, "s2c_retransmissions", "%.0f").c_str(), figure(f, "drop_c2s", "%.0f").c_str(),
        figure(f, "drop_s2c", "%.0f").c_str(), o.check.checks.size());
  }
  for (const auto& failure : o.check.failures) std::printf("    failed: %s\n", failure.c_str());
  std::fflush(stdout);
}

cmp::Matrix writeLabMatrix(const std::string& outputDir, const std::vector<std::string>& captures,
                           const cmp::MatrixRequest& request, const DissectorOptions& dissectors) {
  std::vector<cmp::AnalysedCapture> analysed;
  const auto rows = cmp::compareCaptures(captures, {}, dissectors, ingestOptions(AnalyzeArgs{}), &analysed);
  cmp::Matrix matrix = cmp::buildMatrix(rows, request);
  const fs::path dir(outputDir);
  std::ofstream csv(dir / "matrix.csv"), table(dir / "comparison.csv");
  cmp::writeMatrixCsv(csv, matrix);
  writeComparisonCsv(table, rows);
  writeFile((dir / "matrix.json").string(), matrixJson(matrix).dump(2) + "\n");
  writeFile((dir / "comparison.json").string(),
            json{{"captures", analysedJson(analysed)}, {"connections", comparisonJson(rows)}}.dump(2) + "\n");
  if (!csv || !table) throw Error("lab: cannot write the matrix into " + outputDir);
  return matrix;
}

}  // namespace rudp::cli
