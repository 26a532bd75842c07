// TvbRange: a slice of a Tvb (wslua_tvb.c).
//
// Ranges come from a per-host pool of prebuilt userdata, handed out again
// from the start at every packet: no allocation per tvb(off, len) call.
// Wireshark treats ranges as expired once their packet is done, so reusing
// them is invisible to a correct dissector.
#include <cstring>

#include "core/bytes.h"
#include "lua/state.h"

namespace rudp::lua {

namespace {
constexpr int kMaxPool = 4096;  // beyond this, ranges are ordinary garbage-collected userdata
}

void pushRange(lua_State* L, State* s, const uint8_t* data, uint32_t tvb_len, uint32_t tvb_reported,
               uint32_t off, uint32_t len) {
  RangeUd* r;
  if (s->range_used < s->range_pool_size) {
    lua_rawgeti(L, lua_upvalueindex(kRangePoolUpvalue), ++s->range_used);
    r = static_cast<RangeUd*>(lua_touserdata(L, -1));
  } else {
    r = newUd<RangeUd>(L, s, T::TvbRange);
    if (s->range_pool_size < kMaxPool) {
      lua_rawgeti(L, LUA_REGISTRYINDEX, s->range_pool_ref);
      lua_pushvalue(L, -2);
      lua_rawseti(L, -2, ++s->range_pool_size);
      lua_pop(L, 1);
      s->range_used = s->range_pool_size;
    }
  }
  r->data = data;
  r->tvb_len = tvb_len;
  r->tvb_reported = tvb_reported;
  r->off = off;
  r->len = len;
  r->gen = s->gen;
}

namespace {

RangeUd* checkRange(lua_State* L, State* s) {
  auto* r = checkUd<RangeUd>(L, 1, T::TvbRange);
  if (r->gen != s->gen || !s->in_packet) hostError(L, "Expired TvbRange");
  return r;
}

int64_t signExtend(uint64_t v, int bits) {
  if (bits >= 64) return static_cast<int64_t>(v);
  const uint64_t m = 1ull << (bits - 1);
  v &= (1ull << bits) - 1;
  return static_cast<int64_t>((v ^ m) - m);
}

// uint/le_uint/int/le_int: 1-4 bytes; *64 variants: 1-8 bytes.
template <bool LE, bool SIGNED, int MAX>
int readInt(lua_State* L, const char* name) {
  State* s = S(L);
  RangeUd* r = checkRange(L, s);
  if (r->len < 1 || r->len > MAX)
    hostError(L, "TvbRange:%s() does not handle %d byte integers", name, static_cast<int>(r->len));
  const uint8_t* p = r->data + r->off;
  uint64_t v = LE ? leN(p, r->len) : beN(p, r->len);
  if constexpr (MAX == 4) {
    if (SIGNED)
      pushInt(L, signExtend(v, static_cast<int>(r->len) * 8));
    else
      pushInt(L, static_cast<int64_t>(v));
  } else {
    if (SIGNED)
      pushInt64(L, s, signExtend(v, static_cast<int>(r->len) * 8));
    else
      pushUInt64(L, s, v);
  }
  return 1;
}
int rUint(lua_State* L) { return readInt<false, false, 4>(L, "uint"); }
int rLeUint(lua_State* L) { return readInt<true, false, 4>(L, "le_uint"); }
int rInt(lua_State* L) { return readInt<false, true, 4>(L, "int"); }
int rLeInt(lua_State* L) { return readInt<true, true, 4>(L, "le_int"); }
int rUint64(lua_State* L) { return readInt<false, false, 8>(L, "uint64"); }
int rLeUint64(lua_State* L) { return readInt<true, false, 8>(L, "le_uint64"); }
int rInt64(lua_State* L) { return readInt<false, true, 8>(L, "int64"); }
int rLeInt64(lua_State* L) { return readInt<true, true, 8>(L, "le_int64"); }

template <bool LE>
int readFloat(lua_State* L) {
  RangeUd* r = checkRange(L, S(L));
  const uint8_t* p = r->data + r->off;
  if (r->len == 4) {
    uint32_t b = static_cast<uint32_t>(LE ? leN(p, 4) : beN(p, 4));
    float f;
    memcpy(&f, &b, 4);
    lua_pushnumber(L, f);
  } else if (r->len == 8) {
    uint64_t b = LE ? leN(p, 8) : beN(p, 8);
    double d;
    memcpy(&d, &b, 8);
    lua_pushnumber(L, d);
  } else {
    hostError(L, "TvbRange:float() does not handle %d byte floating numbers", static_cast<int>(r->len));
  }
  return 1;
}

// TvbRange:range([offset], [length]) and range(offset, length).
int rRange(lua_State* L) {
  State* s = S(L);
  RangeUd* r = checkRange(L, s);
  int64_t off = lua_isnoneornil(L, 2) ? 0 : toInt(L, 2);
  int64_t len = lua_isnoneornil(L, 3) ? -1 : toInt(L, 3);
  if (len == -1) len = static_cast<int64_t>(r->len) - off;
  if (off < 0 || len < 0 || (off >= r->len && len > 0) || off + len > r->len)
    hostError(L, "Range is out of bounds");
  pushRange(L, s, r->data, r->tvb_len, r->tvb_reported, r->off + static_cast<uint32_t>(off),
            static_cast<uint32_t>(len));
  return 1;
}

int rLen(lua_State* L) {
  pushInt(L, checkRange(L, S(L))->len);
  return 1;
}
int rOffset(lua_State* L) {
  pushInt(L, checkRange(L, S(L))->off);
  return 1;
}

int rBytes(lua_State* L) {
  State* s = S(L);
  RangeUd* r = checkRange(L, s);
  pushByteArray(L, s, r->data + r->off, r->len);
  return 1;
}

int rRaw(lua_State* L) {
  RangeUd* r = checkRange(L, S(L));
  int64_t off = luaL_optinteger(L, 2, 0), len = luaL_optinteger(L, 3, -1);
  if (len == -1) len = static_cast<int64_t>(r->len) - off;
  if (off < 0 || len < 0 || off + len > r->len) hostError(L, "Range is out of bounds");
  lua_pushlstring(L, reinterpret_cast<const char*>(r->data + r->off + off), static_cast<size_t>(len));
  return 1;
}

// ENC_ASCII (the default) maps bytes >= 0x80 to U+FFFD; 4.0 keeps NULs.
int rString(lua_State* L) {
  RangeUd* r = checkRange(L, S(L));
  const int enc = static_cast<int>(luaL_optinteger(L, 2, 0));
  const uint8_t* p = r->data + r->off;
  if (enc == 2) {  // ENC_UTF_8: pass through
    lua_pushlstring(L, reinterpret_cast<const char*>(p), r->len);
    return 1;
  }
  std::string out;
  out.reserve(r->len);
  for (uint32_t i = 0; i < r->len; ++i) {
    if (p[i] < 0x80)
      out += static_cast<char>(p[i]);
    else
      out += "\xEF\xBF\xBD";
  }
  lua_pushlstring(L, out.data(), out.size());
  return 1;
}

int rStringz(lua_State* L) {
  RangeUd* r = checkRange(L, S(L));
  const char* p = reinterpret_cast<const char*>(r->data + r->off);
  lua_pushlstring(L, p, strnlen(p, r->len));
  return 1;
}

// bitfield([position], [length]): bits counted from the most significant one.
int rBitfield(lua_State* L) {
  State* s = S(L);
  RangeUd* r = checkRange(L, s);
  const int64_t pos = luaL_optinteger(L, 2, 0), len = luaL_optinteger(L, 3, 1);
  if (pos < 0 || len < 0 || pos + len > static_cast<int64_t>(r->len) * 8)
    hostError(L, "Requested bitfield out of range");
  if (len > 64) hostError(L, "TvbRange:bitfield() does not handle %d bits", static_cast<int>(len));
  uint64_t v = 0;
  for (int64_t b = pos; b < pos + len; ++b) v = (v << 1) | ((r->data[r->off + b / 8] >> (7 - b % 8)) & 1);
  if (len <= 32)
    pushInt(L, static_cast<int64_t>(v));
  else
    pushUInt64(L, s, v);
  return 1;
}

// TvbRange:tvb(): a new Tvb over the range's bytes.
int rTvb(lua_State* L) {
  State* s = S(L);
  RangeUd* r = checkRange(L, s);
  auto* t = newUd<TvbUd>(L, s, T::Tvb);
  t->data = r->data + r->off;
  t->len = r->len;
  t->reported = r->len;
  t->gen = s->gen;
  return 1;
}

int rIpv4(lua_State* L) {
  State* s = S(L);
  RangeUd* r = checkRange(L, s);
  if (r->len != 4) hostError(L, "The range must be 4 octets long");
  auto* a = newUd<AddressUd>(L, s, T::Address);
  a->addr = ipv4Address(r->data + r->off);
  return 1;
}

int rToString(lua_State* L) {
  RangeUd* r = checkRange(L, S(L));
  static const char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(r->len * 2);
  for (uint32_t i = 0; i < r->len; ++i) {
    out += hex[r->data[r->off + i] >> 4];
    out += hex[r->data[r->off + i] & 15];
  }
  lua_pushlstring(L, out.data(), out.size());
  return 1;
}

}  // namespace

void openTvbRange(lua_State* L, State* s) {
  static const luaL_Reg methods[] = {{"uint", rUint},
                                     {"le_uint", rLeUint},
                                     {"int", rInt},
                                     {"le_int", rLeInt},
                                     {"uint64", rUint64},
                                     {"le_uint64", rLeUint64},
                                     {"int64", rInt64},
                                     {"le_int64", rLeInt64},
                                     {"float", readFloat<false>},
                                     {"le_float", readFloat<true>},
                                     {"range", rRange},
                                     {"len", rLen},
                                     {"offset", rOffset},
                                     {"bytes", rBytes},
                                     {"raw", rRaw},
                                     {"string", rString},
                                     {"stringz", rStringz},
                                     {"bitfield", rBitfield},
                                     {"tvb", rTvb},
                                     {"ipv4", rIpv4},
                                     {nullptr, nullptr}};
  static const luaL_Reg meta[] = {{"__call", rRange}, {"__tostring", rToString}, {nullptr, nullptr}};
  registerClass(L, s, T::TvbRange, methods, meta);
}

}  // namespace rudp::lua
