// TreeItem: the protocol tree (wslua_tree.c).
//
// Each item is a node (parent, value) in a per-packet vector; field items
// append a FieldValue to the result. Labels (given texts, set/append/prepend,
// generated and hidden items, expert items) are kept only when the details
// tree is asked for (State::want_tree); bulk dissection builds none. TreeItem
// userdata come from a pool reused at every packet, like TvbRanges.
#include <cstring>

#include "core/bytes.h"
#include "lua/state.h"

namespace rudp::lua {

namespace {
constexpr int kMaxPool = 4096;
constexpr uint32_t kMalformedGroup = 0x07000000;

uint64_t signExtend(uint64_t v, int bits) {
  if (bits <= 0 || bits >= 64) return v;
  const uint64_t m = 1ull << (bits - 1);
  v &= (1ull << bits) - 1;
  return (v ^ m) - m;
}

TreeUd* checkTree(lua_State* L, State* s) {
  auto* t = checkUd<TreeUd>(L, 1, T::TreeItem);
  if (t->gen != s->gen || !s->in_packet) hostError(L, "Expired TreeItem");
  return t;
}

void record(State* s, int node, int fid, uint64_t u, const char* str, size_t len) {
  FieldValue v;
  v.field = fid;
  v.u = u;
  if (str) {
    v.str_off = static_cast<uint32_t>(s->out->strings.size());
    v.str_len = static_cast<uint32_t>(len);
    s->out->strings.append(str, len);
  }
  s->nodes[node].value = static_cast<int>(s->out->values.size());
  s->out->values.push_back(v);
}

[[noreturn]] void badValue(lua_State* L, int i, bool le, const char* expected) {
  hostError(L, "calling '%s' on bad self (%s expected, got %s)", le ? "add_le" : "add", expected,
            luaL_typename(L, i));
  __builtin_unreachable();
}

// The value of an integer-like field, masked and shifted as Wireshark does.
uint64_t intValue(lua_State* L, State* s, const PField& pf, const RangeUd* r, int vi, bool le) {
  const FieldType t = pf.info.type;
  uint64_t v;
  if (vi) {
    if (t == FieldType::Char) hostError(L, "FT_ not yet supported");
    if (t == FieldType::Bool && lua_isboolean(L, vi))
      v = lua_toboolean(L, vi) ? 1 : 0;
    else if (t == FieldType::UInt64 || t == FieldType::Int64 || t == FieldType::Bool)
      v = checkU64(L, s, vi);
    else if (!lua_isnumber(L, vi))
      badValue(L, vi, le, "number");
    else if (pf.is_signed)
      v = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(toInt(L, vi))));
    else
      v = static_cast<uint32_t>(toInt(L, vi));
  } else {
    if (t == FieldType::FrameNum) hostError(L, "ProtoField FRAMENUM cannot fetch value from Tvb");
    const uint32_t len = r ? r->len : 0;
    const uint32_t maxw = (t == FieldType::UInt64 || t == FieldType::Int64 || t == FieldType::Bool) ? 8 : 4;
    if (len == 0)
      throwMalformed(L, pf.is_signed ? "Trying to fetch a signed integer with length 0"
                                     : "Trying to fetch an unsigned integer with length 0");
    uint32_t n = len;
    if (len > maxw) {  // Wireshark reads the first bytes and adds a Malformed warning
      s->out->malformed = true;
      n = maxw;
    }
    v = readN(r->data + r->off, n, le);
    if (pf.is_signed && !pf.info.mask) v = signExtend(v, static_cast<int>(n) * 8);
  }
  if (t == FieldType::Bool) return (pf.info.mask ? (v & pf.info.mask) : v) != 0;
  if (pf.info.mask) {
    v = (v & pf.info.mask) >> pf.shift;
    if (pf.is_signed) v = signExtend(v, pf.mask_bits);
  }
  return v;
}

