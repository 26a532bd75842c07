#include "capture/dumpcap_source.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <climits>
#include <cstdlib>
#include <sstream>
#include <utility>

#include "capture/capture_errors.h"
#include "capture/live_capture.h"
#include "core/error.h"

extern char** environ;

namespace rudp {

namespace {

// dumpcap writes its file header as soon as the interface captures.
constexpr int kStartTimeoutMs = 10000;
// After SIGINT it writes what it holds, its statistics block, and exits.
constexpr int kStopTimeoutMs = 5000;

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(line);
  return out;
}

// The text between the first '(' and the last ')' of dumpcap's detail line.
std::string inParentheses(const std::string& line) {
  const size_t open = line.find('('), close = line.rfind(')');
  return open != std::string::npos && close != std::string::npos && close > open
             ? line.substr(open + 1, close - open - 1)
             : line;
}

bool contains(const std::string& s, const char* what) { return s.find(what) != std::string::npos; }

// dumpcap's "dumpcap: ..." message and the line after it, as our one line.
std::string errorLine(const std::vector<std::string>& text, const LiveOptions& o) {
  for (size_t i = 0; i < text.size(); ++i) {
    const std::string& line = text[i];
    if (line.rfind("dumpcap: ", 0) != 0) continue;
    const std::string detail = i + 1 < text.size() ? text[i + 1] : "";
    if (contains(line, "permission to capture")) return noPermissionError(o.interface);
    if (contains(line, "There is no device named")) return noInterfaceError(o.interface);
    if (contains(line, "Invalid capture filter")) {
      // The detail is a paragraph below: "That string isn't a valid capture filter (...)."
      for (size_t j = i + 1; j < text.size(); ++j)
        if (contains(text[j], "valid capture filter"))
          return badFilterError(o.filter, o.interface, inParentheses(text[j]));
    }
    std::string message = line.substr(9);
    if (!detail.empty() && detail.front() == '(') message += " " + detail;
    return captureFailedError(o.interface, message);
  }
  return {};
}

// "Packets received/dropped on interface 'lo': 3/0 (pcap:0/dumpcap:0/flushed:0/ps_ifdrop:0) (100.0%)"
bool parseDrops(const std::string& text, DropCounts& out) {
  const size_t at = text.find("(pcap:");
  if (at == std::string::npos) return false;
  uint64_t pcap = 0, dumpcap = 0, flushed = 0, ifdrop = 0;
  if (std::sscanf(text.c_str() + at,
                  "(pcap:%" SCNu64 "/dumpcap:%" SCNu64 "/flushed:%" SCNu64 "/ps_ifdrop:%" SCNu64 ")", &pcap,
                  &dumpcap, &flushed, &ifdrop) != 4)
    return false;
  // Lost before reaching the file: the kernel's buffer, dumpcap's own
  // (a slow output), the flush at the end; the interface's are apart.
  out = {pcap + dumpcap + flushed, ifdrop, true};
  return true;
}

bool exists(const std::string& path) { return ::access(path.c_str(), F_OK) == 0; }

}  // namespace

std::string DumpcapSource::find() {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (dir.empty() || !exists(dir + "/dumpcap")) continue;
    // /bin/dumpcap is /usr/bin/dumpcap on a merged /usr: name the one file.
    char real[PATH_MAX];
    return ::realpath((dir + "/dumpcap").c_str(), real) ? real : dir + "/dumpcap";
  }
  return {};
}

std::vector<std::string> DumpcapSource::arguments(const LiveOptions& o) {
  std::vector<std::string> args{
      "-i", o.interface, "-s", std::to_string(o.snaplen), "-B", std::to_string(o.buffer_mb)};
  if (!o.filter.empty()) args.insert(args.end(), {"-f", o.filter});
  if (!o.promiscuous) args.push_back("-p");
  args.insert(args.end(), {"-w", "-", "-q"});
  return args;
}

DumpcapSource::DumpcapSource(const LiveOptions& options) : options_(options) {
  const std::string dumpcap = find();
  if (dumpcap.empty()) throw CaptureError(noDumpcapError());
  spawn(dumpcap);
  try {
    waitForHeader();
  } catch (const CaptureError&) {
    reap(true);
    throw CaptureError(failure());
  }
}

DumpcapSource::~DumpcapSource() { stop(); }

void DumpcapSource::spawn(const std::string& dumpcap) {
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0) throw CaptureError("cannot start dumpcap: " + errnoMessage(errno));
  UniqueFd out0(out[0]), out1(out[1]);
  stderr_.reset(::memfd_create("dumpcap-stderr", MFD_CLOEXEC));
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&files, out1.get(), 1);
  if (stderr_.valid()) posix_spawn_file_actions_adddup2(&files, stderr_.get(), 2);
  // Default dispositions and no blocked signals: SIGINT stops it, and a
  // reader that went away ends it (SIGPIPE), whatever this process set.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  for (int s : {SIGINT, SIGTERM, SIGPIPE, SIGHUP}) sigaddset(&defaults, s);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  std::vector<std::string> args = arguments(options_);
  args.insert(args.begin(), dumpcap);
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const int rc = ::posix_spawn(&pid_, dumpcap.c_str(), &files, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&files);
  posix_spawnattr_destroy(&attr);
  out1.reset();
  if (rc != 0) {
    pid_ = -1;
    if (rc == EACCES || rc == EPERM) throw CaptureError(dumpcapNotAllowedError(dumpcap));
    throw CaptureError("cannot run " + dumpcap + ": " + errnoMessage(rc));
  }
  pipe_ = out0.release();
  startWatchdog();
}

