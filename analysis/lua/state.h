// Internal state of one LuaHost: what every binding file shares.
//
// Every C function the host registers carries the State* as upvalue 1, so
// no binding looks anything up by name in the registry on the hot path.
// Userdata start with a 64-bit tag whose high bits no user-space pointer
// has, which lets the bindings type-check with one load (io file handles,
// the only foreign userdata a script can obtain, start with a pointer).
#pragma once
#include <deque>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "lua/compat.h"
#include "lua/host.h"

namespace rudp::lua {

enum class T : uint64_t {
  Proto = 1,
  ProtoField,
  Tvb,
  TvbRange,
  TreeItem,
  Pinfo,
  Columns,
  Column,
  Address,
  DissectorTable,
  Dissector,
  Pref,
  Prefs,
  ProtoExpert,
  ByteArray,
  UInt64,
  Int64,
  Field,
  FieldInfo,
  Count
};
constexpr uint64_t kTagBase = 0xC0DE5C0900000000ull;
inline uint64_t tagOf(T t) { return kTagBase | static_cast<uint64_t>(t); }

struct Ud {
  uint64_t tag;
};
struct ProtoUd : Ud {
  int proto;
};
struct FieldUd : Ud {
  int pf;
};  // index into State::pfields
struct TvbUd : Ud {
  const uint8_t* data;
  uint32_t len, reported, gen;
};
struct RangeUd : Ud {
  const uint8_t* data;
  uint32_t tvb_len, tvb_reported, off, len, gen;
};
struct TreeUd : Ud {
  int node;
  uint32_t gen;
};
struct AddressUd : Ud {
  IpAddress addr;
};
struct IndexUd : Ud {
  int index;
};  // Column, DissectorTable, Dissector, Pref, Prefs, ProtoExpert
struct U64Ud : Ud {
  uint64_t v;
};  // UInt64 and Int64 (two's complement)
struct ByteArrayUd : Ud {
  std::string* bytes;
};

// A ProtoField as the script made it; `fid` is set once a Proto's `fields`
// table is committed.
struct PField {
  FieldInfo info;
  int fid = -1;
  int shift = 0;      // trailing zero bits of the mask
  int mask_bits = 0;  // population count of the mask
  int width = 0;      // natural size in bytes (0 for none/bytes/string)
  bool is_signed = false;
  // The valuestring table of an integer field, sorted by value; only the
  // labels of the details tree use it.
  std::vector<std::pair<int64_t, std::string>> value_names;
};

struct ProtoRt {
  int dissector_ref = LUA_NOREF;
  int fields_ref = LUA_NOREF;  // the Lua table behind p.fields
  int experts_ref = LUA_NOREF;
  int init_ref = LUA_NOREF;
  int prefs_changed_ref = LUA_NOREF;
  int field = -1;  // FT_PROTOCOL field id
  int prefs_ud_ref = LUA_NOREF;
};

struct Handle {      // what a dissector table entry points at
  int proto = -1;    // Lua proto, or -1 for a built-in stub
  std::string name;  // "data" for the built-in stub
};

struct DTable {
  std::string name;
  bool string_keys = false;
  std::map<uint64_t, int> by_uint;  // key -> handle index
  std::map<std::string, int> by_string;
};

struct Heuristic {
  int proto;
  int fn_ref;
};

enum class PrefType : uint8_t { UInt, Bool, String, Enum, Range, Static };
struct PrefRt {
  int proto = -1;  // -1 until assigned to p.prefs.name
  std::string name;
  PrefType type = PrefType::UInt;
  double num = 0;                                        // UInt, Bool (0/1), Enum
  std::string str;                                       // String, Range
  std::vector<std::pair<std::string, int>> enum_values;  // name -> value
  int base = 10;
};

struct Expert {
  std::string abbrev, text;
  uint32_t group = 0, severity = 0;
};

struct Node {
  int parent;
  int value;
};  // value: index in out.values or -1

// What the details tree shows for a node beyond its field value, kept only
// when the tree is asked for (State::want_tree): Wireshark's label edits.
struct NodeLabel {
  bool has_text = false;  // set_text, a label given to add(), a text item
  std::string text, prefix, suffix;
  bool generated = false, hidden = false;
  uint32_t offset = UINT32_MAX, length = 0;  // a text item's bytes in the payload
};

struct State {
  lua_State* L = nullptr;
  LuaHost* host = nullptr;
  std::vector<PField> pfields;
  std::vector<FieldInfo> fields;  // committed, in id order
  std::vector<int> field_pf;      // field id -> pfields index (-1 for protocols)
  std::unordered_map<std::string, int> field_by_abbrev;
  std::vector<ProtoInfo> protos;
  std::vector<ProtoRt> proto_rt;
  std::vector<Handle> handles;
  std::vector<DTable> tables;
  std::vector<int> udp_port;  // 65536 entries: handle index or -1
  std::map<std::string, std::vector<Heuristic>> heuristics;
  std::vector<PrefRt> prefs;
  std::map<std::string, std::string> pref_overrides;
  bool tcp_relative_seq = true;  // a built-in layer's preference
  bool privileged = false;       // core/privileges.h: only trusted Lua files load
  bool repeat_load = false;      // LuaHost::setRepeatLoad
  std::vector<Expert> experts;
  std::string script;  // file being loaded (basename)

