#include "cli/lab_cell.h"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <filesystem>
#include <vector>

#include "core/error.h"

namespace fs = std::filesystem;

namespace rudp::cli {
namespace {

std::atomic<bool> g_interrupted{false};
std::atomic<pid_t> g_child{0};
std::atomic<bool> g_termSent{false};

void stopChild(pid_t child) {
  if (child > 0 && !g_termSent.exchange(true)) ::kill(child, SIGTERM);
}

// The script's EXIT trap removes the namespaces: it gets one SIGTERM, never
// a second one that could cut its cleanup short.
void onSignal(int) {
  if (g_interrupted.exchange(true)) return;
  stopChild(g_child.load());
}

std::string selfExe() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw Error("lab: cannot find its own program (/proc/self/exe): " + ec.message());
  return exe.string();
}

int waitChild(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw Error("lab: waitpid failed");
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

std::string labNumber(double v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

std::string LabCell::name() const {
  return stack + "_loss" + labNumber(loss_percent) + "_delay" + labNumber(delay_ms);
}

std::string LabCell::labelText() const {
  return "stack=" + stack + " loss=" + labNumber(loss_percent) + " delay=" + labNumber(delay_ms);
}

LabCellFiles labCellFiles(const std::string& outputDir, const LabCell& cell) {
  const fs::path dir(outputDir);
  const std::string name = cell.name();
  LabCellFiles f;
  f.capture = (dir / (name + ".pcapng")).string();
  f.sidecar = f.capture + ".labels";
  f.result = (dir / (name + ".json")).string();
  f.counters = (dir / "cells" / name).string();
  return f;
}

void catchLabSignals() {
  struct sigaction sa = {};
  sa.sa_handler = onSignal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

bool labInterrupted() { return g_interrupted.load(); }

int runLabCell(const std::string& toolsDir, const LabCell& cell, const LabRun& run,
               const LabCellFiles& files) {
  std::vector<std::string> args = {(fs::path(toolsDir) / "lab_cell.sh").string(),
                                   "--stack",
                                   cell.stack,
                                   "--loss",
                                   labNumber(cell.loss_percent),
                                   "--delay",
                                   labNumber(cell.delay_ms),
                                   "--seconds",
                                   labNumber(run.seconds),
                                   "--capture",
                                   files.capture,
                                   "--out",
                                   files.counters,
                                   "--cli",
                                   selfExe(),
                                   "--seed",
                                   std::to_string(run.seed)};
  if (!run.capture_as.empty()) args.insert(args.end(), {"--capture-as", run.capture_as});
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) throw Error("lab: cannot start " + args[0]);
  if (pid == 0) {
    ::setpgid(0, 0);
    ::signal(SIGINT, SIG_DFL);
    ::signal(SIGTERM, SIG_DFL);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::setpgid(pid, pid);
  g_child.store(pid);
  if (g_interrupted.load()) stopChild(pid);  // a signal between fork and the store
  const int status = waitChild(pid);
  g_child.store(0);
  return status;
}

}  // namespace rudp::cli
