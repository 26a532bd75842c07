// Pinfo, Columns, Column and Address (wslua_pinfo.c, wslua_column.c, wslua_address.c).
//
// Pinfo and the columns are singletons; their values are read from the
// packet being dissected. Column text is only kept when the caller asked
// for columns: otherwise set/append are no-ops.
#include <arpa/inet.h>

#include <algorithm>
#include <cstring>
#include <string_view>
#include <unordered_map>

#include "lua/state.h"

namespace rudp::lua {

namespace {

enum Col { kProtocol = 0, kInfo = 1, kOther = 2 };

// Pinfo's fields, each a small getter as wslua_pinfo.c's attribute table has
// them; the ones about reassembly and TCP are those of a UDP packet nothing
// reassembles.
using PinfoGetter = void (*)(lua_State*, State*, const DecodedPacket&);

void pushColumns(lua_State* L, State* s, const DecodedPacket&) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, s->pinfo_ref);
  lua_getfield(L, -1, "cols");  // stored in the pinfo metatable's companion table
}
void pushZero(lua_State* L, State*, const DecodedPacket&) { pushInt(L, 0); }
void pushZeroSeconds(lua_State* L, State*, const DecodedPacket&) { lua_pushnumber(L, 0); }
void pushFalse(lua_State* L, State*, const DecodedPacket&) { lua_pushboolean(L, 0); }
void pushSrc(lua_State* L, State* s, const DecodedPacket& p) { pushAddress(L, s, p.src); }
void pushDst(lua_State* L, State* s, const DecodedPacket& p) { pushAddress(L, s, p.dst); }
void pushLowPort(lua_State* L, State*, const DecodedPacket& p) { pushInt(L, std::min(p.sport, p.dport)); }

const std::unordered_map<std::string_view, PinfoGetter>& pinfoGetters() {
  using P = const DecodedPacket&;
  static const std::unordered_map<std::string_view, PinfoGetter> getters{
      {"cols", pushColumns},
      {"columns", pushColumns},
      {"caplen", [](lua_State* L, State*, P p) { pushInt(L, p.caplen); }},
      {"len", [](lua_State* L, State*, P p) { pushInt(L, p.origlen); }},
      {"number", [](lua_State* L, State*, P p) { pushInt(L, static_cast<int64_t>(p.frame)); }},
      {"abs_ts", [](lua_State* L, State*, P p) { lua_pushnumber(L, static_cast<double>(p.ts_ns) / 1e9); }},
      {"rel_ts",
       [](lua_State* L, State* s, P p) {
         const int64_t first = s->first_ts_ns == INT64_MIN ? p.ts_ns : s->first_ts_ns;
         lua_pushnumber(L, static_cast<double>(p.ts_ns - first) / 1e9);
       }},
      {"delta_ts", pushZeroSeconds},
      {"delta_dis_ts", pushZeroSeconds},
      {"src", pushSrc},
      {"net_src", pushSrc},
      {"dst", pushDst},
      {"net_dst", pushDst},
      {"lo", [](lua_State* L, State* s, P p) { pushAddress(L, s, p.src < p.dst ? p.src : p.dst); }},
      {"hi", [](lua_State* L, State* s, P p) { pushAddress(L, s, p.src < p.dst ? p.dst : p.src); }},
      {"src_port", [](lua_State* L, State*, P p) { pushInt(L, p.sport); }},
      {"dst_port", [](lua_State* L, State*, P p) { pushInt(L, p.dport); }},
      {"port_type", [](lua_State* L, State*, P) { pushInt(L, 3); }},  // PT_UDP
      {"match", pushLowPort},
      {"match_uint", pushLowPort},
      {"curr_proto", [](lua_State* L, State*, P) { lua_pushstring(L, "UDP"); }},
      {"can_desegment", pushZero},
      {"desegment_len", pushZero},
      {"desegment_offset", pushZero},
      {"fragmented", pushFalse},
      {"visited", pushFalse},
      {"in_error_pkt", [](lua_State* L, State*, P p) { lua_pushboolean(L, p.in_error_pkt); }},
      {"private", [](lua_State* L, State*, P) { lua_newtable(L); }},
  };
  return getters;
}

