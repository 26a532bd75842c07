// One cell of `rudpscope-cli lab` (a stack at one loss rate and one delay):
// its file names, and running tests/lab/lab_cell.sh for it.
#pragma once
#include <string>

namespace rudp::cli {

struct LabCell {
  std::string stack;
  double loss_percent = 0, delay_ms = 0;

  // "tcp-cubic_loss5_delay50": cmp::labelsFromFileName reads the labels back from it.
  std::string name() const;
  // "stack=tcp-cubic loss=5 delay=50": the sidecar's content.
  std::string labelText() const;
};

// 5 -> "5", 2.5 -> "2.5" (labels and file names).
std::string labNumber(double v);

// Where a cell's files go inside the lab's output folder.
struct LabCellFiles {
  std::string capture;   // DIR/NAME.pcapng
  std::string sidecar;   // DIR/NAME.pcapng.labels
  std::string result;    // DIR/NAME.json: counters, checks, figures
  std::string counters;  // DIR/cells/NAME/: what the endpoints and the router reported, logs
};
LabCellFiles labCellFiles(const std::string& outputDir, const LabCell& cell);

// Runs the cell script (its own process group, so Ctrl+C reaches only this
// process, which then asks the script to stop and waits for its cleanup).
// Returns the script's exit status: 0 ran, 77 cannot run here, else failed.
struct LabRun {
  double seconds = 60;
  unsigned seed = 1;
  std::string capture_as;  // empty: the capture runs as root
};
int runLabCell(const std::string& toolsDir, const LabCell& cell, const LabRun& run,
               const LabCellFiles& files);

// Installs the SIGINT/SIGTERM handlers runLabCell relies on.
void catchLabSignals();
// Whether SIGINT or SIGTERM arrived: the cell loop stops.
bool labInterrupted();

}  // namespace rudp::cli
