#include "process.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace rudp::test {

namespace fs = std::filesystem;

ProcessResult run(const std::vector<std::string>& argv, const std::string& workDir) {
  // Output goes to files, not pipes, so a chatty child can never block.
  char outT[] = "/tmp/rudpscope-outXXXXXX";
  char errT[] = "/tmp/rudpscope-errXXXXXX";
  int outFd = mkstemp(outT), errFd = mkstemp(errT);
  if (outFd < 0 || errFd < 0) throw std::runtime_error("mkstemp failed");
  pid_t pid = fork();
  if (pid == 0) {
    dup2(outFd, 1);
    dup2(errFd, 2);
    int nul = open("/dev/null", O_RDONLY);
    dup2(nul, 0);
    if (!workDir.empty() && chdir(workDir.c_str()) != 0) _exit(126);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  close(outFd);
  close(errFd);
  auto slurp = [](const char* p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    std::remove(p);
    return ss.str();
  };
  ProcessResult r;
  r.out = slurp(outT);
  r.err = slurp(errT);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  return r;
}

TempDir::TempDir(const std::string& tag) {
  path = fs::temp_directory_path() / ("rudpscope-" + tag + "-" + std::to_string(getpid()));
  fs::remove_all(path);
  fs::create_directories(path);
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path, ec);
}

std::vector<std::string> splitLines(const std::string& s) {
  std::vector<std::string> lines;
  std::string cur;
  for (char c : s) {
    if (c == '\n') {
      lines.push_back(cur);
      cur.clear();
    } else
      cur += c;
  }
  if (!cur.empty()) lines.push_back(cur);
  return lines;
}

}  // namespace rudp::test
