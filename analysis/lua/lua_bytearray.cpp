// ByteArray (wslua_byte_array.c): a mutable byte string.
#include <cstring>

#include "lua/state.h"

namespace rudp::lua {

namespace {

ByteArrayUd* checkBa(lua_State* L, int i) { return checkUd<ByteArrayUd>(L, i, T::ByteArray); }

int hexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// ByteArray.new([hexbytes], [separator | true for raw bytes])
int baNew(lua_State* L) {
  State* s = S(L);
  size_t n = 0;
  const char* in = luaL_optlstring(L, 1, "", &n);
  std::string bytes;
  if (lua_isboolean(L, 2) && lua_toboolean(L, 2)) {
    bytes.assign(in, n);
  } else {
    int hi = -1;
    for (size_t i = 0; i < n; ++i) {
      const int d = hexDigit(in[i]);
      if (d < 0) continue;  // separators and spaces
      if (hi < 0)
        hi = d;
      else {
        bytes += static_cast<char>(hi << 4 | d);
        hi = -1;
      }
    }
  }
  pushByteArray(L, s, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  return 1;
}

int baGc(lua_State* L) {
  auto* b = static_cast<ByteArrayUd*>(lua_touserdata(L, 1));
  delete b->bytes;
  b->bytes = nullptr;
  return 0;
}

int baLen(lua_State* L) {
  pushInt(L, static_cast<int64_t>(checkBa(L, 1)->bytes->size()));
  return 1;
}

size_t checkIndex(lua_State* L, const std::string& b, int i) {
  const int64_t idx = luaL_checkinteger(L, i);
  if (idx < 0 || static_cast<size_t>(idx) >= b.size()) luaL_argerror(L, i, "index out of range");
  return static_cast<size_t>(idx);
}

int baGetIndex(lua_State* L) {
  const std::string& b = *checkBa(L, 1)->bytes;
  pushInt(L, static_cast<uint8_t>(b[checkIndex(L, b, 2)]));
  return 1;
}

int baSetIndex(lua_State* L) {
  std::string& b = *checkBa(L, 1)->bytes;
  b[checkIndex(L, b, 2)] = static_cast<char>(luaL_checkinteger(L, 3));
  return 0;
}

int baSetSize(lua_State* L) {
  const int64_t n = luaL_checkinteger(L, 2);
  if (n < 0 || n > (64 << 20)) luaL_argerror(L, 2, "invalid size");
  checkBa(L, 1)->bytes->resize(static_cast<size_t>(n), '\0');
  return 0;
}

int baAppend(lua_State* L) {
  checkBa(L, 1)->bytes->append(*checkBa(L, 2)->bytes);
  return 0;
}

int baPrepend(lua_State* L) {
  checkBa(L, 1)->bytes->insert(0, *checkBa(L, 2)->bytes);
  return 0;
}

int baSubset(lua_State* L) {
  State* s = S(L);
  const std::string& b = *checkBa(L, 1)->bytes;
  const int64_t off = luaL_checkinteger(L, 2), len = luaL_checkinteger(L, 3);
  if (off < 0 || len < 0 || static_cast<size_t>(off + len) > b.size()) hostError(L, "Out Of Bounds");
  pushByteArray(L, s, reinterpret_cast<const uint8_t*>(b.data()) + off, static_cast<size_t>(len));
  return 1;
}

std::string toHex(const std::string& b, bool lower, const char* sep) {
  const char* hex = lower ? "0123456789abcdef" : "0123456789ABCDEF";
  std::string r;
  for (size_t i = 0; i < b.size(); ++i) {
    if (i && sep) r += sep;
    r += hex[static_cast<uint8_t>(b[i]) >> 4];
    r += hex[static_cast<uint8_t>(b[i]) & 15];
  }
  return r;
}

int baToHex(lua_State* L) {
  const std::string& b = *checkBa(L, 1)->bytes;
  std::string r = toHex(b, lua_toboolean(L, 2), lua_isstring(L, 3) ? lua_tostring(L, 3) : nullptr);
  lua_pushlstring(L, r.data(), r.size());
  return 1;
}

int baToString(lua_State* L) {
  std::string r = toHex(*checkBa(L, 1)->bytes, false, nullptr);
  lua_pushlstring(L, r.data(), r.size());
  return 1;
}

int baRaw(lua_State* L) {
  const std::string& b = *checkBa(L, 1)->bytes;
  const int64_t off = luaL_optinteger(L, 2, 0);
  int64_t len = luaL_optinteger(L, 3, -1);
  if (len == -1) len = static_cast<int64_t>(b.size()) - off;
  if (off < 0 || len < 0 || static_cast<size_t>(off + len) > b.size()) hostError(L, "Out Of Bounds");
  lua_pushlstring(L, b.data() + off, static_cast<size_t>(len));
  return 1;
}

// ByteArray:tvb([name]): the bytes live until the packet is done.
int baTvb(lua_State* L) {
  State* s = S(L);
  const std::string& b = *checkBa(L, 1)->bytes;
  if (!s->in_packet) hostError(L, "ByteArray:tvb() can only be used while dissecting a packet");
  s->owned.push_back(b);
  auto* t = newUd<TvbUd>(L, s, T::Tvb);
  t->data = reinterpret_cast<const uint8_t*>(s->owned.back().data());
  t->len = t->reported = static_cast<uint32_t>(b.size());
  t->gen = s->gen;
  return 1;
}

int baConcat(lua_State* L) {
  State* s = S(L);
  std::string r = *checkBa(L, 1)->bytes + *checkBa(L, 2)->bytes;
  pushByteArray(L, s, reinterpret_cast<const uint8_t*>(r.data()), r.size());
  return 1;
}

int baEq(lua_State* L) {
  lua_pushboolean(L, *checkBa(L, 1)->bytes == *checkBa(L, 2)->bytes);
  return 1;
}

}  // namespace

void pushByteArray(lua_State* L, State* s, const uint8_t* p, size_t n) {
  auto* b = newUd<ByteArrayUd>(L, s, T::ByteArray);
  b->bytes = nullptr;
  b->bytes = new std::string(reinterpret_cast<const char*>(p), n);
}

void openByteArray(lua_State* L, State* s) {
  static const luaL_Reg methods[] = {
      {"len", baLen},          {"get_index", baGetIndex}, {"set_index", baSetIndex},
      {"set_size", baSetSize}, {"append", baAppend},      {"prepend", baPrepend},
      {"subset", baSubset},    {"tohex", baToHex},        {"raw", baRaw},
      {"tvb", baTvb},          {nullptr, nullptr}};
  static const luaL_Reg meta[] = {{"__gc", baGc}, {"__tostring", baToString}, {"__concat", baConcat},
                                  {"__eq", baEq}, {"__len", baLen},           {nullptr, nullptr}};
  registerClass(L, s, T::ByteArray, methods, meta);
  static const luaL_Reg fns[] = {{"new", baNew}, {nullptr, nullptr}};
  registerFunctions(L, s, "ByteArray", fns);
}

}  // namespace rudp::lua
