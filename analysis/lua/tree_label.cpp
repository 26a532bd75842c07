// The details tree's labels as Wireshark 4.0 fills them (proto.c,
// proto_item_fill_label): "Name: value", value strings as "NAME (value)",
// bitmask fields after their bit pattern ("0001 .... = Version: 1"), booleans
// True/False, bytes in hex cut after 36 with "…", then the dissector's label
// edits (a given text, set/append/prepend_text, generated items in brackets).
#include <algorithm>
#include <bit>
#include <cinttypes>
#include <cstdio>

#include "core/label_text.h"
#include "lua/state.h"

namespace rudp::lua {

namespace {

int typeBits(FieldType t) {
  switch (t) {
    case FieldType::UInt8:
    case FieldType::Int8: return 8;
    case FieldType::UInt16:
    case FieldType::Int16: return 16;
    case FieldType::UInt24:
    case FieldType::Int24: return 24;
    case FieldType::UInt64:
    case FieldType::Int64: return 64;
    default: return 32;
  }
}

// Hex digits Wireshark shows: the type's, or those the mask's field spans.
int hexDigits(const PField& pf) {
  if (pf.info.mask) {
    const uint64_t shifted = pf.info.mask >> pf.shift;
    const int bits = 64 - std::countl_zero(shifted);
    return (bits + 3) / 4;
  }
  return typeBits(pf.info.type) / 4;
}

std::string number(const PField& pf, uint64_t u, bool forValueString) {
  char buf[64];
  const int base = pf.info.base & 0xFF;
  const int digits = hexDigits(pf);
  if (pf.is_signed) {
    snprintf(buf, sizeof buf, "%" PRId64, static_cast<int64_t>(u));
  } else if (base == 2 || (forValueString && base == 5)) {
    snprintf(buf, sizeof buf, "0x%0*" PRIx64, digits, u);
  } else if (base == 3) {
    snprintf(buf, sizeof buf, "%#" PRIo64, u);
  } else if (base == 4 && !forValueString) {
    snprintf(buf, sizeof buf, "%" PRIu64 " (0x%0*" PRIx64 ")", u, digits, u);
  } else if (base == 5) {
    snprintf(buf, sizeof buf, "0x%0*" PRIx64 " (%" PRIu64 ")", digits, u, u);
  } else {
    snprintf(buf, sizeof buf, "%" PRIu64, u);
  }
  return buf;
}

std::string integerValue(const PField& pf, uint64_t u) {
  if (pf.value_names.empty()) return number(pf, u, false);
  const auto key = static_cast<int64_t>(u);  // signed values are stored sign-extended
  auto it = std::lower_bound(pf.value_names.begin(), pf.value_names.end(), key,
                             [](const auto& e, int64_t k) { return e.first < k; });
  const std::string name = it != pf.value_names.end() && it->first == key ? it->second : "Unknown";
  return name + " (" + number(pf, u, true) + ")";
}

std::string bytesValue(const char* p, uint32_t n) {
  return n == 0 ? "<MISSING>" : hexBytes(reinterpret_cast<const uint8_t*>(p), n);
}

// The label of a field item before the dissector's edits.
std::string fieldLabel(const State& s, const FieldValue& v, const DissectResult& r) {
  const FieldInfo& fi = s.fields[v.field];
  const int pfi = s.field_pf[v.field];
  if (fi.type == FieldType::Protocol || pfi < 0) {
    if (v.u == 1) return std::string(r.strings, v.str_off, v.str_len);
    return fi.proto_index >= 0 ? s.protos[fi.proto_index].description : fi.name;
  }
  const PField& pf = s.pfields[pfi];
  switch (fi.type) {
    case FieldType::None: return fi.name;
    case FieldType::Bool: {
      const std::string value = fi.name + ": " + (v.u ? "True" : "False");
      return fi.mask ? bitPattern(v.u ? fi.mask : 0, fi.mask, fi.base) + value : value;
    }
    case FieldType::Bytes: return fi.name + ": " + bytesValue(r.strings.data() + v.str_off, v.str_len);
    case FieldType::UInt8:
    case FieldType::UInt16:
    case FieldType::UInt24:
    case FieldType::UInt32:
    case FieldType::UInt64:
    case FieldType::Int8:
    case FieldType::Int16:
    case FieldType::Int24:
    case FieldType::Int32:
    case FieldType::Int64: {
      std::string value = fi.name + ": " + integerValue(pf, v.u);
      if (!fi.mask) return value;
      return bitPattern(v.u << pf.shift, fi.mask, typeBits(fi.type)) + value;
    }
    default: return fi.name + ": " + formatField(s, v, r);
  }
}

const char* severityName(uint32_t severity) {
  switch (severity) {
    case 0x00100000: return "Comment";
    case 0x00200000: return "Chat";
    case 0x00400000: return "Note";
    case 0x00600000: return "Warning";
    default: return "Error";
  }
}

const char* groupName(uint32_t group) {
  static const char* const names[] = {
      "Checksum", "Sequence", "Response code", "Request code", "Undecoded",  "Reassemble", "Malformed",
      "Debug",    "Protocol", "Security",      "Comment",      "Decryption", "Assumption", "Deprecated"};
  const uint32_t i = (group >> 24) - 1;
  return i < std::size(names) ? names[i] : "Unknown";
}

}  // namespace

// An expert info under `parent`, as the details tree shows it: a generated
// item naming severity and group, with the message, severity and group below.
void addExpertItem(State* s, int parent, const std::string& message, uint32_t group, uint32_t severity) {
  if (!s->want_tree) return;
  auto add = [s](int under, std::string text) {
    const int node = newNode(s, under);
    NodeLabel* label = labelOf(s, node);
    label->has_text = true;
    label->text = std::move(text);
    label->generated = true;
    return node;
  };
  const int item = add(parent, std::string("Expert Info (") + severityName(severity) + "/" +
                                   groupName(group) + "): " + message);
  add(item, message);
  add(item, std::string("Severity level: ") + severityName(severity));
  add(item, std::string("Group: ") + groupName(group));
}

void buildTree(State& s) {
  DissectResult& out = *s.out;
  const size_t n = s.nodes.size();
  s.labels.resize(n);
  // Children in the order they were added.
  std::vector<int> first(n, -1), last(n, -1), next(n, -1);
  for (size_t i = 1; i < n; ++i) {
    const int p = s.nodes[i].parent;
    (last[p] < 0 ? first[p] : next[last[p]]) = static_cast<int>(i);
    last[p] = static_cast<int>(i);
  }
  std::vector<std::pair<int, uint16_t>> stack;  // node, depth
  for (int c = first[0]; c >= 0; c = next[c]) stack.emplace_back(c, 0);
  std::reverse(stack.begin(), stack.end());
  while (!stack.empty()) {
    const auto [node, depth] = stack.back();
    stack.pop_back();
    const NodeLabel& label = s.labels[node];
    if (label.hidden) continue;  // and what is under it
    TreeLine line;
    line.depth = depth;
    const int vi = s.nodes[node].value;
    std::string text = label.has_text ? label.text : std::string();
    if (vi >= 0) {
      const FieldValue& v = out.values[vi];
      line.field = v.field;
      line.offset = v.offset;
      line.length = v.length;
      if (!label.has_text) text = fieldLabel(s, v, out);
      if (s.fields[v.field].type != FieldType::Protocol) line.value = formatField(s, v, out);
    } else {
      line.offset = label.offset;
      line.length = label.length;
    }
    text = label.prefix + text + label.suffix;
    line.label = label.generated ? "[" + text + "]" : std::move(text);
    out.tree.push_back(std::move(line));
    const size_t at = stack.size();
    for (int c = first[node]; c >= 0; c = next[c]) stack.emplace_back(c, uint16_t(depth + 1));
    std::reverse(stack.begin() + std::ptrdiff_t(at), stack.end());
  }
}

}  // namespace rudp::lua
