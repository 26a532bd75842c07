// rudpscope-cli lab: the stack comparison experiment in one command (see lab_command.cpp).
// Exit status: 0 every cell passed, 1 a cell failed (or none ran), 2 not root
// or bad arguments, 130 interrupted.
#pragma once
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace rudp::cli {

struct LabArgs {
  std::vector<std::string> stacks;  // tcp-cubic, tcp-bbr, grudp, enet, kcp
  std::vector<double> loss_percent;
  std::vector<double> delay_ms;  // one-way
  double seconds = 60;
  std::string output;                     // the capture set's folder
  std::string metric = "share_over_300";  // the matrix's metric (cmp::comparisonMetrics)
  unsigned seed = 1;                      // the endpoints' message streams
  std::string capture_as;  // a wireshark-group user capturing through dumpcap; empty: root, libpcap
};

CLI::App* addLabCommand(CLI::App& app, LabArgs& args);
int runLab(const LabArgs& args);

}  // namespace rudp::cli
