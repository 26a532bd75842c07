// Plain UDP datagrams on loopback for the live-capture tests: a known number
// of packets the capture must hold exactly.
#pragma once
#include <cstdint>

namespace rudp::test {

// Sends `count` datagrams of `size` bytes from an ephemeral port to
// 127.0.0.1:`port`, one every `gapUs` microseconds, to a socket bound there
// (so the kernel sends no ICMP "port unreachable" back).
void sendUdp(uint16_t port, int count, int size, int gapUs);

}  // namespace rudp::test