  // Per packet.
  DissectResult* out = nullptr;
  const DecodedPacket* pkt = nullptr;
  bool want_columns = false;
  bool want_tree = false;
  std::vector<NodeLabel> labels;  // by node, when want_tree
  bool in_packet = false;
  bool exception = false;  // a Wireshark exception (malformed) was thrown
  uint32_t gen = 1;
  std::vector<Node> nodes;
  std::deque<std::string> owned;  // bytes of Tvbs made from ByteArrays this packet
  int last_node = 0;
  bool out_of_order = false;
  int range_used = 0, range_pool_size = 0;
  int tree_used = 0, tree_pool_size = 0;
  std::string col_protocol, col_info;
  size_t info_fence = 0, protocol_fence = 0;
  int64_t first_ts_ns = INT64_MIN;
  uint64_t instructions = 0;
  uint64_t instruction_limit = 10'000'000;
  size_t memory_limit = 512u << 20;

  // Registry refs (integer keys) of long-lived objects.
  int msgh_ref = LUA_NOREF;  // the pcall message handler
  int range_pool_ref = LUA_NOREF, tree_pool_ref = LUA_NOREF;
  int tvb_ref = LUA_NOREF, pinfo_ref = LUA_NOREF, root_ref = LUA_NOREF;
  int mt_ref[static_cast<int>(T::Count)] = {};
  TvbUd* tvb = nullptr;
  TreeUd* root = nullptr;
};

inline State* S(lua_State* L) { return static_cast<State*>(lua_touserdata(L, lua_upvalueindex(1))); }
// Upvalues 2 and 3 of every binding: the TvbRange and TreeItem pools.
constexpr int kRangePoolUpvalue = 2, kTreePoolUpvalue = 3;
// Pushes the three upvalues every binding carries; returns their count.
int pushUpvalues(lua_State* L, State* s);

// lua_touserdata is non-null for full and light userdata; the only light
// userdata a script can reach (through the debug library) point at host
// objects whose first 8 bytes are never a tag.
template <class U>
inline U* testUd(lua_State* L, int i, T t) {
  auto* u = static_cast<U*>(lua_touserdata(L, i));
  return u && u->tag == tagOf(t) ? u : nullptr;
}
const char* typeName(T t);
// Raises "bad argument #i to 'fn' (Type expected, got x)".
[[noreturn]] void typeError(lua_State* L, int i, const char* expected);
template <class U>
inline U* checkUd(lua_State* L, int i, T t) {
  U* u = testUd<U>(L, i, t);
  if (!u) typeError(L, i, typeName(t));
  return u;
}
// New userdata of type t with its metatable set; left on the stack.
template <class U>
inline U* newUd(lua_State* L, State* s, T t) {
  auto* u = static_cast<U*>(lua_newuserdata(L, sizeof(U)));
  u->tag = tagOf(t);
  lua_rawgeti(L, LUA_REGISTRYINDEX, s->mt_ref[static_cast<int>(t)]);
  lua_setmetatable(L, -2);
  return u;
}

// Registers a class: metatable with __index = methods table, whose own
// __index names the missing API in the error. `meta` adds metamethods (may
// replace __index with a function for attribute access). Leaves nothing.
void registerClass(lua_State* L, State* s, T t, const luaL_Reg* methods, const luaL_Reg* meta);
// Creates a global table `name` holding the functions (upvalue: State*).
void registerFunctions(lua_State* L, State* s, const char* name, const luaL_Reg* fns);
// luaL_error, but located at the nearest Lua line even when the binding was
// tail-called (LuaJIT drops the caller's frame there).
[[noreturn]] void hostError(lua_State* L, const char* fmt, ...);
void pushWhere(lua_State* L);
// "file:line: 'what' is not implemented by rudpscope's Lua host"
[[noreturn]] void notImplemented(lua_State* L, const std::string& what);
// Global table `name`'s unknown keys (Wireshark API the host lacks, such as
// ProtoField.ipv6) raise notImplemented instead of reading nil.
void reportMissingMembers(lua_State* L, const char* name);
// A Wireshark C exception (ReportedBoundsError etc.): marks the packet
// malformed and unwinds the dissector.
[[noreturn]] void throwMalformed(lua_State* L, const char* msg);
int refValue(lua_State* L, int i);  // luaL_ref of a copy of index i

// Registration entry points, one per binding file.
void openProto(lua_State* L, State* s);
void openProtoField(lua_State* L, State* s);
void openTvb(lua_State* L, State* s);
void openTvbRange(lua_State* L, State* s);
void openTreeItem(lua_State* L, State* s);
void openPinfo(lua_State* L, State* s);
void openDissectorTable(lua_State* L, State* s);
void openPref(lua_State* L, State* s);
void openExpert(lua_State* L, State* s);
void openByteArray(lua_State* L, State* s);
void openUInt64(lua_State* L, State* s);
void openBit(lua_State* L, State* s);
void openField(lua_State* L, State* s);

// Shared helpers across files.
void pushRange(lua_State* L, State* s, const uint8_t* data, uint32_t tvb_len, uint32_t tvb_reported,
               uint32_t off, uint32_t len);
void pushTreeItem(lua_State* L, State* s, int node);
void pushAddress(lua_State* L, State* s, const IpAddress& a);
void pushUInt64(lua_State* L, State* s, uint64_t v);
void pushInt64(lua_State* L, State* s, int64_t v);
void pushByteArray(lua_State* L, State* s, const uint8_t* p, size_t n);
uint64_t checkU64(lua_State* L, State* s, int i);  // number, UInt64, Int64 or numeric string
void commitFields(State* s);
int callHandle(lua_State* L, State* s, int handle, int tvb_idx, int pinfo_idx, int tree_idx);
std::string formatField(const State& s, const FieldValue& v, const DissectResult& r);
// Fills s.out->tree from the packet's nodes and labels (analysis/lua/tree_label.cpp).
void buildTree(State& s);
// The node's label edits; nullptr unless the details tree was asked for.
NodeLabel* labelOf(State* s, int node);
// An expert info under `parent` (when the tree is asked for): a generated
// item naming severity and group, with the message, severity and group below.
void addExpertItem(State* s, int parent, const std::string& message, uint32_t group, uint32_t severity);
// A new node under `parent` (analysis/lua/lua_treeitem.cpp).
int newNode(State* s, int parent);

}  // namespace rudp::lua

namespace rudp {
struct LuaHost::Impl {
  lua::State s;
  // Bytes allocated since the cap was installed (blocks from before may be
  // freed later, so this can dip below zero).
  int64_t allocated = 0;
  lua_Alloc base_alloc = nullptr;  // the Lua implementation's own allocator
  void* base_ud = nullptr;
  bool finished = false;
};
}  // namespace rudp
