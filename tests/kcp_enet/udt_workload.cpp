// A game-like UDT4 client or server on the real library (Debian's
// libudt-dev 4.11), for tests/kcp_enet/lab.sh.
//
//   udt_workload server PORT SECONDS SEED MESSAGES.jsonl
//   udt_workload client HOST PORT SECONDS SEED MESSAGES.jsonl
//
// One UDT_DGRAM connection; each side sends reliable in-order messages
// (sendmsg with ttl -1, inorder true), one per tick: the client 60 Hz inputs
// of 20-40 bytes, the server 20 Hz snapshots of 120-300 bytes. Every message
// starts with a kind byte, its direction's message number (u32) and
// CLOCK_MONOTONIC at sending (f64 s). MESSAGES.jsonl gets one line per
// message sent or received: {"t", "ev": "send"|"recv", "n", "bytes"
// [, "sent_t"]}. Congestion control is a game's: a fixed rate (UDT's default
// CUDTCC is made for bulk transfer: after a NAK it sets the sending period
// from the receiver's measured rate and lengthens it by 1/8 per NAK, so a
// 20 Hz stream queues behind itself for seconds). After sending, the side waits for its data to be acked,
// reads UDT's own counters (perfmon, sampled before close: it throws on a closing socket) and prints them as
// one JSON object on stdout.
#include <udt/ccc.h>
#include <udt/udt.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <random>
#include <string>
#include <thread>

namespace {

double monotonicSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "udt_workload: %s: %s\n", what, UDT::getlasterror().getErrorMessage());
  std::exit(1);
}

struct Log {
  std::FILE* file;
  std::mutex mutex;
  void line(const std::string& text) {
    std::lock_guard<std::mutex> lock(mutex);
    std::fputs(text.c_str(), file);
    std::fputc('\n', file);
  }
};

constexpr std::size_t kHeader = 1 + 4 + 8;

// No pacing and a window far above what a tick stream keeps in flight, so
// every delay in the capture is the network's or the resend timer's.
class GameRateControl : public CCC {
 public:
  void init() override {
    m_dPktSndPeriod = 1.0;
    m_dCWndSize = 4096.0;
  }
};

void sendLoop(UDTSOCKET u, bool client, double seconds, unsigned seed, Log& log, std::uint32_t& sent) {
  std::mt19937 rng(seed * 2 + (client ? 0 : 1));
  const double period = client ? 1.0 / 60 : 1.0 / 20;
  const int minSize = client ? 20 : 120, maxSize = client ? 40 : 300;
  const double start = monotonicSeconds();
  char buf[512];
  for (double next = start; next < start + seconds; next += period) {
    while (monotonicSeconds() < next) std::this_thread::sleep_for(std::chrono::microseconds(200));
    const int size = minSize + int(rng() % unsigned(maxSize - minSize + 1));
    const double now = monotonicSeconds();
    const std::uint32_t number = ++sent;
    buf[0] = char(client ? 135 : 134);
    std::memcpy(buf + 1, &number, 4);
    std::memcpy(buf + 5, &now, 8);
    for (int i = int(kHeader); i < size; ++i) buf[i] = char(rng());
    if (UDT::sendmsg(u, buf, size, -1, true) != size) fail("sendmsg");
    char line[160];
    std::snprintf(line, sizeof line, R"({"t":%.6f,"ev":"send","n":%u,"bytes":%d})", now, number, size);
    log.line(line);
  }
}

void receiveLoop(UDTSOCKET u, std::atomic<bool>& stop, Log& log, std::atomic<std::uint32_t>& received) {
  char buf[2048];
  while (!stop) {
    const int n = UDT::recvmsg(u, buf, sizeof buf);
    if (n == UDT::ERROR) {
      if (UDT::getlasterror().getErrorCode() != CUDTException::EASYNCRCV) return;  // the peer closed
      std::this_thread::sleep_for(std::chrono::microseconds(500));
      continue;
    }
    if (n < int(kHeader)) continue;
    std::uint32_t number;
    double sentAt;
    std::memcpy(&number, buf + 1, 4);
    std::memcpy(&sentAt, buf + 5, 8);
    ++received;
    char line[200];
    std::snprintf(line, sizeof line, R"({"t":%.6f,"ev":"recv","n":%u,"bytes":%d,"sent_t":%.6f})",
                  monotonicSeconds(), number, n, sentAt);
    log.line(line);
  }
}