int pinfoIndex(lua_State* L) {
  State* s = S(L);
  const char* k = luaL_checkstring(L, 2);
  const DecodedPacket* p = s->pkt;
  if (!p || !s->in_packet) hostError(L, "Expired Pinfo");
  const auto& getters = pinfoGetters();
  const auto it = getters.find(k);
  if (it == getters.end()) notImplemented(L, std::string("Pinfo.") + k);
  it->second(L, s, *p);
  return 1;
}

int pinfoNewIndex(lua_State* L) {
  const char* k = luaL_checkstring(L, 2);
  // Desegmentation only matters for TCP, which the host does not offer.
  if (!strcmp(k, "desegment_len") || !strcmp(k, "desegment_offset")) return 0;
  if (!strcmp(k, "cols") || !strcmp(k, "columns")) hostError(L, "Pinfo.%s is read-only", k);
  notImplemented(L, std::string("Pinfo.") + k + " (assignment)");
}

int colIndexOf(const char* name) {
  if (!strcmp(name, "protocol")) return kProtocol;
  if (!strcmp(name, "info")) return kInfo;
  return kOther;
}

void pushColumn(lua_State* L, int col) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, S(L)->pinfo_ref);
  lua_rawgeti(L, -1, col + 1);
  lua_remove(L, -2);
}

int colsIndex(lua_State* L) {
  pushColumn(L, colIndexOf(luaL_checkstring(L, 2)));
  return 1;
}

std::string* colText(State* s, int col, size_t** fence) {
  if (col == kProtocol) {
    *fence = &s->protocol_fence;
    return &s->col_protocol;
  }
  if (col == kInfo) {
    *fence = &s->info_fence;
    return &s->col_info;
  }
  return nullptr;
}

enum class Op { Set, Append, Prepend, Clear, Fence, ClearFence };

int columnOp(lua_State* L, int col, Op op, int text_i) {
  State* s = S(L);
  if (!s->in_packet) hostError(L, "Expired Column");
  size_t n = 0;
  const char* text =
      (op == Op::Set || op == Op::Append || op == Op::Prepend) ? luaL_checklstring(L, text_i, &n) : "";
  if (!s->want_columns) return 0;
  size_t* fence = nullptr;
  std::string* c = colText(s, col, &fence);
  if (!c) return 0;
  if (*fence > c->size()) *fence = c->size();
  switch (op) {
    case Op::Set:
      c->resize(*fence);
      c->append(text, n);
      break;
    case Op::Append: c->append(text, n); break;
    case Op::Prepend: c->insert(*fence, text, n); break;
    case Op::Clear: c->resize(*fence); break;
    case Op::Fence: *fence = c->size(); break;
    case Op::ClearFence: *fence = 0; break;
  }
  return 0;
}

int colsNewIndex(lua_State* L) { return columnOp(L, colIndexOf(luaL_checkstring(L, 2)), Op::Set, 3); }

int columnIndexOf(lua_State* L) { return checkUd<IndexUd>(L, 1, T::Column)->index; }
int cSet(lua_State* L) { return columnOp(L, columnIndexOf(L), Op::Set, 2); }
int cAppend(lua_State* L) { return columnOp(L, columnIndexOf(L), Op::Append, 2); }
int cPrepend(lua_State* L) { return columnOp(L, columnIndexOf(L), Op::Prepend, 2); }
int cClear(lua_State* L) { return columnOp(L, columnIndexOf(L), Op::Clear, 0); }
int cFence(lua_State* L) { return columnOp(L, columnIndexOf(L), Op::Fence, 0); }
int cClearFence(lua_State* L) { return columnOp(L, columnIndexOf(L), Op::ClearFence, 0); }
int cNoop(lua_State* L) {
  columnIndexOf(L);
  return 0;
}
int cToString(lua_State* L) {
  State* s = S(L);
  size_t* fence;
  std::string* c = colText(s, columnIndexOf(L), &fence);
  lua_pushstring(L, c ? c->c_str() : "");
  return 1;
}