void addField(lua_State* L, State* s, int node, const PField& pf, const RangeUd* r, int vi, bool le) {
  const FieldType t = pf.info.type;
  const uint8_t* p = r ? r->data + r->off : nullptr;
  const uint32_t len = r ? r->len : 0;
  switch (t) {
    case FieldType::None: record(s, node, pf.fid, 0, nullptr, 0); return;
    case FieldType::Bytes:
    case FieldType::Ether: {
      if (vi) {
        if (auto* b = testUd<ByteArrayUd>(L, vi, T::ByteArray)) {
          record(s, node, pf.fid, 0, b->bytes->data(), b->bytes->size());
        } else {
          size_t n = 0;
          const char* str = lua_tolstring(L, vi, &n);
          if (!str) badValue(L, vi, le, "string");
          record(s, node, pf.fid, 0, str, n);
        }
      } else {
        if (t == FieldType::Ether && len != 6)
          throwMalformed(L, "Trying to fetch an Ethernet address with length != 6");
        record(s, node, pf.fid, 0, reinterpret_cast<const char*>(p), len);
      }
      return;
    }
    case FieldType::String: {
      if (vi) {
        const char* str = lua_tostring(L, vi);
        if (!str) badValue(L, vi, le, "string");
        record(s, node, pf.fid, 0, str, strlen(str));
        return;
      }
      // ENC_ASCII: stops at NUL, bytes >= 0x80 become U+FFFD.
      std::string& arena = s->out->strings;
      const size_t start = arena.size();
      for (uint32_t i = 0; i < len && p[i]; ++i) {
        if (p[i] < 0x80)
          arena += static_cast<char>(p[i]);
        else
          arena += "\xEF\xBF\xBD";
      }
      std::string text = arena.substr(start);
      arena.resize(start);
      record(s, node, pf.fid, 0, text.data(), text.size());
      return;
    }
    case FieldType::Float:
    case FieldType::Double: {
      double d = 0;
      if (vi) {
        d = luaL_checknumber(L, vi);
      } else if (len == 4) {
        uint32_t b = static_cast<uint32_t>(readN(p, 4, le));
        float f;
        memcpy(&f, &b, 4);
        d = f;
      } else if (len == 8) {
        uint64_t b = readN(p, 8, le);
        memcpy(&d, &b, 8);
      } else {
        throwMalformed(L, "Trying to fetch a floating point number with an invalid length");
      }
      uint64_t bits;
      memcpy(&bits, &d, 8);
      record(s, node, pf.fid, bits, nullptr, 0);
      return;
    }
    case FieldType::IPv4: {
      uint64_t v;
      if (vi) {
        if (auto* a = testUd<AddressUd>(L, vi, T::Address))
          v = readN(a->addr.bytes.data(), 4, false);
        else
          v = static_cast<uint32_t>(toInt(L, vi));
      } else {
        if (len != 4) throwMalformed(L, "Trying to fetch an IPv4 address with length != 4");
        v = readN(p, 4, le);
      }
      record(s, node, pf.fid, v, nullptr, 0);
      return;
    }
    default: record(s, node, pf.fid, intValue(L, s, pf, r, vi, le), nullptr, 0); return;
  }
}

// Where the value just recorded at `node` lies in the payload.
void placeValue(State* s, int node, const RangeUd* r) {
  const int vi = s->nodes[node].value;
  if (vi < 0) return;
  FieldValue& v = s->out->values[vi];
  const uint8_t* payload = s->tvb->data;
  if (r && r->data && payload && r->data >= payload && r->data <= payload + s->tvb->len) {
    v.offset = static_cast<uint32_t>(r->data - payload) + r->off;  // a sub-Tvb's data lies inside
    v.length = r->len;
  }
}

// add()'s label arguments from `first` on: the first string replaces the
// label, the others are appended after a space (wslua_tree.c).
void labelArgs(lua_State* L, State* s, int node, int first, int top, bool replaceFirst) {
  NodeLabel* label = labelOf(s, node);
  if (!label) return;
  for (int i = first; i <= top; ++i) {
    const char* text = lua_tostring(L, i);
    if (!text) continue;
    if (replaceFirst && i == first) {
      label->has_text = true;
      label->text = text;
    } else {
      label->suffix += std::string(" ") + text;
    }
  }
}

