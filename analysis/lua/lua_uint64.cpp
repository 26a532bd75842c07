// UInt64 and Int64 (wslua_int64.c): 64-bit integers Lua numbers cannot hold.
#include <bit>
#include <cinttypes>
#include <cmath>
#include <cstdlib>

#include "lua/state.h"

namespace rudp::lua {

namespace {

bool is64(lua_State* L, int i) { return testUd<U64Ud>(L, i, T::UInt64) || testUd<U64Ud>(L, i, T::Int64); }

// Result type of a binary operation: the first 64-bit operand's.
T resultType(lua_State* L) {
  if (testUd<U64Ud>(L, 1, T::Int64)) return T::Int64;
  if (testUd<U64Ud>(L, 1, T::UInt64)) return T::UInt64;
  return testUd<U64Ud>(L, 2, T::Int64) ? T::Int64 : T::UInt64;
}

void push(lua_State* L, State* s, T t, uint64_t v) { newUd<U64Ud>(L, s, t)->v = v; }

int construct(lua_State* L, T t, int first) {
  State* s = S(L);
  uint64_t v = lua_isnoneornil(L, first) ? 0 : checkU64(L, s, first);
  if (!lua_isnoneornil(L, first + 1))  // (low, high) form
    v = (v & 0xFFFFFFFFull) | (static_cast<uint64_t>(checkU64(L, s, first + 1)) << 32);
  push(L, s, t, v);
  return 1;
}
int u64New(lua_State* L) { return construct(L, T::UInt64, 1); }
int i64New(lua_State* L) { return construct(L, T::Int64, 1); }
int u64Call(lua_State* L) { return construct(L, T::UInt64, 2); }
int i64Call(lua_State* L) { return construct(L, T::Int64, 2); }
int u64Max(lua_State* L) {
  push(L, S(L), T::UInt64, UINT64_MAX);
  return 1;
}
int u64Min(lua_State* L) {
  push(L, S(L), T::UInt64, 0);
  return 1;
}
int i64Max(lua_State* L) {
  push(L, S(L), T::Int64, INT64_MAX);
  return 1;
}
int i64Min(lua_State* L) {
  push(L, S(L), T::Int64, static_cast<uint64_t>(INT64_MIN));
  return 1;
}
int fromHex(lua_State* L, T t) {
  push(L, S(L), t, strtoull(luaL_checkstring(L, 1), nullptr, 16));
  return 1;
}
int u64FromHex(lua_State* L) { return fromHex(L, T::UInt64); }
int i64FromHex(lua_State* L) { return fromHex(L, T::Int64); }

uint64_t self(lua_State* L) {
  if (!is64(L, 1)) typeError(L, 1, "UInt64");
  return static_cast<U64Ud*>(lua_touserdata(L, 1))->v;
}
bool selfSigned(lua_State* L) { return testUd<U64Ud>(L, 1, T::Int64) != nullptr; }

int toNumber(lua_State* L) {
  const uint64_t v = self(L);
  lua_pushnumber(L, selfSigned(L) ? static_cast<double>(static_cast<int64_t>(v)) : static_cast<double>(v));
  return 1;
}
int toString(lua_State* L) {
  const uint64_t v = self(L);
  char buf[32];
  if (selfSigned(L))
    snprintf(buf, sizeof buf, "%" PRId64, static_cast<int64_t>(v));
  else
    snprintf(buf, sizeof buf, "%" PRIu64, v);
  lua_pushstring(L, buf);
  return 1;
}
int toHexStr(lua_State* L) {
  const uint64_t v = self(L);
  const int64_t n = luaL_optinteger(L, 2, 16);
  const char* digits = n < 0 ? "0123456789ABCDEF" : "0123456789abcdef";
  int w = static_cast<int>(n < 0 ? -n : n);
  if (w > 16) w = 16;
  char buf[17];
  for (int i = 0; i < w; ++i) buf[i] = digits[(v >> (4 * (w - 1 - i))) & 15];
  lua_pushlstring(L, buf, static_cast<size_t>(w));
  return 1;
}
int higher(lua_State* L) {
  pushInt(L, self(L) >> 32);
  return 1;
}
int lower(lua_State* L) {
  pushInt(L, self(L) & 0xFFFFFFFFull);
  return 1;
}

template <class Op>
int binary(lua_State* L, Op op) {
  State* s = S(L);
  const T t = resultType(L);
  const uint64_t a = checkU64(L, s, 1), b = checkU64(L, s, 2);
  push(L, s, t, op(a, b, t == T::Int64));
  return 1;
}
int add(lua_State* L) {
  return binary(L, [](uint64_t a, uint64_t b, bool) { return a + b; });
}
int sub(lua_State* L) {
  return binary(L, [](uint64_t a, uint64_t b, bool) { return a - b; });
}
int mul(lua_State* L) {
  return binary(L, [](uint64_t a, uint64_t b, bool) { return a * b; });
}
int divide(lua_State* L) {
  if (checkU64(L, S(L), 2) == 0) hostError(L, "Trying to divide UInt64 by zero");
  return binary(L, [](uint64_t a, uint64_t b, bool sg) {
    if (sg)
      return b == UINT64_MAX ? 0 - a
                             : static_cast<uint64_t>(static_cast<int64_t>(a) / static_cast<int64_t>(b));
    return a / b;
  });
}
int mod(lua_State* L) {
  if (checkU64(L, S(L), 2) == 0) hostError(L, "Trying to modulo UInt64 by zero");
  return binary(L, [](uint64_t a, uint64_t b, bool sg) {
    if (sg)
      return b == UINT64_MAX ? 0 : static_cast<uint64_t>(static_cast<int64_t>(a) % static_cast<int64_t>(b));
    return a % b;
  });
}
int power(lua_State* L) {
  return binary(L, [](uint64_t a, uint64_t b, bool) {
    uint64_t r = 1;
    for (; b; b >>= 1, a *= a)
      if (b & 1) r *= a;
    return r;
  });
}
int band(lua_State* L) {
  return binary(L, [](uint64_t a, uint64_t b, bool) { return a & b; });
}
int bor(lua_State* L) {
  return binary(L, [](uint64_t a, uint64_t b, bool) { return a | b; });
}
int bxor(lua_State* L) {
  return binary(L, [](uint64_t a, uint64_t b, bool) { return a ^ b; });
}
int lshift(lua_State* L) {
  return binary(L, [](uint64_t a, uint64_t b, bool) { return b > 63 ? 0 : a << b; });
}
int rshift(lua_State* L) {
  return binary(L, [](uint64_t a, uint64_t b, bool) { return b > 63 ? 0 : a >> b; });
}
int arshift(lua_State* L) {
  return binary(L, [](uint64_t a, uint64_t b, bool) {
    return static_cast<uint64_t>(static_cast<int64_t>(a) >> (b > 63 ? 63 : b));
  });
}
int rol(lua_State* L) {
  return binary(L, [](uint64_t a, uint64_t b, bool) { return std::rotl(a, static_cast<int>(b & 63)); });
}
int ror(lua_State* L) {
  return binary(L, [](uint64_t a, uint64_t b, bool) { return std::rotr(a, static_cast<int>(b & 63)); });
}
int unary(lua_State* L, uint64_t v) {
  push(L, S(L), selfSigned(L) ? T::Int64 : T::UInt64, v);
  return 1;
}
int bnot(lua_State* L) { return unary(L, ~self(L)); }
int unm(lua_State* L) { return unary(L, 0 - self(L)); }
int bswap(lua_State* L) { return unary(L, __builtin_bswap64(self(L))); }

// Comparisons follow the signedness of the first 64-bit operand.
int compare(lua_State* L, int op) {
  State* s = S(L);
  const bool sg = resultType(L) == T::Int64;
  const uint64_t a = checkU64(L, s, 1), b = checkU64(L, s, 2);
  bool r;
  if (sg) {
    const int64_t x = static_cast<int64_t>(a), y = static_cast<int64_t>(b);
    r = op == 0 ? x == y : op == 1 ? x < y : x <= y;
  } else {
    r = op == 0 ? a == b : op == 1 ? a < b : a <= b;
  }
  lua_pushboolean(L, r);
  return 1;
}
int eq(lua_State* L) { return compare(L, 0); }
int lt(lua_State* L) { return compare(L, 1); }
int le(lua_State* L) { return compare(L, 2); }

const luaL_Reg kMethods[] = {
    {"tonumber", toNumber}, {"tohex", toHexStr}, {"higher", higher}, {"lower", lower},   {"band", band},
    {"bor", bor},           {"bxor", bxor},      {"bnot", bnot},     {"lshift", lshift}, {"rshift", rshift},
    {"arshift", arshift},   {"rol", rol},        {"ror", ror},       {"bswap", bswap},   {nullptr, nullptr}};
const luaL_Reg kMeta[] = {{"__add", add}, {"__sub", sub},   {"__mul", mul},           {"__div", divide},
                          {"__mod", mod}, {"__pow", power}, {"__unm", unm},           {"__eq", eq},
                          {"__lt", lt},   {"__le", le},     {"__tostring", toString}, {nullptr, nullptr}};

void openClass(lua_State* L, State* s, T t, const char* name, lua_CFunction ctor, lua_CFunction call,
               lua_CFunction mx, lua_CFunction mn, lua_CFunction hex) {
  registerClass(L, s, t, kMethods, kMeta);
  const luaL_Reg fns[] = {{"new", ctor}, {"max", mx}, {"min", mn}, {"fromhex", hex}, {nullptr, nullptr}};
  registerFunctions(L, s, name, fns);
  lua_getglobal(L, name);
  lua_newtable(L);
  lua_pushlightuserdata(L, s);
  lua_pushcclosure(L, call, 1);
  lua_setfield(L, -2, "__call");
  lua_setmetatable(L, -2);
  lua_pop(L, 1);
}

}  // namespace

uint64_t checkU64(lua_State* L, State* s, int i) {
  (void)s;
  if (lua_type(L, i) == LUA_TNUMBER) return static_cast<uint64_t>(toInt(L, i));
  if (is64(L, i)) return static_cast<U64Ud*>(lua_touserdata(L, i))->v;
  if (lua_type(L, i) == LUA_TSTRING) {
    const char* str = lua_tostring(L, i);
    char* end;
    uint64_t v = *str == '-' ? static_cast<uint64_t>(strtoll(str, &end, 0)) : strtoull(str, &end, 0);
    if (end != str && !*end) return v;
  }
  typeError(L, i, "UInt64 or number");
}

void pushUInt64(lua_State* L, State* s, uint64_t v) { push(L, s, T::UInt64, v); }
void pushInt64(lua_State* L, State* s, int64_t v) { push(L, s, T::Int64, static_cast<uint64_t>(v)); }

void openUInt64(lua_State* L, State* s) {
  openClass(L, s, T::UInt64, "UInt64", u64New, u64Call, u64Max, u64Min, u64FromHex);
  openClass(L, s, T::Int64, "Int64", i64New, i64Call, i64Max, i64Min, i64FromHex);
}

}  // namespace rudp::lua
