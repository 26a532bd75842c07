// Packets per second of the Lua host on synthetic GRUDP datagrams through
// dissectors/grudp.lua: lua_host_bench [packets] [--columns]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

#include "lua/host.h"

using namespace rudp;

int main(int argc, char** argv) {
  const long n = argc > 1 ? atol(argv[1]) : 1000000;
  const bool columns = argc > 2 && !strcmp(argv[2], "--columns");
  LuaHost host;
  host.loadScript(std::string(RUDPSCOPE_SOURCE_DIR) + "/dissectors/grudp.lua");
  host.finishLoading();

  // 256 distinct datagrams: DATA with 16-byte payloads, some ACKs, varied flags.
  std::vector<std::vector<uint8_t>> dgrams;
  for (int i = 0; i < 256; ++i) {
    const bool ack = i % 4 == 3;
    const uint16_t len = ack ? 0 : 16;
    std::vector<uint8_t> d = {0x52, 0x55, static_cast<uint8_t>(0x10 | (ack ? 1 : 0)),
                              static_cast<uint8_t>(ack ? 0x18 : 0x19)};
    auto put = [&](uint64_t x, int k) {
      for (int b = k - 1; b >= 0; --b) d.push_back(static_cast<uint8_t>(x >> (8 * b)));
    };
    put(0xdeadbeef, 4);
    put(1000 + i, 4);
    put(500 + i, 4);
    put(0xffffffff, 4);
    put(100000 + i, 4);
    put(99990 + i, 4);
    put(len, 2);
    put(i % 4, 1);
    put(64, 1);
    for (int b = 0; b < len; ++b) d.push_back(static_cast<uint8_t>(b));
    dgrams.push_back(d);
  }
  DecodedPacket p;
  p.l3 = L3::IPv4;
  p.l4 = L4::UDP;
  p.src.family = p.dst.family = 4;
  p.sport = 50000;
  p.dport = 7777;
  DissectResult r;
  size_t values = 0;
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  for (long i = 0; i < n; ++i) {
    const auto& d = dgrams[static_cast<size_t>(i) & 255];
    p.frame = static_cast<uint64_t>(i + 1);
    p.payload = d.data();
    p.payload_len = p.payload_reported_len = static_cast<uint32_t>(d.size());
    host.dissectUdp(p, columns, r);
    values += r.values.size();
    if (r.proto < 0 || r.lua_error) {
      fprintf(stderr, "packet %ld not dissected: %s\n", i, r.error.c_str());
      return 1;
    }
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
  // CPU time too: the machine is shared, so wall time alone under-reports.
  printf(
      "%ld packets in %.3f s wall / %.3f s CPU: %.0f packets/s wall, %.0f packets/s CPU (%.1f values/packet, "
      "columns %s)\n",
      n, secs, cpu, n / secs, n / cpu, static_cast<double>(values) / static_cast<double>(n),
      columns ? "on" : "off");
  return 0;
}
