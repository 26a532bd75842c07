// ProtoField constructors and the base/ftypes constants (wslua_proto_field.c).
#include <algorithm>
#include <bit>
#include <cstring>

#include "lua/state.h"

namespace rudp::lua {

namespace {

// Wireshark 4.0's ftenum values, as ftypes.* exposes them.
struct FtName {
  const char* name;
  int value;
  FieldType type;
};
const FtName kFtypes[] = {
    {"NONE", 0, FieldType::None},      {"PROTOCOL", 1, FieldType::Protocol},
    {"BOOLEAN", 2, FieldType::Bool},   {"CHAR", 3, FieldType::Char},
    {"UINT8", 4, FieldType::UInt8},    {"UINT16", 5, FieldType::UInt16},
    {"UINT24", 6, FieldType::UInt24},  {"UINT32", 7, FieldType::UInt32},
    {"UINT64", 11, FieldType::UInt64}, {"INT8", 12, FieldType::Int8},
    {"INT16", 13, FieldType::Int16},   {"INT24", 14, FieldType::Int24},
    {"INT32", 15, FieldType::Int32},   {"INT64", 19, FieldType::Int64},
    {"FLOAT", 22, FieldType::Float},   {"DOUBLE", 23, FieldType::Double},
    {"STRING", 26, FieldType::String}, {"STRINGZ", 27, FieldType::String},
    {"ETHER", 29, FieldType::Ether},   {"BYTES", 30, FieldType::Bytes},
    {"IPv4", 32, FieldType::IPv4},     {"FRAMENUM", 35, FieldType::FrameNum},
};

const std::pair<const char*, int> kBases[] = {
    {"NONE", 0},
    {"DEC", 1},
    {"HEX", 2},
    {"OCT", 3},
    {"DEC_HEX", 4},
    {"HEX_DEC", 5},
    {"CUSTOM", 6},
    {"EXP", 7},
    {"DOT", 8},
    {"DASH", 9},
    {"COLON", 10},
    {"SPACE", 11},
    {"NETMASK", 12},
    {"PT_UDP", 13},
    {"PT_TCP", 14},
    {"PT_DCCP", 15},
    {"PT_SCTP", 16},
    {"OUI", 17},
    {"LOCAL", 1000},
    {"UTC", 1001},
    {"DOY_UTC", 1002},
    {"RANGE_STRING", 0x100},
    {"EXT_STRING", 0x200},
    {"VAL64_STRING", 0x400},
    {"ALLOW_ZERO", 0x800},
    {"UNIT_STRING", 0x1000},
    {"NO_DISPLAY_VALUE", 0x2000},
    {"SPECIAL_VALS", 0x8000},
};

bool isSigned(FieldType t) {
  return t == FieldType::Int8 || t == FieldType::Int16 || t == FieldType::Int24 || t == FieldType::Int32 ||
         t == FieldType::Int64;
}

bool isInteger(FieldType t) {
  return fieldTypeWidth(t) > 0 && t != FieldType::IPv4 && t != FieldType::Float && t != FieldType::Double;
}

uint64_t optMask(lua_State* L, State* s, int i) {
  if (lua_isnoneornil(L, i)) return 0;
  uint64_t m = checkU64(L, s, i);
  return m > 0xFFFFFFFFull ? 0 : m;  // Wireshark 4.0 keeps masks 32-bit; wider ones become 0
}

// An integer field's valuestring table {[value] = "name"}, sorted by value.
std::vector<std::pair<int64_t, std::string>> valueNames(lua_State* L, int t) {
  std::vector<std::pair<int64_t, std::string>> names;
  lua_pushnil(L);
  while (lua_next(L, t) != 0) {
    if (lua_type(L, -2) == LUA_TNUMBER && lua_type(L, -1) == LUA_TSTRING)
      names.emplace_back(static_cast<int64_t>(lua_tonumber(L, -2)), lua_tostring(L, -1));
    lua_pop(L, 1);
  }
  std::sort(names.begin(), names.end());
  return names;
}

// Builds the field from (abbr, name, base, valuestring, mask, desc) at `first`.
int makeField(lua_State* L, FieldType type, const char* fn, int first, int name_i, int base_i, int vs_i,
              int mask_i) {
  State* s = S(L);
  PField pf;
  pf.info.type = type;
  pf.info.abbrev = luaL_checkstring(L, first);
  if (pf.info.abbrev.empty()) luaL_argerror(L, first, "Empty field name abbrev");
  pf.info.name = name_i && lua_isstring(L, name_i) ? lua_tostring(L, name_i) : pf.info.abbrev;
  int base = base_i && !lua_isnoneornil(L, base_i) ? static_cast<int>(luaL_checknumber(L, base_i)) : -1;
  uint64_t mask = mask_i ? optMask(L, s, mask_i) : 0;
  if (vs_i && !lua_isnoneornil(L, vs_i) && !lua_istable(L, vs_i)) luaL_argerror(L, vs_i, "table expected");
  if (vs_i && lua_istable(L, vs_i) && isInteger(type)) pf.value_names = valueNames(L, vs_i);
  if (isInteger(type) && type != FieldType::Char && type != FieldType::FrameNum) {
    if (base == -1) base = 1;
    const int b = base & 0xFF;
    if (isSigned(type)) {
      if (b != 1 && !(base & 0x1000))
        luaL_argerror(L, base_i, lua_pushfstring(L, "Base must be either base.DEC or base.UNIT_STRING"));
    } else if ((b < 1 || b > 5) && !(base & 0x1000)) {
      luaL_argerror(
          L, base_i,
          "Base must be either base.DEC, base.HEX, base.OCT, base.DEC_HEX, base.HEX_DEC or base.UNIT_STRING");
    }
  } else if (type == FieldType::Bool) {
    if (base == -1) base = 0;
    if (mask == 0 && base != 0)
      luaL_argerror(L, base_i, "Fieldbase (fielddisplay) must be base.NONE if bitmask is zero.");
    if (mask != 0 && (base < 1 || base > 64))
      luaL_argerror(L, base_i, "Fieldbase (fielddisplay) must be between 1 and 64 if bitmask is non-zero.");
  } else if (base == -1) {
    base = 0;
  }
  (void)fn;
  pf.info.base = base;
  pf.info.mask = mask;
  pf.shift = mask ? std::countr_zero(mask) : 0;
  pf.mask_bits = mask ? std::popcount(mask) : 0;
  pf.width = fieldTypeWidth(type);
  pf.is_signed = isSigned(type);
  s->pfields.push_back(pf);
  auto* u = newUd<FieldUd>(L, s, T::ProtoField);
  u->pf = static_cast<int>(s->pfields.size()) - 1;
  return 1;
}

template <FieldType FT>
int intField(lua_State* L) {
  return makeField(L, FT, "", 1, 2, 3, 4, 5);
}
int boolField(lua_State* L) { return makeField(L, FieldType::Bool, "bool", 1, 2, 3, 4, 5); }
template <FieldType FT>
int plainField(lua_State* L) {
  return makeField(L, FT, "", 1, 2, 0, 0, 0);
}
template <FieldType FT>
int basedField(lua_State* L) {
  return makeField(L, FT, "", 1, 2, 3, 0, 0);
}

// ProtoField.new(name, abbr, ftype, [valuestring], [base], [mask], [desc])
int fieldNew(lua_State* L) {
  const int ft = static_cast<int>(luaL_checknumber(L, 3));
  FieldType type = FieldType::None;
  bool found = false;
  for (const auto& f : kFtypes)
    if (f.value == ft) {
      type = f.type;
      found = true;
    }
  if (!found || type == FieldType::Protocol) notImplemented(L, "ProtoField.new with this ftype");
  // Swap name and abbr into the order makeField expects.
  lua_pushvalue(L, 1);
  lua_pushvalue(L, 2);
  lua_replace(L, 1);
  lua_replace(L, 2);
  if (isInteger(type) || type == FieldType::Bool) return makeField(L, type, "new", 1, 2, 5, 4, 6);
  return makeField(L, type, "new", 1, 2, (type == FieldType::Bytes || type == FieldType::String) ? 5 : 0, 0,
                   0);
}

int fieldToString(lua_State* L) {
  State* s = S(L);
  auto* f = checkUd<FieldUd>(L, 1, T::ProtoField);
  lua_pushfstring(L, "ProtoField(%s)", s->pfields[f->pf].info.abbrev.c_str());
  return 1;
}

}  // namespace

void openProtoField(lua_State* L, State* s) {
  static const luaL_Reg meta[] = {{"__tostring", fieldToString}, {nullptr, nullptr}};
  registerClass(L, s, T::ProtoField, nullptr, meta);
  static const luaL_Reg fns[] = {{"uint8", intField<FieldType::UInt8>},
                                 {"uint16", intField<FieldType::UInt16>},
                                 {"uint24", intField<FieldType::UInt24>},
                                 {"uint32", intField<FieldType::UInt32>},
                                 {"uint64", intField<FieldType::UInt64>},
                                 {"int8", intField<FieldType::Int8>},
                                 {"int16", intField<FieldType::Int16>},
                                 {"int24", intField<FieldType::Int24>},
                                 {"int32", intField<FieldType::Int32>},
                                 {"int64", intField<FieldType::Int64>},
                                 {"char", intField<FieldType::Char>},
                                 {"framenum", intField<FieldType::FrameNum>},
                                 {"bool", boolField},
                                 {"bytes", basedField<FieldType::Bytes>},
                                 {"string", basedField<FieldType::String>},
                                 {"stringz", basedField<FieldType::String>},
                                 {"none", plainField<FieldType::None>},
                                 {"ipv4", plainField<FieldType::IPv4>},
                                 {"ether", plainField<FieldType::Ether>},
                                 {"float", plainField<FieldType::Float>},
                                 {"double", plainField<FieldType::Double>},
                                 {"new", fieldNew},
                                 {nullptr, nullptr}};
  registerFunctions(L, s, "ProtoField", fns);
  reportMissingMembers(L, "ProtoField");
  lua_newtable(L);
  for (const auto& f : kFtypes) {
    lua_pushinteger(L, f.value);
    lua_setfield(L, -2, f.name);
  }
  lua_setglobal(L, "ftypes");
  lua_newtable(L);
  for (const auto& [n, v] : kBases) {
    lua_pushinteger(L, v);
    lua_setfield(L, -2, n);
  }
  lua_setglobal(L, "base");
}

}  // namespace rudp::lua

namespace rudp {

int fieldTypeWidth(FieldType t) {
  switch (t) {
    case FieldType::UInt8:
    case FieldType::Int8:
    case FieldType::Char: return 1;
    case FieldType::UInt16:
    case FieldType::Int16: return 2;
    case FieldType::UInt24:
    case FieldType::Int24: return 3;
    case FieldType::UInt32:
    case FieldType::Int32:
    case FieldType::FrameNum:
    case FieldType::IPv4:
    case FieldType::Float: return 4;
    case FieldType::UInt64:
    case FieldType::Int64:
    case FieldType::Double: return 8;
    default: return 0;
  }
}

}  // namespace rudp
