// Reads a capture through CaptureReader and prints packets, bytes and
// seconds: the raw read rate, without decoding (tests/bench/bench_read.sh).
#include <chrono>
#include <cstdio>

#include "capture/capture_reader.h"
#include "core/error.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: bench-read CAPTURE\n");
    return 2;
  }
  try {
    const auto t0 = std::chrono::steady_clock::now();
    auto reader = rudp::CaptureReader::open(argv[1]);
    rudp::RawPacket p;
    uint64_t packets = 0, bytes = 0;
    while (reader->next(p)) {
      ++packets;
      bytes += p.caplen;
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!reader->warning().empty())
      std::fprintf(stderr, "bench-read: warning: %s\n", reader->warning().c_str());
    std::printf("%llu %llu %.4f\n", static_cast<unsigned long long>(packets),
                static_cast<unsigned long long>(bytes), s);
  } catch (const rudp::Error& e) {
    std::fprintf(stderr, "bench-read: %s\n", e.what());
    return 2;
  }
  return 0;
}
