// Proto: a protocol a script declares (wslua_proto.c).
#include <algorithm>
#include <cctype>
#include <cstring>

#include "lua/state.h"

namespace rudp::lua {

namespace {

// Names Wireshark already owns; a Lua Proto cannot take them.
const char* const kBuiltinProtos[] = {"rudp", "udp",  "tcp",  "ip",   "ipv6", "eth", "frame", "data",
                                      "dns",  "http", "tls",  "dtls", "quic", "rtp", "rtcp",  "stun",
                                      "sip",  "ntp",  "dhcp", "snmp", "icmp", "arp", "sctp",  "kcp_"};

int protoNew(lua_State* L, int first) {
  State* s = S(L);
  const char* name = luaL_checkstring(L, first);
  const char* desc = luaL_checkstring(L, first + 1);
  std::string lname(name);
  std::transform(lname.begin(), lname.end(), lname.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const auto& p : s->protos)
    if (p.name == lname || p.description == desc)
      luaL_argerror(L, first, "there cannot be two protocols with the same name");
  for (const char* b : kBuiltinProtos)
    if (lname == b) luaL_argerror(L, first, "there cannot be two protocols with the same name");

  const int index = static_cast<int>(s->protos.size());
  ProtoInfo info;
  info.name = lname;
  info.description = desc;
  info.script = s->script;
  s->protos.push_back(info);
  ProtoRt rt;
  lua_newtable(L);
  rt.fields_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_newtable(L);
  rt.experts_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  // The protocol's own item is a field too, so `-e grudp` has an id.
  rt.field = static_cast<int>(s->fields.size());
  FieldInfo fi;
  fi.abbrev = lname;
  fi.name = desc;
  fi.type = FieldType::Protocol;
  fi.proto_index = index;
  s->fields.push_back(fi);
  s->field_pf.push_back(-1);
  s->field_by_abbrev.emplace(lname, rt.field);
  auto* prefs = newUd<IndexUd>(L, s, T::Prefs);
  prefs->index = index;
  rt.prefs_ud_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  s->proto_rt.push_back(rt);
  // Wireshark registers a dissector handle named after the protocol.
  s->handles.push_back(Handle{index, lname});

  auto* u = newUd<ProtoUd>(L, s, T::Proto);
  u->proto = index;
  return 1;
}

int protoCall(lua_State* L) { return protoNew(L, 2); }   // Proto(name, desc): arg 1 is the class table
int protoNewFn(lua_State* L) { return protoNew(L, 1); }  // Proto.new(name, desc)

void pushRef(lua_State* L, int ref) {
  if (ref == LUA_NOREF)
    lua_pushnil(L);
  else
    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
}

// Appends a ProtoField/ProtoExpert (or every one in a table) to a list table.
void appendTo(lua_State* L, int list_ref, int value, T type) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, list_ref);
  const int list = lua_gettop(L);
  auto add = [&](int vi) {
    checkUd<Ud>(L, vi, type);
    lua_pushvalue(L, vi);
    lua_rawseti(L, list, static_cast<int>(lua_rawlen(L, list)) + 1);
  };
  if (lua_istable(L, value)) {
    const int n = static_cast<int>(lua_rawlen(L, value));
    for (int i = 1; i <= n; ++i) {
      lua_rawgeti(L, value, i);
      add(lua_gettop(L));
      lua_pop(L, 1);
    }
    lua_pushnil(L);
    while (lua_next(L, value)) {  // keyed entries: fields.seq = ProtoField...
      if (!(lua_type(L, -2) == LUA_TNUMBER && lua_tonumber(L, -2) >= 1 && lua_tonumber(L, -2) <= n))
        add(lua_gettop(L));
      lua_pop(L, 1);
    }
  } else {
    add(value);
  }
  lua_pop(L, 1);
}

// Wireshark's Proto.dissector: the protocol's Dissector (calling it adds the
// protocol to frame.protocols again), nil before a dissector is set.
void pushDissectorOf(lua_State* L, State* s, int proto) {
  if (s->proto_rt[proto].dissector_ref == LUA_NOREF) return lua_pushnil(L);
  for (size_t h = 0; h < s->handles.size(); ++h)
    if (s->handles[h].proto == proto) {
      newUd<IndexUd>(L, s, T::Dissector)->index = static_cast<int>(h);
      return;
    }
  lua_pushnil(L);
}

int protoIndex(lua_State* L) {
  State* s = S(L);
  auto* u = checkUd<ProtoUd>(L, 1, T::Proto);
  const char* k = luaL_checkstring(L, 2);
  ProtoRt& rt = s->proto_rt[u->proto];
  if (!strcmp(k, "dissector"))
    pushDissectorOf(L, s, u->proto);
  else if (!strcmp(k, "fields"))
    pushRef(L, rt.fields_ref);
  else if (!strcmp(k, "prefs"))
    pushRef(L, rt.prefs_ud_ref);
  else if (!strcmp(k, "experts"))
    pushRef(L, rt.experts_ref);
  else if (!strcmp(k, "prefs_changed"))
    pushRef(L, rt.prefs_changed_ref);
  else if (!strcmp(k, "init"))
    pushRef(L, rt.init_ref);
  else if (!strcmp(k, "name"))
    lua_pushstring(L, s->protos[u->proto].name.c_str());
  else if (!strcmp(k, "description"))
    lua_pushstring(L, s->protos[u->proto].description.c_str());
  else {
    lua_getmetatable(L, 1);
    lua_getfield(L, -1, "__methods");
    lua_getfield(L, -1, k);  // raises "not implemented" when unknown
  }
  return 1;
}

