#include "lua/lua_libraries.h"

#include <string>

#include "core/error.h"
#include "lua/trusted_file.h"

namespace rudp::lua {

namespace {

void clearField(lua_State* L, int table, const char* name) {
  table = lua_absindex(L, table);  // before the push moves a relative index
  lua_pushnil(L);
  lua_setfield(L, table, name);
}

// LuaJIT's own modules: `jit` is a global, `ffi`, `jit.util` and
// `jit.profile` wait in package.preload.
void removeLuaJitModules(lua_State* L) {
  lua_pushnil(L);
  lua_setglobal(L, "jit");
  lua_getglobal(L, "package");
  if (!lua_istable(L, -1)) {
    lua_pop(L, 1);
    return;
  }
  for (const char* table : {"loaded", "preload"}) {
    lua_getfield(L, -1, table);
    if (lua_istable(L, -1))
      for (const char* name : {"ffi", "jit", "jit.util", "jit.profile"}) clearField(L, -1, name);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

// Loads the file as a chunk named after it; raises the refusal as a Lua error.
int loadTrusted(lua_State* L, const std::string& path) {
  std::string text;
  try {
    text = readLuaFile(path, path, true);
  } catch (const Error& e) { return luaL_error(L, "%s", e.what()); }
  const std::string chunk = "@" + path;
  return luaL_loadbuffer(L, text.data(), text.size(), chunk.c_str());
}

// loadfile(path): the chunk, or nil and the message, as the standard one.
int trustedLoadfile(lua_State* L) {
  const std::string path = luaL_checkstring(L, 1);
  if (loadTrusted(L, path) == LUA_OK) return 1;
  lua_pushnil(L);
  lua_insert(L, -2);
  return 2;
}

// dofile(path): runs the chunk and returns what it returns.
int trustedDofile(lua_State* L) {
  const std::string path = luaL_checkstring(L, 1);
  lua_settop(L, 1);
  if (loadTrusted(L, path) != LUA_OK) return lua_error(L);
  lua_call(L, 0, LUA_MULTRET);
  return lua_gettop(L) - 1;
}

// The Lua-file searcher of require: package.searchpath over package.path,
// then the trusted load.
int trustedSearcher(lua_State* L) {
  const char* name = luaL_checkstring(L, 1);
  lua_getglobal(L, "package");
  lua_getfield(L, -1, "searchpath");
  lua_pushstring(L, name);
  lua_getfield(L, -3, "path");
  lua_call(L, 2, 2);
  if (lua_isnil(L, -2)) return 1;  // the message of the paths tried
  const std::string path = lua_tostring(L, -2);
  if (loadTrusted(L, path) != LUA_OK) return lua_error(L);
  lua_pushstring(L, path.c_str());
  return 2;
}

// require finds preloaded modules and trusted Lua files; C modules, which
// no ownership check can make safe here, are not loaded.
void trustRequire(lua_State* L) {
  lua_getglobal(L, "package");
  if (!lua_istable(L, -1)) {
    lua_pop(L, 1);
    return;
  }
  clearField(L, -1, "loadlib");
  lua_pushstring(L, "");
  lua_setfield(L, -2, "cpath");
#if LUA_VERSION_NUM < 502
  const char* searchers = "loaders";
#else
  const char* searchers = "searchers";
#endif
  lua_getfield(L, -1, searchers);
  if (lua_istable(L, -1)) {
    lua_pushcfunction(L, trustedSearcher);
    lua_rawseti(L, -2, 2);
    for (int i = int(lua_rawlen(L, -1)); i > 2; --i) {
      lua_pushnil(L);
      lua_rawseti(L, -2, i);
    }
  }
  lua_pop(L, 2);
}

}  // namespace

void restrictLibraries(lua_State* L, bool privileged) {
  removeLuaJitModules(L);
  if (!privileged) return;
  lua_pushcfunction(L, trustedLoadfile);
  lua_setglobal(L, "loadfile");
  lua_pushcfunction(L, trustedDofile);
  lua_setglobal(L, "dofile");
  trustRequire(L);
}

}  // namespace rudp::lua
