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

// The same, running in the background until stop() or wait(). Output goes to
// files, so a chatty child never blocks. The destructor kills and reaps a
// child still running.
class Background {
 public:
  explicit Background(const std::vector<std::string>& argv, const std::string& workDir = {});
  ~Background();
  Background(const Background&) = delete;
  Background& operator=(const Background&) = delete;

  ProcessResult stop(int signal);  // sends `signal`, then waits
  ProcessResult wait();
  int pid() const { return pid_; }

 private:
  int pid_ = -1;
  std::string outPath_, errPath_;
  int outFd_ = -1, errFd_ = -1;
};

// A fresh folder under the system temp folder, removed by the destructor.
struct TempDir {
  explicit TempDir(const std::string& tag);
  ~TempDir();
  std::filesystem::path path;
  std::string operator/(const std::string& name) const { return (path / name).string(); }
};

std::vector<std::string> splitLines(const std::string& s);
// One line's tab-separated fields (tshark -T fields), empty ones kept.
std::vector<std::string> splitTabs(const std::string& line);
// How many times `what` occurs in `text` (overlapping occurrences counted).
size_t occurrences(const std::string& text, const std::string& what);

}  // namespace rudp::test
