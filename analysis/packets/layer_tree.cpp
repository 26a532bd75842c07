#include "packets/layer_tree.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <unordered_set>

#include "core/bytes.h"
#include "core/label_text.h"
#include "filter/filter_fields.h"

namespace rudp {

namespace {

bool filterKnows(std::string_view field) {
  static const std::unordered_set<std::string> known = [] {
    const std::vector<std::string> names = FilterFields::builtinNames();
    return std::unordered_set<std::string>(names.begin(), names.end());
  }();
  return known.count(std::string(field)) > 0;
}

}  // namespace

void LayerTree::layer(std::string label, std::string_view proto, uint32_t offset, uint32_t length) {
  protocol(proto);
  moreOfLayer(std::move(label), proto, offset, length);
}

void LayerTree::moreOfLayer(std::string label, std::string_view proto, uint32_t offset, uint32_t length) {
  items_.push_back(FrameItem{std::move(label), base_, offset, length, std::string(proto), {}});
}

void LayerTree::protocol(std::string_view proto) {
  if (!protocols_.empty()) protocols_ += ':';
  protocols_ += proto;
}

void LayerTree::item(uint16_t depth, std::string label, uint32_t offset, uint32_t length,
                     std::string_view field, std::string value) {
  const bool known = !field.empty() && filterKnows(field);
  items_.push_back(FrameItem{std::move(label), uint16_t(base_ + depth), offset, length,
                             known ? std::string(field) : std::string(),
                             known ? std::move(value) : std::string()});
}

void LayerTree::generated(uint16_t depth, const std::string& label, std::string_view field,
                          std::string value) {
  item(depth, "[" + label + "]", FrameItem::kNoBytes, 0, field, std::move(value));
}

void LayerTree::expert(uint16_t depth, const char* severity, const char* group, const std::string& message) {
  generated(depth, std::string("Expert Info (") + severity + "/" + group + "): " + message);
  generated(depth + 1, message);
  generated(depth + 1, std::string("Severity level: ") + severity);
  generated(depth + 1, std::string("Group: ") + group);
}

void LayerTree::bits(uint16_t depth, uint32_t offset, uint32_t bytes, uint64_t mask, const std::string& label,
                     std::string_view field) {
  item(depth, bitPattern(number(offset, bytes), mask, int(bytes) * 8) + label, offset, bytes, field);
}

void LayerTree::checksum(uint16_t depth, uint32_t offset, uint16_t carried, uint16_t computed,
                         std::string_view field, BadChecksum bad) {
  const std::string text = "Checksum: " + hexNumber(carried, 4);
  if (computed == 0) {
    item(depth, text + " [correct]", offset, 2, field, hexNumber(carried, 4));
    generated(depth, "Checksum Status: Good");
    return;
  }
  // in_cksum_shouldbe: the value the checksum should have had.
  uint32_t should = uint32_t(carried) + computed;
  while (should >> 16) should = (should & 0xffff) + (should >> 16);
  item(depth, text + " incorrect, should be " + hexNumber(should, 4), offset, 2, field,
       hexNumber(carried, 4));
  expert(uint16_t(depth + 1), "Warning", bad.group,
         std::string(bad.message) + " [should be " + hexNumber(should, 4) + "]");
  generated(depth, "Checksum Status: Bad");
}

uint64_t LayerTree::number(uint32_t offset, uint32_t bytes) const {
  if (!captured(offset, bytes)) return 0;
  return beN(frame_ + offset, bytes);
}

uint16_t inCksum(const LayerTree& tree, uint32_t at, uint32_t end, uint64_t pseudoHeaderSum) {
  uint64_t sum = pseudoHeaderSum;
  for (uint32_t o = at; o < end; ++o) sum += (o - at) % 2 == 0 ? tree.number(o, 1) << 8 : tree.number(o, 1);
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  return uint16_t(~sum);
}

uint64_t icmpv6PseudoHeaderSum(const IpAddress& src, const IpAddress& dst, uint32_t length) {
  uint64_t sum = uint64_t(length) + 58;  // upper-layer length and next header
  for (const IpAddress* a : {&src, &dst})
    for (size_t i = 0; i < 16; i += 2) sum += uint32_t(a->bytes[i]) << 8 | a->bytes[i + 1];
  return sum;
}

std::string hexNumber(uint64_t value, int digits, bool withDecimal) {
  char buf[64];
  if (withDecimal)
    std::snprintf(buf, sizeof buf, "0x%0*" PRIx64 " (%" PRIu64 ")", digits, value, value);
  else
    std::snprintf(buf, sizeof buf, "0x%0*" PRIx64, digits, value);
  return buf;
}

}  // namespace rudp
