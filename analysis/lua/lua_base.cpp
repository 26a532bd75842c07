// Class registration and error helpers shared by every binding file.
#include <cstdarg>
#include <cstring>

#include "lua/state.h"

namespace rudp::lua {

const char* typeName(T t) {
  static const char* const names[] = {
      "",       "Proto",   "ProtoField",     "Tvb",       "TvbRange", "TreeItem", "Pinfo",       "Columns",
      "Column", "Address", "DissectorTable", "Dissector", "Pref",     "Prefs",    "ProtoExpert", "ByteArray",
      "UInt64", "Int64",   "Field",          "FieldInfo"};
  return names[static_cast<int>(t)];
}

void typeError(lua_State* L, int i, const char* expected) {
  const char* got = luaL_typename(L, i);
  if (lua_type(L, i) == LUA_TUSERDATA) {
    auto* u = static_cast<Ud*>(lua_touserdata(L, i));
    if ((u->tag & 0xFFFFFFFF00000000ull) == kTagBase && (u->tag & 0xFF) < static_cast<uint64_t>(T::Count))
      got = typeName(static_cast<T>(u->tag & 0xFF));
  }
  luaL_argerror(L, i, lua_pushfstring(L, "%s expected, got %s", expected, got));
  __builtin_unreachable();
}

void pushWhere(lua_State* L) {
  lua_Debug ar;
  for (int level = 1; level < 8 && lua_getstack(L, level, &ar); ++level) {
    lua_getinfo(L, "Sl", &ar);
    if (ar.currentline > 0) {
      lua_pushfstring(L, "%s:%d: ", ar.short_src, ar.currentline);
      return;
    }
  }
  lua_pushliteral(L, "");
}

void hostError(lua_State* L, const char* fmt, ...) {
  pushWhere(L);
  va_list ap;
  va_start(ap, fmt);
  lua_pushvfstring(L, fmt, ap);
  va_end(ap);
  lua_concat(L, 2);
  lua_error(L);
  __builtin_unreachable();
}

void notImplemented(lua_State* L, const std::string& what) {
  pushWhere(L);
  lua_pushfstring(L, "'%s' is not implemented by rudpscope's Lua host", what.c_str());
  lua_concat(L, 2);
  lua_error(L);
  __builtin_unreachable();
}

void throwMalformed(lua_State* L, const char* msg) {
  State* s = S(L);
  s->exception = true;
  pushWhere(L);
  lua_pushstring(L, msg);
  lua_concat(L, 2);
  lua_error(L);
  __builtin_unreachable();
}

int pushUpvalues(lua_State* L, State* s) {
  lua_pushlightuserdata(L, s);
  lua_rawgeti(L, LUA_REGISTRYINDEX, s->range_pool_ref);
  lua_rawgeti(L, LUA_REGISTRYINDEX, s->tree_pool_ref);
  return 3;
}

int refValue(lua_State* L, int i) {
  lua_pushvalue(L, i);
  return luaL_ref(L, LUA_REGISTRYINDEX);
}

// __index of a class's methods table: the key is no method we know.
static int missingMember(lua_State* L) {
  const char* cls = lua_tostring(L, lua_upvalueindex(1));
  const char* key = lua_tostring(L, 2);
  notImplemented(L, std::string(cls) + "." + (key ? key : "?"));
}

// Concatenation through tostring, as wslua's __concat does for its classes.
static int concatAny(lua_State* L) {
  size_t la = 0, lb = 0;
  const char* a = toDisplayString(L, 1, &la);
  std::string r(a ? a : "", la);
  const char* b = toDisplayString(L, 2, &lb);
  r.append(b ? b : "", lb);
  lua_pushlstring(L, r.data(), r.size());
  return 1;
}

void registerClass(lua_State* L, State* s, T t, const luaL_Reg* methods, const luaL_Reg* meta) {
  lua_newtable(L);  // metatable
  lua_newtable(L);  // methods
  if (methods) luaL_setfuncs(L, methods, pushUpvalues(L, s));
  lua_newtable(L);
  lua_pushstring(L, typeName(t));
  lua_pushcclosure(L, missingMember, 1);
  lua_setfield(L, -2, "__index");
  lua_setmetatable(L, -2);
  lua_pushvalue(L, -1);
  lua_setfield(L, -3, "__methods");
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, concatAny);
  lua_setfield(L, -2, "__concat");
  lua_pushstring(L, typeName(t));
  lua_setfield(L, -2, "__name");
  if (meta) luaL_setfuncs(L, meta, pushUpvalues(L, s));
  s->mt_ref[static_cast<int>(t)] = luaL_ref(L, LUA_REGISTRYINDEX);
}

void reportMissingMembers(lua_State* L, const char* name) {
  lua_getglobal(L, name);
  lua_newtable(L);
  lua_pushstring(L, name);
  lua_pushcclosure(L, missingMember, 1);
  lua_setfield(L, -2, "__index");
  lua_setmetatable(L, -2);
  lua_pop(L, 1);
}

void registerFunctions(lua_State* L, State* s, const char* name, const luaL_Reg* fns) {
  lua_getglobal(L, name);
  if (!lua_istable(L, -1)) {
    lua_pop(L, 1);
    lua_newtable(L);
  }
  luaL_setfuncs(L, fns, pushUpvalues(L, s));
  lua_setglobal(L, name);
}

}  // namespace rudp::lua