void setFunctionRef(lua_State* L, int& ref, int i) {
  if (!lua_isfunction(L, i) && !lua_isnil(L, i)) luaL_argerror(L, i, "function expected");
  if (ref != LUA_NOREF) luaL_unref(L, LUA_REGISTRYINDEX, ref);
  ref = lua_isnil(L, i) ? LUA_NOREF : refValue(L, i);
}

int protoNewIndex(lua_State* L) {
  State* s = S(L);
  auto* u = checkUd<ProtoUd>(L, 1, T::Proto);
  const char* k = luaL_checkstring(L, 2);
  ProtoRt& rt = s->proto_rt[u->proto];
  if (!strcmp(k, "dissector"))
    setFunctionRef(L, rt.dissector_ref, 3);
  else if (!strcmp(k, "fields"))
    appendTo(L, rt.fields_ref, 3, T::ProtoField);
  else if (!strcmp(k, "experts"))
    appendTo(L, rt.experts_ref, 3, T::ProtoExpert);
  else if (!strcmp(k, "prefs_changed"))
    setFunctionRef(L, rt.prefs_changed_ref, 3);
  else if (!strcmp(k, "init"))
    setFunctionRef(L, rt.init_ref, 3);
  else
    notImplemented(L, std::string("Proto.") + k);
  return 0;
}

int protoRegisterHeuristic(lua_State* L) {
  State* s = S(L);
  auto* u = checkUd<ProtoUd>(L, 1, T::Proto);
  std::string list = luaL_checkstring(L, 2);
  luaL_checktype(L, 3, LUA_TFUNCTION);
  if (list != "udp" && list != "tcp") notImplemented(L, "Proto:register_heuristic(\"" + list + "\")");
  // Wireshark prepends: the heuristic registered last is tried first.
  auto& v = s->heuristics[list];
  v.insert(v.begin(), Heuristic{u->proto, refValue(L, 3)});
  return 0;
}

int protoToString(lua_State* L) {
  State* s = S(L);
  auto* u = checkUd<ProtoUd>(L, 1, T::Proto);
  lua_pushfstring(L, "Proto: %s", s->protos[u->proto].name.c_str());
  return 1;
}

}  // namespace

void commitFields(State* s) {
  lua_State* L = s->L;
  for (size_t p = 0; p < s->proto_rt.size(); ++p) {
    auto commit = [&](int vi) {
      auto* f = testUd<FieldUd>(L, vi, T::ProtoField);
      if (!f) return;
      PField& pf = s->pfields[f->pf];
      if (pf.fid >= 0) return;
      pf.fid = static_cast<int>(s->fields.size());
      pf.info.proto_index = static_cast<int>(p);
      s->fields.push_back(pf.info);
      s->field_pf.push_back(f->pf);
      s->field_by_abbrev.emplace(pf.info.abbrev, pf.fid);
    };
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->proto_rt[p].fields_ref);
    const int t = lua_gettop(L);
    const int n = static_cast<int>(lua_rawlen(L, t));
    for (int i = 1; i <= n; ++i) {
      lua_rawgeti(L, t, i);
      commit(lua_gettop(L));
      lua_pop(L, 1);
    }
    // Keyed entries (`local f = p.fields; f.seq = ProtoField...`).
    lua_pushnil(L);
    while (lua_next(L, t)) {
      if (!(lua_type(L, -2) == LUA_TNUMBER && lua_tonumber(L, -2) >= 1 && lua_tonumber(L, -2) <= n))
        commit(lua_gettop(L));
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
}

void openProto(lua_State* L, State* s) {
  static const luaL_Reg methods[] = {{"register_heuristic", protoRegisterHeuristic}, {nullptr, nullptr}};
  static const luaL_Reg meta[] = {{"__index", protoIndex},
                                  {"__newindex", protoNewIndex},
                                  {"__tostring", protoToString},
                                  {nullptr, nullptr}};
  registerClass(L, s, T::Proto, methods, meta);
  static const luaL_Reg cls[] = {{"new", protoNewFn}, {nullptr, nullptr}};
  registerFunctions(L, s, "Proto", cls);
  lua_getglobal(L, "Proto");
  lua_newtable(L);
  lua_pushlightuserdata(L, s);
  lua_pushcclosure(L, protoCall, 1);
  lua_setfield(L, -2, "__call");
  lua_setmetatable(L, -2);
  lua_pop(L, 1);
}

}  // namespace rudp::lua
