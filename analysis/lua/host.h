// Runs Wireshark Lua dissector files unchanged.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/contract.h"
#include "core/packet.h"
#include "core/proto_info.h"

namespace rudp {

enum class FieldType : uint8_t {
  None,
  Bool,
  UInt8,
  UInt16,
  UInt24,
  UInt32,
  UInt64,
  Int8,
  Int16,
  Int24,
  Int32,
  Int64,
  Char,
  FrameNum,
  Bytes,
  String,
  Float,
  Double,
  IPv4,
  Ether,
  Protocol  // a Proto's own item (tree:add(proto, ...)); abbrev = filter name
};

// A field type's natural size in bytes (Bool, Bytes, String, ...: 0).
int fieldTypeWidth(FieldType t);

struct FieldInfo {
  std::string abbrev;  // "grudp.seq"
  std::string name;    // "Sequence number"
  FieldType type = FieldType::None;
  int base = 0;          // base.* value as given
  uint64_t mask = 0;     // 0 = none
  int proto_index = -1;  // the Proto whose `fields` holds it
};

// One field occurrence, in the order the dissector added it.
struct FieldValue {
  int field = -1;
  uint64_t u = 0;        // integer (signed as two's complement, already masked+shifted), bool 0/1
  uint32_t str_off = 0;  // Bytes/String: slice of DissectResult::strings
  uint32_t str_len = 0;
  // The bytes the item covers, from the start of the UDP payload; kNoBytes
  // when it covers none of the payload (a value given in Lua, a ByteArray's Tvb).
  static constexpr uint32_t kNoBytes = UINT32_MAX;
  uint32_t offset = kNoBytes, length = 0;
};

// One line of the details tree as tshark -V prints it (without the indent).
struct TreeLine {
  uint16_t depth = 0;  // 0: the protocol's own item
  std::string label;
  uint32_t offset = FieldValue::kNoBytes, length = 0;  // payload bytes, as FieldValue
  int field = -1;                                      // the field's id; -1 for a text or expert item
  std::string value;                                   // a field's value as tshark -T fields prints it
};

struct DissectResult {
  int proto = -1;  // protocols() index that took the payload; -1 none
  // The Lua protocols whose dissectors ran and took bytes, in order, as
  // Wireshark lists them in frame.protocols (-1: "data"). A heuristic that
  // calls its protocol's Dissector adds it twice, as in Wireshark.
  std::vector<int> layers;
  std::vector<FieldValue> values;
  std::string strings;                 // arena for Bytes/String values
  bool lua_error = false;              // the dissector raised; values added before stay
  std::string error;                   // "grudp.lua:120: attempt to ..."
  bool malformed = false;              // an expert item of group MALFORMED or a bounds error
  std::string protocol_col, info_col;  // only filled when columns were asked for
  std::vector<TreeLine> tree;          // only filled when the tree was asked for (hidden items left out)
  void clear() {
    tree.clear();
    proto = -1;
    layers.clear();
    values.clear();
    strings.clear();
    lua_error = false;
    error.clear();
    malformed = false;
    protocol_col.clear();
    info_col.clear();
  }
};

class LuaHost {
 public:
  LuaHost();
  ~LuaHost();
  LuaHost(const LuaHost&) = delete;
  LuaHost& operator=(const LuaHost&) = delete;

  // Loads one dissector file. Throws DissectorError naming the file (and line):
  // unreadable file, syntax error, error while running it, calling an API
  // function the host does not implement.
  void loadScript(const std::string& path);
  // This host loads files another host of the process has loaded (a further
  // dissector lane): what their top-level code and init print is not
  // printed again. Before loadScript().
  void setRepeatLoad(bool repeat);
  // "grudp.port" = "9999", as tshark's -o. Applied by finishLoading().
  void setPreference(const std::string& name, const std::string& value);
  // Commits fields, applies preferences (running prefs_changed), runs init.
  void finishLoading();
  // Wireshark's preference for the built-in TCP layer,
  // tcp.relative_sequence_numbers (TRUE unless set otherwise).
  bool tcpRelativeSequenceNumbers() const;

  const std::vector<FieldInfo>& fields() const;
  int fieldByAbbrev(std::string_view abbrev) const;  // -1 when unknown
  // An integer field's value strings (ProtoField's valuestring table), sorted
  // by value; empty when it has none.
  const std::vector<std::pair<int64_t, std::string>>& valueNames(int field) const;
  const std::vector<ProtoInfo>& protocols() const;

  // Offers a UDP payload as Wireshark's UDP dissector does: the port table
  // (lower port first), then the heuristics. Never throws for packet content.
  // wantTree: also build the details tree's labels (DissectResult::tree),
  // which bulk dissection never needs.
  void dissectUdp(const DecodedPacket& pkt, bool wantColumns, DissectResult& out, bool wantTree = false);
  // What Wireshark offers the dissectors of a frame: its own UDP datagram,
  // else the one an ICMP error quotes (with pinfo.in_error_pkt; its columns
  // are the error's, so callers keep theirs). `out` is cleared when the frame
  // offers none.
  void dissect(const DecodedPacket& pkt, bool wantColumns, DissectResult& out, bool wantTree = false);

  // The text `tshark -T fields -e ABBREV` prints for one occurrence.
  std::string formatValue(const FieldValue& v, const DissectResult& r) const;

  // Capture time of the file's first frame, for pinfo.rel_ts (default: the
  // first packet dissected).
  void setFirstTimestamp(int64_t ts_ns);
  // Per-packet budget (VM instructions) and Lua heap cap. Defaults 10M / 512 MiB.
  void setLimits(uint64_t instructions, size_t memory_bytes);

  struct Impl;  // analysis/lua/state.h

 private:
  std::unique_ptr<Impl> d;
};

}  // namespace rudp
