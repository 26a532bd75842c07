#include "process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace rudp::test {

namespace fs = std::filesystem;

Background::Background(const std::vector<std::string>& argv, const std::string& workDir) {
  char outT[] = "/tmp/rudpscope-outXXXXXX";
  char errT[] = "/tmp/rudpscope-errXXXXXX";
  outFd_ = mkstemp(outT);
  errFd_ = mkstemp(errT);
  if (outFd_ < 0 || errFd_ < 0) throw std::runtime_error("mkstemp failed");
  outPath_ = outT;
  errPath_ = errT;
  pid_ = fork();
  if (pid_ == 0) {
    dup2(outFd_, 1);
    dup2(errFd_, 2);
    int nul = open("/dev/null", O_RDONLY);
    dup2(nul, 0);
    if (!workDir.empty() && chdir(workDir.c_str()) != 0) _exit(126);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
}

Background::~Background() {
  if (pid_ > 0) stop(SIGKILL);
}

ProcessResult Background::stop(int signal) {
  if (pid_ > 0) kill(pid_, signal);
  return wait();
}

ProcessResult Background::wait() {
  int st = 0;
  waitpid(pid_, &st, 0);
  pid_ = -1;
  close(outFd_);
  close(errFd_);
  auto slurp = [](const std::string& p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    std::remove(p.c_str());
    return ss.str();
  };
  ProcessResult r;
  r.out = slurp(outPath_);
  r.err = slurp(errPath_);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  return r;
}

ProcessResult run(const std::vector<std::string>& argv, const std::string& workDir) {
  return Background(argv, workDir).wait();
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

std::vector<std::string> splitTabs(const std::string& line) {
  std::vector<std::string> fields;
  size_t start = 0;
  for (size_t tab; (tab = line.find('\t', start)) != std::string::npos; start = tab + 1)
    fields.push_back(line.substr(start, tab - start));
  fields.push_back(line.substr(start));
  return fields;
}

size_t occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace rudp::test
