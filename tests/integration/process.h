// Runs a program for a test and collects what it printed.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace rudp::test {

struct ProcessResult {
  int status = -1;  // exit status, or 128 + signal
  std::string out, err;
};

// Runs argv[0] with the arguments (no shell), in `workDir` when given,
// waiting for it to end.
ProcessResult run(const std::vector<std::string>& argv, const std::string& workDir = {});

// A fresh folder under the system temp folder, removed by the destructor.
struct TempDir {
  explicit TempDir(const std::string& tag);
  ~TempDir();
  std::filesystem::path path;
  std::string operator/(const std::string& name) const { return (path / name).string(); }
};

std::vector<std::string> splitLines(const std::string& s);

}  // namespace rudp::test
