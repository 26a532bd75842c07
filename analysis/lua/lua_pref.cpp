// Pref and a Proto's prefs table (wslua_pref.c).
//
// Pref.uint(...) makes an unattached preference; `p.prefs.port = pref`
// attaches it as "<proto>.port". Reading `p.prefs.port` gives the current
// value, which LuaHost::finishLoading() sets from setPreference().
#include <cstring>

#include "lua/state.h"

namespace rudp::lua {

namespace {

int newPref(lua_State* L, PrefType type) {
  State* s = S(L);
  PrefRt p;
  p.type = type;
  luaL_optstring(L, 1, "");  // label
  switch (type) {
    case PrefType::UInt: p.num = static_cast<double>(luaL_optinteger(L, 2, 0)); break;
    case PrefType::Bool: p.num = lua_toboolean(L, 2) ? 1 : 0; break;
    case PrefType::String:
    case PrefType::Range: p.str = luaL_optstring(L, 2, ""); break;
    case PrefType::Static: break;
    case PrefType::Enum: {
      p.num = static_cast<double>(luaL_optinteger(L, 2, 0));
      luaL_checktype(L, 4, LUA_TTABLE);
      const int n = static_cast<int>(lua_rawlen(L, 4));
      for (int i = 1; i <= n; ++i) {  // entries {name, description, value}
        lua_rawgeti(L, 4, i);
        if (lua_istable(L, -1)) {
          lua_rawgeti(L, -1, 1);
          lua_rawgeti(L, -2, 2);
          lua_rawgeti(L, -3, 3);
          const int v = static_cast<int>(lua_tointeger(L, -1));
          if (lua_isstring(L, -3)) p.enum_values.emplace_back(lua_tostring(L, -3), v);
          if (lua_isstring(L, -2)) p.enum_values.emplace_back(lua_tostring(L, -2), v);
          lua_pop(L, 3);
        }
        lua_pop(L, 1);
      }
      break;
    }
  }
  s->prefs.push_back(p);
  newUd<IndexUd>(L, s, T::Pref)->index = static_cast<int>(s->prefs.size()) - 1;
  return 1;
}

int prefUint(lua_State* L) { return newPref(L, PrefType::UInt); }
int prefBool(lua_State* L) { return newPref(L, PrefType::Bool); }
int prefString(lua_State* L) { return newPref(L, PrefType::String); }
int prefEnum(lua_State* L) { return newPref(L, PrefType::Enum); }
int prefRange(lua_State* L) { return newPref(L, PrefType::Range); }
int prefStatic(lua_State* L) { return newPref(L, PrefType::Static); }

int findPref(State* s, int proto, const char* name) {
  for (size_t i = 0; i < s->prefs.size(); ++i)
    if (s->prefs[i].proto == proto && s->prefs[i].name == name) return static_cast<int>(i);
  return -1;
}

int prefsIndex(lua_State* L) {
  State* s = S(L);
  auto* u = checkUd<IndexUd>(L, 1, T::Prefs);
  const char* name = luaL_checkstring(L, 2);
  const int i = findPref(s, u->index, name);
  if (i < 0) hostError(L, "unknown pref '%s' of %s", name, s->protos[u->index].name.c_str());
  const PrefRt& p = s->prefs[i];
  switch (p.type) {
    case PrefType::UInt:
    case PrefType::Enum: pushInt(L, static_cast<int64_t>(p.num)); break;
    case PrefType::Bool: lua_pushboolean(L, p.num != 0); break;
    case PrefType::String:
    case PrefType::Range: lua_pushlstring(L, p.str.data(), p.str.size()); break;
    case PrefType::Static: lua_pushnil(L); break;
  }
  return 1;
}

int prefsNewIndex(lua_State* L) {
  State* s = S(L);
  auto* u = checkUd<IndexUd>(L, 1, T::Prefs);
  const char* name = luaL_checkstring(L, 2);
  auto* pref = checkUd<IndexUd>(L, 3, T::Pref);
  for (const char* c = name; *c; ++c)
    if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_' || *c == '.'))
      luaL_argerror(L, 2, "pref name can only contain lower-case letters, digits, '_' and '.'");
  if (findPref(s, u->index, name) >= 0) luaL_argerror(L, 2, "a preference with this name already exists");
  PrefRt& p = s->prefs[pref->index];
  if (p.proto >= 0) luaL_argerror(L, 3, "this preference is already registered");
  p.proto = u->index;
  p.name = name;
  return 0;
}

}  // namespace

void openPref(lua_State* L, State* s) {
  registerClass(L, s, T::Pref, nullptr, nullptr);
  static const luaL_Reg meta[] = {{"__index", prefsIndex}, {"__newindex", prefsNewIndex}, {nullptr, nullptr}};
  registerClass(L, s, T::Prefs, nullptr, meta);
  static const luaL_Reg fns[] = {{"uint", prefUint}, {"bool", prefBool},   {"string", prefString},
                                 {"enum", prefEnum}, {"range", prefRange}, {"statictext", prefStatic},
                                 {nullptr, nullptr}};
  registerFunctions(L, s, "Pref", fns);
}

}  // namespace rudp::lua
