// Tvb: the packet buffer a dissector receives (wslua_tvb.c).
//
// The packet's Tvb is one userdata reused for every packet; a generation
// number makes Tvbs kept past their packet fail like Wireshark's expired ones.
#include "lua/state.h"

namespace rudp::lua {

namespace {

TvbUd* checkTvb(lua_State* L, State* s) {
  auto* t = checkUd<TvbUd>(L, 1, T::Tvb);
  if (t->gen != s->gen || !s->in_packet) hostError(L, "Expired Tvb");
  return t;
}

// Tvb:range([offset], [length]) and tvb(offset, length).
int tvbRange(lua_State* L) {
  State* s = S(L);
  TvbUd* t = checkTvb(L, s);
  int64_t off = lua_isnoneornil(L, 2) ? 0 : toInt(L, 2);
  int64_t len = lua_isnoneornil(L, 3) ? -1 : toInt(L, 3);
  if (off < 0) off += t->len;  // Wireshark counts negative offsets from the end
  if (off < 0) hostError(L, "Range is out of bounds");
  if (len == -1) {
    len = static_cast<int64_t>(t->len) - off;
    if (len < 0) {
      off = t->len;
      len = 0;
    }  // 4.0 yields an empty range here
  } else if (len < -1 || off + len > t->len) {
    hostError(L, "Range is out of bounds");
  }
  pushRange(L, s, t->data, t->len, t->reported, static_cast<uint32_t>(off), static_cast<uint32_t>(len));
  return 1;
}

int tvbCall(lua_State* L) { return tvbRange(L); }

int tvbLen(lua_State* L) {
  TvbUd* t = checkTvb(L, S(L));
  pushInt(L, t->len);
  return 1;
}

int tvbReportedLen(lua_State* L) {
  TvbUd* t = checkTvb(L, S(L));
  pushInt(L, t->reported);
  return 1;
}

int tvbReportedRemaining(lua_State* L) {
  TvbUd* t = checkTvb(L, S(L));
  int64_t off = luaL_optinteger(L, 2, 0);
  if (off < 0) off += t->reported;
  int64_t r = static_cast<int64_t>(t->reported) - off;
  pushInt(L, r < 0 ? -1 : r);
  return 1;
}

int tvbOffset(lua_State* L) {
  checkTvb(L, S(L));
  pushInt(L, 0);
  return 1;
}

// Checked (offset, length) of Tvb:bytes()/raw() within the captured data.
std::pair<uint32_t, uint32_t> span(lua_State* L, TvbUd* t) {
  int64_t off = luaL_optinteger(L, 2, 0);
  int64_t len = luaL_optinteger(L, 3, -1);
  if (off < 0) off += t->len;
  if (len == -1) len = static_cast<int64_t>(t->len) - off;
  if (off < 0 || len < 0 || off + len > t->len) hostError(L, "Range is out of bounds");
  return {static_cast<uint32_t>(off), static_cast<uint32_t>(len)};
}

int tvbBytes(lua_State* L) {
  State* s = S(L);
  TvbUd* t = checkTvb(L, s);
  auto [off, len] = span(L, t);
  pushByteArray(L, s, t->data + off, len);
  return 1;
}

int tvbRaw(lua_State* L) {
  TvbUd* t = checkTvb(L, S(L));
  auto [off, len] = span(L, t);
  lua_pushlstring(L, reinterpret_cast<const char*>(t->data) + off, len);
  return 1;
}

int tvbToString(lua_State* L) {
  TvbUd* t = checkTvb(L, S(L));
  static const char hex[] = "0123456789abcdef";
  std::string r = "TVB(" + std::to_string(t->len) + ") : ";
  for (uint32_t i = 0; i < t->len; ++i) {
    r += hex[t->data[i] >> 4];
    r += hex[t->data[i] & 15];
  }
  lua_pushlstring(L, r.data(), r.size());
  return 1;
}

}  // namespace

void openTvb(lua_State* L, State* s) {
  static const luaL_Reg methods[] = {{"range", tvbRange},
                                     {"len", tvbLen},
                                     {"captured_len", tvbLen},
                                     {"reported_len", tvbReportedLen},
                                     {"reported_length_remaining", tvbReportedRemaining},
                                     {"offset", tvbOffset},
                                     {"bytes", tvbBytes},
                                     {"raw", tvbRaw},
                                     {nullptr, nullptr}};
  static const luaL_Reg meta[] = {{"__call", tvbCall}, {"__tostring", tvbToString}, {nullptr, nullptr}};
  registerClass(L, s, T::Tvb, methods, meta);
}

}  // namespace rudp::lua