// dumpcap holds capabilities, so the kernel forgets a parent-death signal
// when it starts, and on a quiet interface it writes nothing that would
// fail once its reader is gone: killed with SIGKILL, this process would
// leave it capturing. A shell of this user's waits on a pipe whose other
// end only this process holds (close-on-exec): when this process ends,
// however it ends, the read returns and the shell asks dumpcap to stop.
void DumpcapSource::startWatchdog() {
  int control[2];
  if (::pipe2(control, O_CLOEXEC) != 0) return;
  UniqueFd readEnd(control[0]);
  watchdog_pipe_.reset(control[1]);
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_adddup2(&files, readEnd.get(), 0);
  posix_spawn_file_actions_addopen(&files, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&files, 2, "/dev/null", O_WRONLY, 0);
  std::string script = "read _; kill -INT " + std::to_string(pid_);
  char sh[] = "/bin/sh", dashC[] = "-c";
  char* argv[] = {sh, dashC, script.data(), nullptr};
  if (::posix_spawn(&watchdog_, sh, &files, nullptr, argv, environ) != 0) watchdog_ = -1;
  posix_spawn_file_actions_destroy(&files);
}

// The pipe as stdio reads it: in 64 KiB gulps (one read per packet cost
// 13 % of the packets at 100,000 a second on loopback, as dumpcap's
// kernel buffer overflowed), counting what stdio has taken.
ssize_t DumpcapSource::readPipe(void* cookie, char* buf, size_t size) {
  auto* self = static_cast<DumpcapSource*>(cookie);
  for (;;) {
    const ssize_t n = ::read(self->pipe_, buf, size);
    if (n >= 0) {
      self->delivered_ += uint64_t(n);
      return n;
    }
    if (errno != EINTR) return -1;
  }
}

int DumpcapSource::closePipe(void* cookie) {
  auto* self = static_cast<DumpcapSource*>(cookie);
  return ::close(std::exchange(self->pipe_, -1));
}

// Bytes stdio holds that the reader has not parsed; poll() cannot see them.
bool DumpcapSource::buffered() const { return reader_ && delivered_ > reader_->bytesRead(); }

bool DumpcapSource::waitForData(int wait_ms) const {
  if (buffered()) return true;
  pollfd fd{pipe_, POLLIN, 0};
  return ::poll(&fd, 1, wait_ms) > 0;  // EINTR too says no: the caller looks again
}

// Reads dumpcap's section header and interface description.
void DumpcapSource::waitForHeader() {
  pollfd fd{pipe_, POLLIN, 0};
  if (::poll(&fd, 1, kStartTimeoutMs) == 0) {
    ::close(std::exchange(pipe_, -1));
    throw CaptureError(captureFailedError(options_.interface, "dumpcap did not start within 10 s"));
  }
  std::FILE* f = ::fopencookie(this, "r", {readPipe, nullptr, nullptr, closePipe});
  if (!f) {
    ::close(std::exchange(pipe_, -1));
    throw CaptureError("cannot read dumpcap's output: " + errnoMessage(errno));
  }
  std::setvbuf(f, nullptr, _IOFBF, 1 << 16);
  reader_ = std::make_unique<PcapngCaptureReader>("dumpcap", f, 0, nullptr);
}

LiveSource::Read DumpcapSource::next(RawPacket& out, int wait_ms) {
  if (pid_ < 0) return Read::Ended;
  if (!waitForData(wait_ms)) return Read::Idle;
  if (reader_->next(out)) return Read::Packet;
  // dumpcap stopped by itself: the interface went away, or it failed.
  reap(false);
  warning_ = failure();
  if (!reader_->warning().empty()) warning_ += "; " + reader_->warning();
  return Read::Ended;
}

// Why dumpcap ended, from what it wrote on stderr, as one line.
std::string DumpcapSource::failure() const {
  const std::vector<std::string> text = lines(stderrText());
  if (std::string why = errorLine(text, options_); !why.empty()) return why;
  return captureFailedError(options_.interface, "dumpcap ended" + (text.empty() ? "" : ": " + text.back()));
}

void DumpcapSource::stop() {
  if (pid_ < 0) return;
  ::kill(pid_, SIGINT);
  // What it still writes is read and let go, so that it never blocks on a
  // full pipe before printing its statistics.
  RawPacket unused;
  while (reader_ && waitForData(kStopTimeoutMs))
    if (!reader_->next(unused)) break;
  reap(false);
}

// Waits for dumpcap (killing it first if `interrupt`) and reads its drop counts.
void DumpcapSource::reap(bool interrupt) {
  if (pid_ < 0) return;
  // The watchdog goes first: dumpcap's pid stays its own until reaped below.
  if (watchdog_ > 0) {
    ::kill(watchdog_, SIGKILL);
    ::waitpid(watchdog_, nullptr, 0);
    watchdog_ = -1;
  }
  watchdog_pipe_.reset();
  if (interrupt) ::kill(pid_, SIGKILL);
  for (int waited = 0;; waited += 10) {
    const pid_t r = ::waitpid(pid_, nullptr, WNOHANG);
    if (r == pid_ || (r < 0 && errno != EINTR)) break;
    if (waited >= kStopTimeoutMs) ::kill(pid_, SIGKILL);
    ::usleep(10000);
  }
  pid_ = -1;
  parseDrops(stderrText(), drops_);
}

std::string DumpcapSource::stderrText() const {
  std::string text;
  char buf[4096];
  for (off_t at = 0;;) {
    const ssize_t n = ::pread(stderr_.get(), buf, sizeof buf, at);
    if (n <= 0) break;
    text.append(buf, size_t(n));
    at += n;
  }
  return text;
}

}  // namespace rudp
