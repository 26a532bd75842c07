// Bridges the Lua 5.1 C API (LuaJIT) and the Lua 5.4 one so the bindings
// compile against either; RUDPSCOPE_LUAJIT is set by CMake.
#pragma once
extern "C" {
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
}
#include <cstdint>

#if LUA_VERSION_NUM < 502
#define RUDP_LUA51 1
inline int lua_absindex(lua_State* L, int i) {
  return (i > 0 || i <= LUA_REGISTRYINDEX) ? i : lua_gettop(L) + i + 1;
}
inline size_t lua_rawlen(lua_State* L, int i) { return lua_objlen(L, i); }
#define lua_pushglobaltable(L) lua_pushvalue(L, LUA_GLOBALSINDEX)
#endif
#ifndef LUA_OK
#define LUA_OK 0
#endif

namespace rudp::lua {

// Integers reach Lua as integers on 5.3+ (so tostring prints "5", as 5.2
// does for integral floats) and as doubles on LuaJIT.
inline void pushInt(lua_State* L, int64_t v) {
#if LUA_VERSION_NUM >= 503
  lua_pushinteger(L, static_cast<lua_Integer>(v));
#else
  lua_pushnumber(L, static_cast<lua_Number>(v));
#endif
}

// A Lua number as a 64-bit integer, accepting doubles beyond 2^53 lossy and
// negative values as two's complement (what Wireshark's casts do).
inline int64_t toInt(lua_State* L, int i) {
#if LUA_VERSION_NUM >= 503
  if (lua_isinteger(L, i)) return lua_tointeger(L, i);
#endif
  double d = lua_tonumber(L, i);
  if (d != d) return 0;
  if (d >= 9.2233720368547758e18)
    return static_cast<int64_t>(static_cast<uint64_t>(d < 1.8446744073709552e19 ? d : 0));
  if (d <= -9.2233720368547758e18) return INT64_MIN;
  return static_cast<int64_t>(d);
}

// Sets the environment of the function on top of the stack to the table
// below it (5.1 setfenv / first upvalue _ENV on 5.2+); pops the table.
inline void setFunctionEnv(lua_State* L) {
#if LUA_VERSION_NUM < 502
  lua_setfenv(L, -2);
#else
  if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);
#endif
}

// tostring() through the global function, so __tostring metamethods apply.
inline const char* toDisplayString(lua_State* L, int i, size_t* len) {
  i = lua_absindex(L, i);
  lua_getglobal(L, "tostring");
  lua_pushvalue(L, i);
  lua_call(L, 1, 1);
  return lua_tolstring(L, -1, len);
}

}  // namespace rudp::lua
