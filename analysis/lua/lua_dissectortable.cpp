// DissectorTable and Dissector (wslua_dissector.c).
//
// Handles are indices into State::handles: one per Lua Proto (named after
// its filter name) plus stubs for the few built-in names scripts hand data
// to. "udp.port" is the table dissectUdp() consults.
#include <cstdlib>
#include <cstring>

#include "lua/state.h"

namespace rudp::lua {

namespace {

int findTable(State* s, const std::string& name) {
  for (size_t i = 0; i < s->tables.size(); ++i)
    if (s->tables[i].name == name) return static_cast<int>(i);
  return -1;
}

int tableGet(lua_State* L) {
  State* s = S(L);
  std::string name = luaL_checkstring(L, 1);
  int t = findTable(s, name);
  if (t < 0) {
    // Wireshark's integer tables scripts commonly reach; others would need their protocol.
    static const char* const known[] = {"udp.port", "tcp.port",   "sctp.port", "dccp.port", "ethertype",
                                        "ip.proto", "wtap_encap", "udp.heur",  "tcp.heur"};
    bool ok = false;
    for (const char* k : known) ok = ok || name == k;
    if (!ok) notImplemented(L, "DissectorTable.get(\"" + name + "\")");
    s->tables.push_back(DTable{name, false, {}, {}});
    t = static_cast<int>(s->tables.size()) - 1;
  }
  newUd<IndexUd>(L, s, T::DissectorTable)->index = t;
  return 1;
}

// DissectorTable.new(name, [uiname], [type], [base], [proto])
int tableNew(lua_State* L) {
  State* s = S(L);
  std::string name = luaL_checkstring(L, 1);
  if (findTable(s, name) >= 0) luaL_argerror(L, 1, "a dissector table with this name already exists");
  const int type = static_cast<int>(luaL_optinteger(L, 3, 7));  // ftypes.UINT32
  s->tables.push_back(DTable{name, type == 26 || type == 27, {}, {}});
  newUd<IndexUd>(L, s, T::DissectorTable)->index = static_cast<int>(s->tables.size()) - 1;
  return 1;
}

int handleOf(lua_State* L, State* s, int i, bool need_dissector = false) {
  if (auto* p = testUd<ProtoUd>(L, i, T::Proto)) {
    if (need_dissector && s->proto_rt[p->proto].dissector_ref == LUA_NOREF)
      luaL_argerror(
          L, i, "DissectorTable_add: a Protocol that does not have a dissector cannot be added to a table");
    for (size_t h = 0; h < s->handles.size(); ++h)
      if (s->handles[h].proto == p->proto) return static_cast<int>(h);
  }
  if (auto* d = testUd<IndexUd>(L, i, T::Dissector)) return d->index;
  typeError(L, i, "Proto or Dissector");
}

// Calls fn(port) for every port of a number or a "1000-1005,2000" range string.
template <class Fn>
void forEachKey(lua_State* L, int i, Fn fn) {
  if (lua_type(L, i) == LUA_TNUMBER) {
    fn(static_cast<uint64_t>(toInt(L, i)));
    return;
  }
  const char* p = luaL_checkstring(L, i);
  while (*p) {
    while (*p == ' ' || *p == ',') ++p;
    if (!*p) break;
    char* end;
    unsigned long a = strtoul(p, &end, 10);
    if (end == p) luaL_argerror(L, i, "invalid range string");
    unsigned long b = a;
    p = end;
    while (*p == ' ') ++p;
    if (*p == '-') {
      b = strtoul(p + 1, &end, 10);
      if (end == p + 1 || b < a || b - a > 65535) luaL_argerror(L, i, "invalid range string");
      p = end;
    }
    for (unsigned long k = a; k <= b; ++k) fn(k);
  }
}

DTable& checkTable(lua_State* L, State* s) {
  return s->tables[checkUd<IndexUd>(L, 1, T::DissectorTable)->index];
}

int tableAdd(lua_State* L) {
  State* s = S(L);
  DTable& t = checkTable(L, s);
  const int h = handleOf(L, s, 3, true);
  if (t.string_keys)
    t.by_string[luaL_checkstring(L, 2)] = h;
  else
    forEachKey(L, 2, [&](uint64_t k) { t.by_uint[k] = h; });
  return 0;
}

int tableRemove(lua_State* L) {
  State* s = S(L);
  DTable& t = checkTable(L, s);
  const int h = handleOf(L, s, 3);
  if (t.string_keys) {
    auto it = t.by_string.find(luaL_checkstring(L, 2));
    if (it != t.by_string.end() && it->second == h) t.by_string.erase(it);
  } else {
    forEachKey(L, 2, [&](uint64_t k) {
      auto it = t.by_uint.find(k);
      if (it != t.by_uint.end() && it->second == h) t.by_uint.erase(it);
    });
  }
  return 0;
}

int tableRemoveAll(lua_State* L) {
  State* s = S(L);
  DTable& t = checkTable(L, s);
  const int h = handleOf(L, s, 2);
  std::erase_if(t.by_uint, [h](const auto& e) { return e.second == h; });
  std::erase_if(t.by_string, [h](const auto& e) { return e.second == h; });
  return 0;
}

int lookup(lua_State* L, State* s, DTable& t) {
  if (t.string_keys) {
    auto it = t.by_string.find(luaL_checkstring(L, 2));
    return it == t.by_string.end() ? -1 : it->second;
  }
  auto it = t.by_uint.find(static_cast<uint64_t>(toInt(L, 2)));
  (void)s;
  return it == t.by_uint.end() ? -1 : it->second;
}

int tableGetDissector(lua_State* L) {
  State* s = S(L);
  const int h = lookup(L, s, checkTable(L, s));
  if (h < 0)
    lua_pushnil(L);
  else
    newUd<IndexUd>(L, s, T::Dissector)->index = h;
  return 1;
}

// try(pattern, tvb, pinfo, tree): calls the dissector registered for the key.
int tableTry(lua_State* L) {
  State* s = S(L);
  const int h = lookup(L, s, checkTable(L, s));
  pushInt(L, h < 0 ? 0 : callHandle(L, s, h, 3, 4, 5));
  return 1;
}

int dissectorGet(lua_State* L) {
  State* s = S(L);
  std::string name = luaL_checkstring(L, 1);
  for (size_t h = 0; h < s->handles.size(); ++h) {
    if (s->handles[h].name == name) {
      newUd<IndexUd>(L, s, T::Dissector)->index = static_cast<int>(h);
      return 1;
    }
  }
  if (name == "data") {  // the built-in catch-all: accepts everything, adds nothing here
    s->handles.push_back(Handle{-1, name});
    newUd<IndexUd>(L, s, T::Dissector)->index = static_cast<int>(s->handles.size()) - 1;
    return 1;
  }
  notImplemented(L, "Dissector.get(\"" + name + "\")");
}

int dissectorCall(lua_State* L) {
  State* s = S(L);
  auto* d = checkUd<IndexUd>(L, 1, T::Dissector);
  pushInt(L, callHandle(L, s, d->index, 2, 3, 4));
  return 1;
}

int dissectorToString(lua_State* L) {
  State* s = S(L);
  lua_pushstring(L, s->handles[checkUd<IndexUd>(L, 1, T::Dissector)->index].name.c_str());
  return 1;
}

}  // namespace

void openDissectorTable(lua_State* L, State* s) {
  static const luaL_Reg tmethods[] = {{"add", tableAdd},
                                      {"set", tableAdd},
                                      {"remove", tableRemove},
                                      {"remove_all", tableRemoveAll},
                                      {"get_dissector", tableGetDissector},
                                      {"try", tableTry},
                                      {nullptr, nullptr}};
  registerClass(L, s, T::DissectorTable, tmethods, nullptr);
  static const luaL_Reg tfns[] = {{"get", tableGet}, {"new", tableNew}, {nullptr, nullptr}};
  registerFunctions(L, s, "DissectorTable", tfns);
  static const luaL_Reg dmethods[] = {{"call", dissectorCall}, {nullptr, nullptr}};
  static const luaL_Reg dmeta[] = {
      {"__call", dissectorCall}, {"__tostring", dissectorToString}, {nullptr, nullptr}};
  registerClass(L, s, T::Dissector, dmethods, dmeta);
  static const luaL_Reg dfns[] = {{"get", dissectorGet}, {nullptr, nullptr}};
  registerFunctions(L, s, "Dissector", dfns);
}

}  // namespace rudp::lua