int addrToString(lua_State* L) {
  auto* a = checkUd<AddressUd>(L, 1, T::Address);
  lua_pushstring(L, a->addr.toString().c_str());
  return 1;
}
int addrEq(lua_State* L) {
  auto* a = checkUd<AddressUd>(L, 1, T::Address);
  auto* b = testUd<AddressUd>(L, 2, T::Address);
  lua_pushboolean(L, b && a->addr == b->addr);
  return 1;
}
int addrLt(lua_State* L) {
  lua_pushboolean(L, checkUd<AddressUd>(L, 1, T::Address)->addr < checkUd<AddressUd>(L, 2, T::Address)->addr);
  return 1;
}
int addrLe(lua_State* L) {
  lua_pushboolean(L,
                  checkUd<AddressUd>(L, 1, T::Address)->addr <= checkUd<AddressUd>(L, 2, T::Address)->addr);
  return 1;
}

// Address.ip("192.0.2.1"): an IPv4 address, as Wireshark 4.0's (which also
// resolves host names; rudpscope never resolves: a name gives 0.0.0.0, as an
// unresolvable one does there).
int addrIp(lua_State* L) {
  const char* text = luaL_checkstring(L, 1);
  IpAddress a;
  a.family = 4;
  if (inet_pton(AF_INET, text, a.bytes.data()) != 1) a.bytes.fill(0);
  pushAddress(L, S(L), a);
  return 1;
}

}  // namespace

void pushAddress(lua_State* L, State* s, const IpAddress& a) {
  auto* u = newUd<AddressUd>(L, s, T::Address);
  u->addr = a;
}

void openPinfo(lua_State* L, State* s) {
  static const luaL_Reg pinfoMeta[] = {
      {"__index", pinfoIndex}, {"__newindex", pinfoNewIndex}, {nullptr, nullptr}};
  registerClass(L, s, T::Pinfo, nullptr, pinfoMeta);
  static const luaL_Reg colsMeta[] = {
      {"__index", colsIndex}, {"__newindex", colsNewIndex}, {nullptr, nullptr}};
  registerClass(L, s, T::Columns, nullptr, colsMeta);
  static const luaL_Reg colMethods[] = {
      {"set", cSet},        {"append", cAppend}, {"prepend", cPrepend},        {"preppend", cPrepend},
      {"clear", cClear},    {"fence", cFence},   {"clear_fence", cClearFence}, {"clear_fence", cClearFence},
      {"set_fence", cNoop}, {nullptr, nullptr}};
  static const luaL_Reg colMeta[] = {{"__tostring", cToString}, {nullptr, nullptr}};
  registerClass(L, s, T::Column, colMethods, colMeta);
  static const luaL_Reg addrMeta[] = {
      {"__tostring", addrToString}, {"__eq", addrEq}, {"__lt", addrLt}, {"__le", addrLe}, {nullptr, nullptr}};
  registerClass(L, s, T::Address, nullptr, addrMeta);
  lua_newtable(L);
  lua_pushlightuserdata(L, s);
  lua_pushcclosure(L, addrIp, 1);
  lua_setfield(L, -2, "ip");
  lua_setglobal(L, "Address");

  // A holder table: [1..3] the Column objects, .cols the Columns object,
  // .pinfo the Pinfo object.
  lua_newtable(L);
  for (int c = kProtocol; c <= kOther; ++c) {
    newUd<IndexUd>(L, s, T::Column)->index = c;
    lua_rawseti(L, -2, c + 1);
  }
  newUd<Ud>(L, s, T::Columns);
  lua_setfield(L, -2, "cols");
  newUd<Ud>(L, s, T::Pinfo);
  lua_setfield(L, -2, "pinfo");
  s->pinfo_ref = luaL_ref(L, LUA_REGISTRYINDEX);
}

}  // namespace rudp::lua
