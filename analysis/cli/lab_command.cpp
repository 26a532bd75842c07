// rudpscope-cli lab (being built: the options only, so far).
#include "cli/lab_command.h"

#include <CLI/CLI.hpp>

#include "core/error.h"

namespace rudp::cli {

CLI::App* addLabCommand(CLI::App& app, LabArgs& args) {
  auto* cmd = app.add_subcommand("lab", "Run the stack comparison experiment in network namespaces (root)");
  cmd->add_option("--stacks", args.stacks, "tcp-cubic,tcp-bbr,grudp,enet,kcp")->delimiter(',')->required();
  cmd->add_option("--loss", args.loss_percent, "Loss rates in %, e.g. 1,3,5")->delimiter(',')->required();
  cmd->add_option("--delay", args.delay_ms, "One-way delays in ms, e.g. 30,50")->delimiter(',')->required();
  cmd->add_option("--seconds", args.seconds, "Seconds per run (default 60)")->check(CLI::PositiveNumber);
  cmd->add_option("-o,--output", args.output, "Folder for the capture set")->required();
  return cmd;
}

int runLab(const LabArgs&) { throw Error("lab: not available in this build yet"); }

}  // namespace rudp::cli