UDTSOCKET connectOrAccept(bool client, const char* host, int port) {
  UDTSOCKET s = UDT::socket(AF_INET, SOCK_DGRAM, 0);
  CCCFactory<GameRateControl> rateControl;
  if (UDT::setsockopt(s, 0, UDT_CC, &rateControl, sizeof rateControl) == UDT::ERROR) fail("UDT_CC");
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(std::uint16_t(port));
  if (client) {
    inet_pton(AF_INET, host, &addr.sin_addr);
    if (UDT::connect(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == UDT::ERROR) fail("connect");
    return s;
  }
  addr.sin_addr.s_addr = INADDR_ANY;
  if (UDT::bind(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == UDT::ERROR) fail("bind");
  if (UDT::listen(s, 1) == UDT::ERROR) fail("listen");
  sockaddr_in peer{};
  int len = sizeof peer;
  UDTSOCKET u = UDT::accept(s, reinterpret_cast<sockaddr*>(&peer), &len);
  if (u == UDT::INVALID_SOCK) fail("accept");
  UDT::close(s);
  return u;
}

}  // namespace

int main(int argc, char** argv) {
  const bool client = argc == 7 && std::strcmp(argv[1], "client") == 0;
  if (!client && !(argc == 6 && std::strcmp(argv[1], "server") == 0)) {
    std::fprintf(stderr,
                 "usage: udt_workload server PORT SECONDS SEED MESSAGES.jsonl\n"
                 "       udt_workload client HOST PORT SECONDS SEED MESSAGES.jsonl\n");
    return 2;
  }
  const int a = client ? 3 : 2;
  const char* host = client ? argv[2] : nullptr;
  const int port = std::atoi(argv[a]);
  const double seconds = std::atof(argv[a + 1]);
  const unsigned seed = unsigned(std::atoi(argv[a + 2]));
  Log log{std::fopen(argv[a + 3], "w"), {}};
  if (!log.file) {
    std::perror(argv[a + 3]);
    return 1;
  }
  UDT::startup();
  UDTSOCKET u = connectOrAccept(client, host, port);

  // Polled, not blocking: a receiver blocked in recvmsg (with or without
  // UDT_RCVTIMEO) sees data only when the next ACK is due, and held the
  // ACKs back in trials (51 ACKs for 480 messages, 451 needless resends).
  const bool blocking = false;
  UDT::setsockopt(u, 0, UDT_RCVSYN, &blocking, sizeof blocking);
  std::atomic<bool> stop{false};
  std::uint32_t sent = 0;
  std::atomic<std::uint32_t> received{0};
  std::thread receiver(receiveLoop, u, std::ref(stop), std::ref(log), std::ref(received));
  if (!client) {
    // The server speaks once the client has: when the server's last
    // handshake response is lost, UDT 4.11's connecting client takes the
    // server's first data packet for the response and ends up unconnected
    // ("Connection does not exist"); its retried request is answered instead.
    for (int i = 0; i < 5000 && received == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (received == 0) fail("no message from the client within 5 s of accept");
  }
  sendLoop(u, client, seconds, seed, log, sent);
  // Resends finish within a few timeouts (300 ms and up) at the lab's loss.
  std::this_thread::sleep_for(std::chrono::milliseconds(3000));
  UDT::TRACEINFO perf{};
  const bool sampled = UDT::perfmon(u, &perf, false) != UDT::ERROR;
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  stop = true;
  receiver.join();
  UDT::close(u);
  UDT::cleanup();
  std::fclose(log.file);
  if (!sampled) fail("perfmon");
  std::printf(R"({"role":"%s","sent":%u,"received":%u,"perfmon":{"pktSentTotal":%lld,"pktRecvTotal":%lld,)"
              R"("pktSndLossTotal":%d,"pktRcvLossTotal":%d,"pktRetransTotal":%d,"pktSentACKTotal":%d,)"
              R"("pktRecvACKTotal":%d,"pktSentNAKTotal":%d,"pktRecvNAKTotal":%d,"msRTT":%.3f}})"
              "\n",
              client ? "client" : "server", sent, received.load(), static_cast<long long>(perf.pktSentTotal),
              static_cast<long long>(perf.pktRecvTotal), perf.pktSndLossTotal, perf.pktRcvLossTotal,
              perf.pktRetransTotal, perf.pktSentACKTotal, perf.pktRecvACKTotal, perf.pktSentNAKTotal,
              perf.pktRecvNAKTotal, perf.msRTT);
  return 0;
}
