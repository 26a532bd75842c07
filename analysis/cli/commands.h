// rudpscope-cli subcommands. Each returns the process exit status.
#pragma once
#include <string>
#include <vector>

#include "session/dissectors.h"

namespace rudp::cli {

struct DecodeArgs {
  std::string capture;
  std::vector<std::string> fields;
  DissectorOptions dissectors;
};

struct AnalyzeArgs {
  std::string capture;
  std::string db;  // empty: default location
  bool json = false;
  bool quiet = false;
  unsigned jobs = 0;  // dissector lanes; 0 = one per core
  double stall_ms = -1;  // <0: default or the genre's
  std::string genre;
  bool no_analysis = false;  // packet index and connections only (benchmarks)
  size_t max_open = 0;       // 0: IngestOptions' default
  DissectorOptions dissectors;
};

int runDecode(const DecodeArgs& args);
int runAnalyze(const AnalyzeArgs& args);

}  // namespace rudp::cli
