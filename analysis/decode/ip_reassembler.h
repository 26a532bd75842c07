// Reassembles IPv4 and IPv6 fragments into whole datagrams, with bounded memory.
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/packet.h"
#include "decode/bytes.h"

namespace rudp {

// One fragment of a reassembled datagram: the frame that carried it and its
// payload bytes' place in the datagram.
struct IpFragmentPiece {
  uint64_t frame = 0;
  uint32_t offset = 0, length = 0;
};

class IpReassembler {
 public:
  struct Limits {
    size_t max_datagrams = 256;           // pending datagrams; oldest dropped beyond
    size_t max_bytes = 8u << 20;          // buffered bytes over all pending datagrams
    int64_t timeout_ns = 30'000'000'000;  // capture time after the first fragment
    size_t max_pieces = 64;               // disjoint byte ranges per datagram
  };

  // A datagram's fragments share addresses (of one family), identification
  // (16 bits in IPv4, 32 in IPv6) and, in IPv4 only, protocol (RFC 791, RFC 8200).
  struct Key {
    IpAddress src, dst;
    uint32_t id = 0;
    uint8_t proto = 0;
    bool operator==(const Key&) const = default;
  };

  enum class Result : uint8_t {
    Pending,   // held; the datagram is not complete yet
    Complete,  // `whole` is the reassembled IP payload
    Invalid,   // the fragment contradicts the others or is out of range; ignored
  };

  IpReassembler() = default;
  explicit IpReassembler(Limits limits) : limits_(limits) {}

  // `data`/`len`: this fragment's payload (IPv6: after the fragment header); `offset` in bytes. On
  // Complete, `whole` points into a buffer owned here, valid until the next
  // add(). Overlapping bytes keep the copy that arrived first.
  Result add(const Key& key, int64_t ts_ns, uint32_t offset, bool more, const uint8_t* data, uint32_t len,
             wire::Span& whole, uint64_t frame = 0);
  // The fragments of the datagram the last add() completed, in arrival order
  // (what Wireshark's reassembly tree lists).
  const std::vector<IpFragmentPiece>& completedPieces() const { return completed_pieces_; }

  size_t pendingDatagrams() const { return pending_.size(); }
  size_t pendingBytes() const { return bytes_; }
  uint64_t droppedDatagrams() const { return dropped_; }  // timed out or evicted

 private:
  struct Datagram {
    Key key;
    int64_t first_ts = 0;
    bool has_total = false;
    uint32_t total = 0;
    std::vector<uint8_t> buf;
    std::vector<std::pair<uint32_t, uint32_t>> pieces;  // sorted, merged [begin, end)
    std::vector<IpFragmentPiece> fragments;             // as they came
  };

  void expire(int64_t now);
  void drop(size_t index);
  void makeRoom(size_t extraBytes);
  static void copyGaps(Datagram& d, uint32_t begin, uint32_t end, const uint8_t* data);
  static void addPiece(Datagram& d, uint32_t begin, uint32_t end);

  Limits limits_;
  std::vector<Datagram> pending_;  // oldest first
  size_t bytes_ = 0;
  uint64_t dropped_ = 0;
  std::vector<uint8_t> completed_;
  std::vector<IpFragmentPiece> completed_pieces_;
};

}  // namespace rudp