// add/add_le(field|proto, [range|tvb], [value], [label...]) and add([range], text).
int addItem(lua_State* L, bool le) {
  State* s = S(L);
  TreeUd* t = checkTree(L, s);
  const int top = lua_gettop(L);
  int i = 2;
  FieldUd* f = testUd<FieldUd>(L, 2, T::ProtoField);
  ProtoUd* p = f ? nullptr : testUd<ProtoUd>(L, 2, T::Proto);
  if (f || p) ++i;
  RangeUd* r = i <= top ? testUd<RangeUd>(L, i, T::TvbRange) : nullptr;
  RangeUd whole{};
  if (r) {
    if (r->gen != s->gen) hostError(L, "Expired TvbRange");
    ++i;
  } else if (i <= top && testUd<TvbUd>(L, i, T::Tvb)) {
    ++i;  // a Tvb stands for an empty range at its start, as in 4.0
    r = &whole;
  }
  const int vi = (i <= top && !lua_isnil(L, i)) ? i : 0;
  if (f) {
    const PField& pf = s->pfields[f->pf];
    if (pf.fid < 0)
      hostError(L, "ProtoField '%s' is not registered (add it to a Proto's fields)", pf.info.abbrev.c_str());
    const int node = newNode(s, t->node);
    addField(L, s, node, pf, r, vi, le);
    placeValue(s, node, r);
    if (vi) labelArgs(L, s, node, vi + 1, top, true);
    pushTreeItem(L, s, node);
  } else {
    const int node = newNode(s, t->node);
    if (p) {
      const int fid = s->proto_rt[p->proto].field;
      if (vi && lua_type(L, vi) == LUA_TSTRING) {
        size_t n = 0;
        const char* text = lua_tolstring(L, vi, &n);
        record(s, node, fid, 1, text, n);  // u = 1: the item has its own label
      } else {
        record(s, node, fid, 0, nullptr, 0);
      }
      placeValue(s, node, r);
      if (vi) labelArgs(L, s, node, vi + 1, top, false);
    } else if (NodeLabel* label = labelOf(s, node)) {  // a text item
      labelArgs(L, s, node, vi ? vi : top + 1, top, true);
      if (r && r->data && r->data >= s->tvb->data && r->data <= s->tvb->data + s->tvb->len) {
        label->offset = static_cast<uint32_t>(r->data - s->tvb->data) + r->off;
        label->length = r->len;
      }
    }
    pushTreeItem(L, s, node);
  }
  return 1;
}

int tAdd(lua_State* L) { return addItem(L, false); }
int tAddLe(lua_State* L) { return addItem(L, true); }

// add_packet_field(field, range, encoding, [label]): the encoding picks the byte order.
int tAddPacketField(lua_State* L) {
  const bool le = (static_cast<uint64_t>(toInt(L, 4)) & 0x80000000u) != 0;
  lua_remove(L, 4);
  return addItem(L, le);
}

void markExpert(State* s, uint32_t group) {
  if (group == kMalformedGroup) s->out->malformed = true;
}

// add_proto_expert_info(expert, [text]) (TextArg 3) and
// add_tvb_expert_info(expert, tvb, [text]) (TextArg 4), both under the item
// (the range only places the latter in the bytes).
template <int TextArg>
int tAddProtoExpert(lua_State* L) {
  State* s = S(L);
  TreeUd* t = checkTree(L, s);
  const Expert& e = s->experts[checkUd<IndexUd>(L, 2, T::ProtoExpert)->index];
  markExpert(s, e.group);
  const char* text = lua_tostring(L, TextArg);
  addExpertItem(s, t->node, text ? text : e.text, e.group, e.severity);
  lua_settop(L, 1);
  return 1;
}

