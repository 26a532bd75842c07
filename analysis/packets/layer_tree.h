// Writes one built-in layer's lines of the details tree as tshark -V prints
// them: the layer's summary line (depth 0, its protocol's filter name as the
// field, so `decode -V -O eth` expands it) and its items under it, each with
// the bytes it covers, so the hex view highlights them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "packets/frame_dissector.h"

namespace rudp {

class LayerTree {
 public:
  LayerTree(std::vector<FrameItem>& items, const uint8_t* frame, uint32_t caplen)
      : items_(items), frame_(frame), caplen_(caplen) {}

  // Writes the layers after it `levels` deeper: tshark prints the datagram
  // an ICMP error quotes under the ICMP layer.
  void nest(uint16_t levels) { base_ = levels; }

  // Also names `proto` in the frame's protocols (frame.protocols).
  void layer(std::string label, std::string_view proto, uint32_t offset, uint32_t length);
  // One more layer of the protocol named last, which frame.protocols names
  // once (tshark called its dissector once: MPLS's label stack).
  void moreOfLayer(std::string label, std::string_view proto, uint32_t offset, uint32_t length);
  // A protocol with no layer of its own in the tree ("ethertype").
  void protocol(std::string_view proto);
  // "eth:ethertype:ip:udp:grudp": the protocols named so far, in order.
  const std::string& protocols() const { return protocols_; }
  // A line `depth` levels under the layer. `field` is kept only when the
  // display filters know it (so the details pane offers only filters that work).
  void item(uint16_t depth, std::string label, uint32_t offset = FrameItem::kNoBytes, uint32_t length = 0,
            std::string_view field = {}, std::string value = {});
  // A generated item: "[label]", no bytes.
  void generated(uint16_t depth, const std::string& label, std::string_view field = {},
                 std::string value = {});
  // An expert item under the line before, as tshark prints it:
  // "[Expert Info (Note/Sequence): message]" and its three lines.
  void expert(uint16_t depth, const char* severity, const char* group, const std::string& message);
  // A verified 16-bit checksum at `offset`, as proto_tree_add_checksum
  // prints it: "Checksum: 0x1234 [correct]" and its status, or "incorrect,
  // should be ..." with its expert item (`bad`: the dissector's expert, its
  // group and text). `computed`: in_cksum over what it covers, checksum
  // included (0 when right).
  struct BadChecksum {
    const char* group;
    const char* message;
  };
  void checksum(uint16_t depth, uint32_t offset, uint16_t carried, uint16_t computed, std::string_view field,
                BadChecksum bad);
  // A bitmask line over the `bytes`-wide big-endian number at `offset`:
  // "0100 .... = " + label.
  void bits(uint16_t depth, uint32_t offset, uint32_t bytes, uint64_t mask, const std::string& label,
            std::string_view field = {});

  // Lines so far, and a line put in before line `index` (a layer's line
  // known only once the layers after it are read).
  size_t size() const { return items_.size(); }
  void insert(size_t index, FrameItem item) {
    items_.insert(items_.begin() + std::ptrdiff_t(index), std::move(item));
  }

  // The big-endian number of `bytes` bytes at `offset` (0 past the captured bytes).
  uint64_t number(uint32_t offset, uint32_t bytes) const;
  bool captured(uint32_t offset, uint32_t bytes) const {
    return offset <= caplen_ && bytes <= caplen_ - offset;
  }
  const uint8_t* at(uint32_t offset) const { return frame_ + offset; }
  uint32_t caplen() const { return caplen_; }

 private:
  std::vector<FrameItem>& items_;
  const uint8_t* frame_;
  uint32_t caplen_;
  std::string protocols_;
  uint16_t base_ = 0;
};

// in_cksum over the bytes [at, end) of the frame: 0 when the checksum among them is right.
uint16_t inCksum(const LayerTree& tree, uint32_t at, uint32_t end, uint64_t pseudoHeaderSum = 0);
// ICMPv6's pseudo-header (RFC 8200 8.1) over `length` bytes, summed as in_cksum sums.
uint64_t icmpv6PseudoHeaderSum(const IpAddress& src, const IpAddress& dst, uint32_t length);

// "0x04d2 (1234)", "0x00": hex with `digits` digits, then the decimal in parentheses when asked.
std::string hexNumber(uint64_t value, int digits, bool withDecimal = false);

}  // namespace rudp
