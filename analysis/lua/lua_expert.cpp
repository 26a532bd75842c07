// ProtoExpert and the expert.group / expert.severity constants (wslua_proto_expert.c).
#include "lua/state.h"

namespace rudp::lua {

namespace {

const std::pair<const char*, int> kGroups[] = {
    {"CHECKSUM", 0x01000000},     {"SEQUENCE", 0x02000000},       {"RESPONSE_CODE", 0x03000000},
    {"REQUEST_CODE", 0x04000000}, {"UNDECODED", 0x05000000},      {"REASSEMBLE", 0x06000000},
    {"MALFORMED", 0x07000000},    {"DEBUG", 0x08000000},          {"PROTOCOL", 0x09000000},
    {"SECURITY", 0x0a000000},     {"COMMENTS_GROUP", 0x0b000000}, {"DECRYPTION", 0x0c000000},
    {"ASSUMPTION", 0x0d000000},   {"DEPRECATED", 0x0e000000},
};
const std::pair<const char*, int> kSeverities[] = {
    {"COMMENT", 0x00100000}, {"CHAT", 0x00200000},  {"NOTE", 0x00400000},
    {"WARN", 0x00600000},    {"ERROR", 0x00800000},
};

// ProtoExpert.new(abbr, text, group, severity)
int expertNew(lua_State* L) {
  State* s = S(L);
  Expert e;
  e.abbrev = luaL_checkstring(L, 1);
  e.text = luaL_checkstring(L, 2);
  e.group = static_cast<uint32_t>(luaL_checkinteger(L, 3));
  e.severity = static_cast<uint32_t>(luaL_checkinteger(L, 4));
  s->experts.push_back(e);
  newUd<IndexUd>(L, s, T::ProtoExpert)->index = static_cast<int>(s->experts.size()) - 1;
  return 1;
}

int expertToString(lua_State* L) {
  State* s = S(L);
  const Expert& e = s->experts[checkUd<IndexUd>(L, 1, T::ProtoExpert)->index];
  lua_pushfstring(L, "ProtoExpert: %s", e.abbrev.c_str());
  return 1;
}

}  // namespace

void openExpert(lua_State* L, State* s) {
  static const luaL_Reg meta[] = {{"__tostring", expertToString}, {nullptr, nullptr}};
  registerClass(L, s, T::ProtoExpert, nullptr, meta);
  static const luaL_Reg fns[] = {{"new", expertNew}, {nullptr, nullptr}};
  registerFunctions(L, s, "ProtoExpert", fns);
  lua_newtable(L);
  lua_newtable(L);
  for (const auto& [n, v] : kGroups) {
    lua_pushinteger(L, v);
    lua_setfield(L, -2, n);
  }
  lua_setfield(L, -2, "group");
  lua_newtable(L);
  for (const auto& [n, v] : kSeverities) {
    lua_pushinteger(L, v);
    lua_setfield(L, -2, n);
  }
  lua_setfield(L, -2, "severity");
  lua_setglobal(L, "expert");
  // The pre-1.12 PI_* globals some older dissectors still use.
  for (const auto& [n, v] : kGroups) {
    lua_pushinteger(L, v);
    lua_setglobal(L, (std::string("PI_") + n).c_str());
  }
  for (const auto& [n, v] : kSeverities) {
    lua_pushinteger(L, v);
    lua_setglobal(L, (std::string("PI_") + n).c_str());
  }
}

}  // namespace rudp::lua