// The legacy add_expert_info([group], [severity], [text]).
int tAddExpert(lua_State* L) {
  State* s = S(L);
  TreeUd* t = checkTree(L, s);
  const auto group = static_cast<uint32_t>(luaL_optinteger(L, 2, 0x08000000));
  const auto severity = static_cast<uint32_t>(luaL_optinteger(L, 3, 0x00200000));
  markExpert(s, group);
  const char* text = lua_tostring(L, 4);
  addExpertItem(s, t->node, text ? text : "Expert Info", group, severity);
  lua_settop(L, 1);
  return 1;
}

// set_text / append_text / prepend_text: kept for the details tree only.
template <int Edit>
int tText(lua_State* L) {
  State* s = S(L);
  TreeUd* t = checkTree(L, s);
  const char* text = luaL_checkstring(L, 2);
  if (NodeLabel* label = labelOf(s, t->node)) {
    if (Edit == 0) {
      label->has_text = true;
      label->text = text;
      label->prefix.clear();
      label->suffix.clear();
    } else if (Edit == 1) {
      label->suffix += text;
    } else {
      label->prefix = text + label->prefix;
    }
  }
  lua_settop(L, 1);
  return 1;
}

// set_generated([bool]) / set_hidden([bool]).
template <bool Generated>
int tFlag(lua_State* L) {
  State* s = S(L);
  TreeUd* t = checkTree(L, s);
  const bool on = lua_isnoneornil(L, 2) || lua_toboolean(L, 2);
  if (NodeLabel* label = labelOf(s, t->node)) (Generated ? label->generated : label->hidden) = on;
  lua_settop(L, 1);
  return 1;
}

// Display-only methods the tree does not show: they return the item.
int tSelf(lua_State* L) {
  checkTree(L, S(L));
  lua_settop(L, 1);
  return 1;
}

}  // namespace

// Appended in tree (depth-first) order iff the parent is the newest node or
// one of its ancestors; otherwise the host re-sorts the values afterwards.
int newNode(State* s, int parent) {
  int n = s->last_node;
  while (n != parent && n > 0) n = s->nodes[n].parent;
  if (n != parent) s->out_of_order = true;
  s->nodes.push_back(Node{parent, -1});
  return s->last_node = static_cast<int>(s->nodes.size()) - 1;
}

// The node's label edits; nullptr unless the details tree was asked for.
NodeLabel* labelOf(State* s, int node) {
  if (!s->want_tree) return nullptr;
  if (s->labels.size() <= size_t(node)) s->labels.resize(size_t(node) + 1);
  return &s->labels[size_t(node)];
}

void pushTreeItem(lua_State* L, State* s, int node) {
  TreeUd* t;
  if (s->tree_used < s->tree_pool_size) {
    lua_rawgeti(L, lua_upvalueindex(kTreePoolUpvalue), ++s->tree_used);
    t = static_cast<TreeUd*>(lua_touserdata(L, -1));
  } else {
    t = newUd<TreeUd>(L, s, T::TreeItem);
    if (s->tree_pool_size < kMaxPool) {
      lua_rawgeti(L, LUA_REGISTRYINDEX, s->tree_pool_ref);
      lua_pushvalue(L, -2);
      lua_rawseti(L, -2, ++s->tree_pool_size);
      lua_pop(L, 1);
      s->tree_used = s->tree_pool_size;
    }
  }
  t->node = node;
  t->gen = s->gen;
}

void openTreeItem(lua_State* L, State* s) {
  static const luaL_Reg methods[] = {{"add", tAdd},
                                     {"add_le", tAddLe},
                                     {"add_packet_field", tAddPacketField},
                                     {"add_proto_expert_info", tAddProtoExpert<3>},
                                     {"add_tvb_expert_info", tAddProtoExpert<4>},
                                     {"add_expert_info", tAddExpert},
                                     {"append_text", tText<1>},
                                     {"prepend_text", tText<2>},
                                     {"set_text", tText<0>},
                                     {"set_generated", tFlag<true>},
                                     {"set_hidden", tFlag<false>},
                                     {"set_len", tSelf},
                                     {"set_expert_flags", tSelf},
                                     {nullptr, nullptr}};
  registerClass(L, s, T::TreeItem, methods, nullptr);
}

}  // namespace rudp::lua
