// Field and FieldInfo (wslua_field.c): `local f = Field.new("udp.srcport")`
// while a file loads; `f()` in a dissector returns one FieldInfo for each
// occurrence of the field in the packet so far: any loaded Lua protocol's
// fields, and the IP and UDP header fields (decode/header_walk.h).
#include <algorithm>
#include <cstring>

#include "decode/header_walk.h"
#include "lua/state.h"

namespace rudp::lua {

namespace {

struct FieldRefUd : Ud {
  int fid;  // a committed field or protocol, or -1
  int pf;   // a ProtoField not committed yet (pfields), or -1
  int builtin;
};

struct FieldInfoUd : Ud {
  uint32_t gen;
  int value;    // index into the packet's values; -1 for a header field
  int builtin;  // HeaderField with value -1
  IpAddress address;
  uint64_t number;
};

std::string_view abbrevOf(const State* s, const FieldRefUd* f) {
  if (f->builtin >= 0) return headerFieldName(static_cast<HeaderField>(f->builtin));
  return f->fid >= 0 ? s->fields[f->fid].abbrev : s->pfields[f->pf].info.abbrev;
}

// Wireshark looks the name up among registered fields and the ProtoFields
// created so far; so does this, then among the header fields.
int fieldNew(lua_State* L) {
  State* s = S(L);
  const char* name = luaL_checkstring(L, 1);
  if (s->in_packet)
    hostError(L, "Field_new: A Field extractor must be defined before Taps or Dissectors get called");
  auto* f = newUd<FieldRefUd>(L, s, T::Field);
  f->fid = f->pf = f->builtin = -1;
  if (auto it = s->field_by_abbrev.find(name); it != s->field_by_abbrev.end()) {
    f->fid = it->second;
    return 1;
  }
  for (size_t i = 0; i < s->pfields.size(); ++i)
    if (s->pfields[i].info.abbrev == name) {
      f->pf = static_cast<int>(i);
      return 1;
    }
  if (auto h = headerFieldNamed(name)) {
    f->builtin = static_cast<int>(*h);
    return 1;
  }
  std::string known;
  for (const auto& [header, _] : kHeaderFieldNames)
    known += (known.empty() ? "" : ", ") + std::string(header);
  const std::string why =
      "a field with this name must exist (rudpscope's Lua host reads the Lua dissectors' "
      "fields and " +
      known + ")";
  luaL_argerror(L, 1, why.c_str());
  return 0;
}

// `value`: an index into the packet's values, or -1 for header field `builtin`.
FieldInfoUd* newFieldInfo(lua_State* L, State* s, int value, int builtin) {
  luaL_checkstack(L, 2, "too many occurrences of the field");
  auto* fi = newUd<FieldInfoUd>(L, s, T::FieldInfo);
  fi->gen = s->gen;
  fi->value = value;
  fi->builtin = builtin;
  fi->number = 0;
  return fi;
}

int pushHeaderValues(lua_State* L, State* s, HeaderField field) {
  int n = 0;
  const int builtin = static_cast<int>(field);
  forEachIpHeader(*s->pkt, [&](const OuterHeader& h) {
    headerFieldValues(
        field, h,
        [&](const IpAddress& a) {
          newFieldInfo(L, s, -1, builtin)->address = a;
          ++n;
        },
        [&](uint64_t v) {
          newFieldInfo(L, s, -1, builtin)->number = v;
          ++n;
        });
  });
  return n;
}

int fieldCall(lua_State* L) {
  State* s = S(L);
  auto* f = checkUd<FieldRefUd>(L, 1, T::Field);
  if (!s->in_packet || !s->out)
    hostError(L, "A Field extractor can only be called while dissecting a packet");
  if (f->builtin >= 0) return pushHeaderValues(L, s, static_cast<HeaderField>(f->builtin));
  const int fid = f->fid >= 0 ? f->fid : s->pfields[f->pf].fid;
  int n = 0;
  const std::vector<FieldValue>& values = s->out->values;
  for (size_t i = 0; fid >= 0 && i < values.size(); ++i) {
    if (values[i].field != fid) continue;
    newFieldInfo(L, s, static_cast<int>(i), -1);
    ++n;
  }
  return n;
}

int fieldToString(lua_State* L) {
  State* s = S(L);
  auto* f = checkUd<FieldRefUd>(L, 1, T::Field);
  const std::string_view name = abbrevOf(s, f);
  lua_pushlstring(L, name.data(), name.size());
  return 1;
}

int fieldIndex(lua_State* L) {
  const char* key = luaL_checkstring(L, 2);
  if (!strcmp(key, "name")) return fieldToString(L);
  notImplemented(L, std::string("Field.") + key);
}

FieldInfoUd* checkFieldInfo(lua_State* L, State* s) {
  auto* fi = checkUd<FieldInfoUd>(L, 1, T::FieldInfo);
  if (fi->gen != s->gen || !s->in_packet) hostError(L, "Expired FieldInfo");
  return fi;
}

void pushIpv4(lua_State* L, State* s, uint64_t hostOrder) {
  IpAddress a;
  a.family = 4;
  for (int i = 0; i < 4; ++i) a.bytes[i] = static_cast<uint8_t>(hostOrder >> (24 - 8 * i));
  pushAddress(L, s, a);
}

// FieldInfo.value as wslua gives it: numbers, UInt64/Int64 for 64-bit
// integers, booleans, strings, a ByteArray for bytes and for a protocol's
// own item, an Address for IPv4.
void pushLuaValue(lua_State* L, State* s, const FieldValue& v) {
  const DissectResult& r = *s->out;
  const char* str = r.strings.data() + v.str_off;
  double d;
  switch (s->fields[v.field].type) {
    case FieldType::None: lua_pushnil(L); return;
    case FieldType::Bool: lua_pushboolean(L, v.u != 0); return;
    case FieldType::UInt64: pushUInt64(L, s, v.u); return;
    case FieldType::Int64: pushInt64(L, s, static_cast<int64_t>(v.u)); return;
    case FieldType::Float:
    case FieldType::Double:
      memcpy(&d, &v.u, sizeof d);
      lua_pushnumber(L, d);
      return;
    case FieldType::String: lua_pushlstring(L, str, v.str_len); return;
    case FieldType::Bytes: pushByteArray(L, s, reinterpret_cast<const uint8_t*>(str), v.str_len); return;
    case FieldType::IPv4: pushIpv4(L, s, v.u); return;
    case FieldType::Ether: notImplemented(L, "FieldInfo.value of an Ethernet address");
    case FieldType::Protocol:
      if (v.offset == FieldValue::kNoBytes)
        pushByteArray(L, s, nullptr, 0);
      else
        pushByteArray(L, s, s->tvb->data + v.offset, std::min(v.length, s->tvb->len - v.offset));
      return;
    default: pushInt(L, static_cast<int64_t>(v.u));  // the other integers, Char, FrameNum
  }
}

void pushValue(lua_State* L, State* s, const FieldInfoUd* fi) {
  if (fi->value >= 0)
    pushLuaValue(L, s, s->out->values[fi->value]);
  else if (isAddressField(static_cast<HeaderField>(fi->builtin)))
    pushAddress(L, s, fi->address);
  else
    pushInt(L, static_cast<int64_t>(fi->number));
}

int headerFieldLength(const FieldInfoUd* fi) {
  using F = HeaderField;
  switch (static_cast<F>(fi->builtin)) {
    case F::IpProto:
    case F::IpTtl: return 1;
    case F::IpId:
    case F::UdpSrcPort:
    case F::UdpDstPort:
    case F::UdpPort:
    case F::UdpLength: return 2;
    default: return fi->address.family == 6 ? 16 : 4;
  }
}

int fieldInfoLen(lua_State* L) {
  State* s = S(L);
  const FieldInfoUd* fi = checkFieldInfo(L, s);
  if (fi->value < 0) {
    pushInt(L, headerFieldLength(fi));
    return 1;
  }
  const FieldValue& v = s->out->values[fi->value];
  pushInt(L, v.offset == FieldValue::kNoBytes ? 0 : v.length);
  return 1;
}

int fieldInfoCall(lua_State* L) {
  State* s = S(L);
  pushValue(L, s, checkFieldInfo(L, s));
  return 1;
}

// tostring(fieldinfo): tshark -T fields' text, except that plain bytes are
// written with colons (fvalue_to_string_repr's FTREPR_DISPLAY).
std::string displayText(const State& s, const FieldValue& v) {
  const FieldInfo& info = s.fields[v.field];
  if (info.type != FieldType::Bytes || info.base != 0) return formatField(s, v, *s.out);
  static const char hex[] = "0123456789abcdef";
  std::string out;
  for (uint32_t i = 0; i < v.str_len; ++i) {
    const auto c = static_cast<uint8_t>(s.out->strings[v.str_off + i]);
    if (i) out += ':';
    out += hex[c >> 4];
    out += hex[c & 15];
  }
  return out;
}

int fieldInfoToString(lua_State* L) {
  State* s = S(L);
  const FieldInfoUd* fi = checkFieldInfo(L, s);
  if (fi->value >= 0) {
    const std::string text = displayText(*s, s->out->values[fi->value]);
    lua_pushlstring(L, text.data(), text.size());
  } else if (isAddressField(static_cast<HeaderField>(fi->builtin))) {
    lua_pushstring(L, fi->address.toString().c_str());
  } else {
    lua_pushfstring(L, "%d", static_cast<int>(fi->number));
  }
  return 1;
}

// The bytes the item covers, in the Tvb the dissector was given.
int fieldInfoRange(lua_State* L, State* s, const FieldInfoUd* fi) {
  const FieldValue* v = fi->value >= 0 ? &s->out->values[fi->value] : nullptr;
  if (!v || v->offset == FieldValue::kNoBytes || v->offset > s->tvb->len)
    notImplemented(L, "FieldInfo.range of an item outside the dissector's Tvb");
  pushRange(L, s, s->tvb->data, s->tvb->len, s->tvb->reported, v->offset,
            std::min(v->length, s->tvb->len - v->offset));
  return 1;
}

int fieldInfoIndex(lua_State* L) {
  State* s = S(L);
  const FieldInfoUd* fi = checkFieldInfo(L, s);
  const char* key = luaL_checkstring(L, 2);
  if (!strcmp(key, "value")) return fieldInfoCall(L);
  if (!strcmp(key, "len")) return fieldInfoLen(L);
  if (!strcmp(key, "range")) return fieldInfoRange(L, s, fi);
  if (!strcmp(key, "name")) {
    if (fi->value >= 0) {
      lua_pushstring(L, s->fields[s->out->values[fi->value].field].abbrev.c_str());
      return 1;
    }
    const std::string_view name = headerFieldName(static_cast<HeaderField>(fi->builtin));
    lua_pushlstring(L, name.data(), name.size());
    return 1;
  }
  // offset: Wireshark counts from the frame's first byte, which the host
  // does not know (its Tvb starts at the UDP payload); generated and hidden:
  // the host keeps those marks only when it builds the details tree.
  notImplemented(L, std::string("FieldInfo.") + key);
}

}  // namespace

void openField(lua_State* L, State* s) {
  static const luaL_Reg fieldMeta[] = {
      {"__call", fieldCall}, {"__tostring", fieldToString}, {"__index", fieldIndex}, {nullptr, nullptr}};
  registerClass(L, s, T::Field, nullptr, fieldMeta);
  static const luaL_Reg infoMeta[] = {{"__call", fieldInfoCall},
                                      {"__len", fieldInfoLen},
                                      {"__tostring", fieldInfoToString},
                                      {"__index", fieldInfoIndex},
                                      {nullptr, nullptr}};
  registerClass(L, s, T::FieldInfo, nullptr, infoMeta);
  static const luaL_Reg cls[] = {{"new", fieldNew}, {nullptr, nullptr}};
  registerFunctions(L, s, "Field", cls);
  reportMissingMembers(L, "Field");
}

}  // namespace rudp::lua
