// rudpscope-cli compare: the comparison table and matrix of captures.
#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "cli/compare_output.h"
#include "compare/comparison_report.h"
#include "compare/metric_list.h"

namespace rudp::cli {
namespace {

cmp::Labels labelOverrides(const std::vector<std::string>& given) {
  cmp::Labels labels;
  for (const auto& text : given) {
    auto [key, value] = cmp::parseLabel(text);
    labels[key] = value;
  }
  return labels;
}

cmp::MatrixRequest matrixRequest(const CompareArgs& args) {
  cmp::MatrixRequest q;
  q.metric = args.metric;
  q.x = args.x;
  q.group = args.group;
  q.panel = args.panel;
  q.dir = args.direction == "s2c" ? Direction::ServerToClient : Direction::ClientToServer;
  return q;
}

void printWarnings(const std::vector<cmp::AnalysedCapture>& analysed) {
  for (const auto& a : analysed)
    for (const auto& w : a.warnings) std::fprintf(stderr, "rudpscope-cli: warning: %s\n", w.c_str());
}

}  // namespace

int runCompare(const CompareArgs& args) {
  const cmp::MatrixRequest request = matrixRequest(args);
  cmp::metric(request.metric);  // an unknown metric fails before any analysis
  const auto captures = cmp::expandCaptureSet(args.inputs);
  std::vector<cmp::AnalysedCapture> analysed;
  const auto rows =
      cmp::compareCaptures(captures, labelOverrides(args.labels), args.analysis.dissectors,
                           ingestOptions(args.analysis), &analysed, terminalProgress(args.analysis.quiet));
  printWarnings(analysed);
  const auto receiverSide = cmp::receiverSideWarnings(rows, request.dir);
  for (const auto& w : receiverSide) std::fprintf(stderr, "rudpscope-cli: warning: %s\n", w.c_str());
  const cmp::Matrix matrix = cmp::buildMatrix(rows, request);
  if (!args.html.empty())
    cmp::writeComparisonReportFile(
        {comparedColumns(rows, request.dir), &matrix, "rudpscope-cli " RUDPSCOPE_VERSION}, args.html);
  if (args.json) {
    nlohmann::json doc = {{"captures", analysedJson(analysed)},
                          {"connections", comparisonJson(rows)},
                          {"matrix", matrixJson(matrix)},
                          {"warnings", receiverSide}};
    std::cout << doc.dump(2) << "\n";
  } else if (args.csv) {
    writeComparisonCsv(std::cout, rows);
    std::cout << "\n";
    cmp::writeMatrixCsv(std::cout, matrix);
  } else {
    printComparisonTable(std::cout, comparedColumns(rows, request.dir));
    std::cout << "\n";
    printMatrix(std::cout, matrix);
  }
  return 0;
}

}  // namespace rudp::cli
