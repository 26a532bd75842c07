// The LuaJIT BitOp library (`bit`) for Lua 5.3+, which lacks it. Wireshark
// ships it as a global in every version; LuaJIT has it built in.
// Semantics follow BitOp: operands are taken modulo 2^32 and results are
// signed 32-bit numbers.
#include <cmath>

#include "lua/state.h"

namespace rudp::lua {

namespace {

uint32_t tobit(lua_State* L, int i) {
#if LUA_VERSION_NUM >= 503
  if (lua_isinteger(L, i)) return static_cast<uint32_t>(lua_tointeger(L, i));
#endif
  const double d = luaL_checknumber(L, i);
  if (!std::isfinite(d)) return 0;
  // BitOp rounds to the nearest integer, then wraps modulo 2^32.
  return static_cast<uint32_t>(static_cast<int64_t>(std::nearbyint(std::fmod(d, 4294967296.0))));
}

int ret(lua_State* L, uint32_t v) {
  pushInt(L, static_cast<int32_t>(v));
  return 1;
}

int bTobit(lua_State* L) { return ret(L, tobit(L, 1)); }
int bBnot(lua_State* L) { return ret(L, ~tobit(L, 1)); }
int bBswap(lua_State* L) { return ret(L, __builtin_bswap32(tobit(L, 1))); }
template <int OP>
int bFold(lua_State* L) {
  uint32_t v = tobit(L, 1);
  for (int i = 2, n = lua_gettop(L); i <= n; ++i) {
    const uint32_t w = tobit(L, i);
    v = OP == 0 ? v & w : OP == 1 ? v | w : v ^ w;
  }
  return ret(L, v);
}
int bLshift(lua_State* L) { return ret(L, tobit(L, 1) << (tobit(L, 2) & 31)); }
int bRshift(lua_State* L) { return ret(L, tobit(L, 1) >> (tobit(L, 2) & 31)); }
int bArshift(lua_State* L) {
  return ret(L, static_cast<uint32_t>(static_cast<int32_t>(tobit(L, 1)) >> (tobit(L, 2) & 31)));
}
int bRol(lua_State* L) {
  const uint32_t v = tobit(L, 1), n = tobit(L, 2) & 31;
  return ret(L, n ? (v << n) | (v >> (32 - n)) : v);
}
int bRor(lua_State* L) {
  const uint32_t v = tobit(L, 1), n = tobit(L, 2) & 31;
  return ret(L, n ? (v >> n) | (v << (32 - n)) : v);
}
int bTohex(lua_State* L) {
  const uint32_t v = tobit(L, 1);
  int32_t n = lua_isnoneornil(L, 2) ? 8 : static_cast<int32_t>(tobit(L, 2));
  const char* digits = "0123456789abcdef";
  if (n < 0) {
    n = -n;
    digits = "0123456789ABCDEF";
  }
  if (n > 8) n = 8;
  char buf[8];
  for (int i = 0; i < n; ++i) buf[i] = digits[(v >> (4 * (n - 1 - i))) & 15];
  lua_pushlstring(L, buf, static_cast<size_t>(n));
  return 1;
}

}  // namespace

void openBit(lua_State* L, State* s) {
  lua_getglobal(L, "bit");
  const bool have = lua_istable(L, -1);
  lua_pop(L, 1);
  if (have) return;  // LuaJIT's own
  static const luaL_Reg fns[] = {
      {"tobit", bTobit},  {"bnot", bBnot},     {"bswap", bBswap},   {"band", bFold<0>},    {"bor", bFold<1>},
      {"bxor", bFold<2>}, {"lshift", bLshift}, {"rshift", bRshift}, {"arshift", bArshift}, {"rol", bRol},
      {"ror", bRor},      {"tohex", bTohex},   {nullptr, nullptr}};
  registerFunctions(L, s, "bit", fns);
}

}  // namespace rudp::lua
