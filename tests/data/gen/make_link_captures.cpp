// Writes the link-layer test captures of tests/data/link with libpcap (and
// editcap for pcapng). Usage: make_link_captures OUTPUT_DIR [EDITCAP]
// The output is deterministic: rerunning it reproduces the committed files.
#include <pcap/pcap.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "link_scenario.h"

using namespace rudp::testgen;

namespace {

int dltOf(Link link) {
  switch (link) {
    case Link::Sll: return DLT_LINUX_SLL;
    case Link::Sll2: return DLT_LINUX_SLL2;
    case Link::Null: return DLT_NULL;
    case Link::Loop: return DLT_LOOP;
    case Link::Raw: return DLT_RAW;
    default: return DLT_EN10MB;
  }
}

bool writePcap(const std::string& path, Link link, bool nano) {
  pcap_t* dead = pcap_open_dead_with_tstamp_precision(
      dltOf(link), 262144, nano ? PCAP_TSTAMP_PRECISION_NANO : PCAP_TSTAMP_PRECISION_MICRO);
  pcap_dumper_t* out = pcap_dump_open(dead, path.c_str());
  if (!out) {
    std::cerr << path << ": " << pcap_geterr(dead) << "\n";
    pcap_close(dead);
    return false;
  }
  const auto frames = linkScenario();
  for (size_t i = 0; i < frames.size(); ++i) {
    const Bytes b = wrap(link, frames[i]);
    const int64_t ts = nano ? nsecTsNs(i) : usecTsNs(i);
    pcap_pkthdr h{};
    h.ts.tv_sec = time_t(ts / 1'000'000'000);
    // With nanosecond precision pcap_dump stores tv_usec as nanoseconds.
    h.ts.tv_usec = suseconds_t(nano ? ts % 1'000'000'000 : ts % 1'000'000'000 / 1000);
    h.caplen = h.len = uint32_t(b.size());
    pcap_dump(reinterpret_cast<u_char*>(out), &h, b.data());
  }
  pcap_dump_close(out);
  pcap_close(dead);
  return true;
}

// libpcap always writes host byte order; this one is big-endian by hand.
bool writeSwappedPcap(const std::string& path) {
  Bytes b;
  put32(b, 0xa1b2c3d4);
  put16(b, 2);
  put16(b, 4);
  put32(b, 0);
  put32(b, 0);
  put32(b, 262144);
  put32(b, DLT_EN10MB);
  const auto frames = linkScenario();
  for (size_t i = 0; i < frames.size(); ++i) {
    const Bytes f = wrap(Link::Ethernet, frames[i]);
    const int64_t ts = usecTsNs(i);
    put32(b, uint32_t(ts / 1'000'000'000));
    put32(b, uint32_t(ts % 1'000'000'000 / 1000));
    put32(b, uint32_t(f.size()));
    put32(b, uint32_t(f.size()));
    append(b, f);
  }
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
  return true;
}

Bytes readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), {});
}

void writeFile(const std::string& path, const Bytes& b, size_t len) {
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), std::streamsize(len));
}

// Offset of the record (pcap) or packet block (pcapng, little-endian as
// editcap writes it here) holding 1-based frame `n`.
size_t recordOffset(const Bytes& b, bool pcapng, int n) {
  auto le32 = [&](size_t o) {
    return uint32_t(b[o]) | uint32_t(b[o + 1]) << 8 | uint32_t(b[o + 2]) << 16 | uint32_t(b[o + 3]) << 24;
  };
  size_t off = pcapng ? 0 : 24;
  int frame = 0;
  while (off + 16 <= b.size()) {
    if (pcapng) {
      if (le32(off) == 6 && ++frame == n) return off;
      off += le32(off + 4);
    } else {
      if (++frame == n) return off;
      off += 16 + le32(off + 8);
    }
  }
  return b.size();
}

bool run(const std::string& cmd) {
  if (std::system(cmd.c_str()) == 0) return true;
  std::cerr << "failed: " << cmd << "\n";
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: make_link_captures OUTPUT_DIR [EDITCAP]\n";
    return 2;
  }
  const std::string dir = std::string(argv[1]) + "/";
  const std::string editcap = argc > 2 ? argv[2] : "editcap";
  bool ok = true;
  ok &= writePcap(dir + "eth.pcap", Link::Ethernet, false);
  ok &= writePcap(dir + "eth_vlan.pcap", Link::Vlan, false);
  ok &= writePcap(dir + "eth_qinq.pcap", Link::QinQ, false);
  ok &= writePcap(dir + "sll.pcap", Link::Sll, false);
  ok &= writePcap(dir + "sll2.pcap", Link::Sll2, false);
  ok &= writePcap(dir + "null.pcap", Link::Null, false);
  ok &= writePcap(dir + "loop.pcap", Link::Loop, false);
  ok &= writePcap(dir + "raw.pcap", Link::Raw, false);
  ok &= writePcap(dir + "eth_nsec.pcap", Link::Ethernet, true);
  ok &= writeSwappedPcap(dir + "eth_swapped.pcap");
  // A comment on frame 3 gives that packet block an option, so not every
  // block has the minimal size (exercises the reader's offset logic).
  ok &= run("'" + editcap + "' -F pcapng -a '3:first DATA packet' '" + dir + "eth.pcap' '" + dir +
            "eth.pcapng'");
  ok &= run("'" + editcap + "' -F pcapng '" + dir + "eth_nsec.pcap' '" + dir + "eth_nsec.pcapng'");
  ok &= run("'" + editcap + "' -F pcapng '" + dir + "sll2.pcap' '" + dir + "sll2.pcapng'");
  if (!ok) return 1;

  // Copies cut in the middle of frame 12: frames 1-11 survive.
  for (const char* name : {"eth.pcap", "eth.pcapng"}) {
    const std::string in = dir + name;
    const bool ng = std::string(name).ends_with("ng");
    const Bytes b = readFile(in);
    const size_t cut = recordOffset(b, ng, 12) + 40;
    const std::string out = dir + (ng ? "eth_truncated.pcapng" : "eth_truncated.pcap");
    writeFile(out, b, std::min(cut, b.size()));
  }
  std::cout << "wrote captures to " << dir << "\n";
  return 0;
}
