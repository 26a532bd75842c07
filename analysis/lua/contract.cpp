// The rudpscope.contract block: which dissector fields mean what.
// See contract.h and dissectors/README.md for the keys.
#include <algorithm>

#include "core/error.h"
#include "lua/state.h"

namespace rudp::lua {

namespace {

const char kOpen[] = "--[==[ rudpscope.contract";
const char kClose[] = "]==]";

struct Parser {
  State* s;
  lua_State* L;
  std::string script;

  [[noreturn]] void fail(const std::string& msg) const {
    throw DissectorError(script + ": rudpscope.contract: " + msg);
  }

  // Field id of the string at index i (key names the contract entry).
  int field(int i, const std::string& key) const {
    if (lua_type(L, i) != LUA_TSTRING) fail("'" + key + "' must be a field name (string)");
    const std::string name = lua_tostring(L, i);
    auto it = s->field_by_abbrev.find(name);
    if (it == s->field_by_abbrev.end()) fail("unknown field '" + name + "' for '" + key + "'");
    return it->second;
  }

  // t[key] of the table at index t, pushed; returns false (nothing pushed) when nil.
  bool get(int t, const char* key) const {
    lua_getfield(L, t, key);
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      return false;
    }
    return true;
  }

  int optField(int t, const char* key, const std::string& path) const {
    if (!get(t, key)) return -1;
    const int f = field(lua_gettop(L), path);
    lua_pop(L, 1);
    return f;
  }

  // `f` (a field id, or -1) when its values are numbers the analysis counts with.
  int requireNumber(int f, const std::string& path) const {
    if (f < 0) return f;
    const FieldType type = s->fields[static_cast<size_t>(f)].type;
    const bool number = (type >= FieldType::UInt8 && type <= FieldType::Int64) || type == FieldType::FrameNum;
    if (!number)
      fail("'" + path + "' must be an integer field (ProtoField.uint8 .. uint64, int8 .. int64), not '" +
           s->fields[static_cast<size_t>(f)].abbrev + "'");
    return f;
  }
  int optNumberField(int t, const char* key, const std::string& path) const {
    return requireNumber(optField(t, key, path), path);
  }

  double optNumber(int t, const char* key, double def, const std::string& path) const {
    if (!get(t, key)) return def;
    if (lua_type(L, -1) != LUA_TNUMBER) fail("'" + path + "' must be a number");
    const double v = lua_tonumber(L, -1);
    lua_pop(L, 1);
    return v;
  }

  // A whole number in [lo, hi]; checked before any conversion (a double out
  // of int range converted to int is undefined behaviour).
  int optInt(int t, const char* key, int def, int lo, int hi, const std::string& path) const {
    const double v = optNumber(t, key, def, path);
    if (!(v >= lo && v <= hi) || v != static_cast<double>(static_cast<long long>(v)))
      fail("'" + path + "' must be a whole number from " + std::to_string(lo) + " to " + std::to_string(hi));
    return static_cast<int>(v);
  }

  void checkKeys(int t, std::initializer_list<const char*> allowed, const std::string& where) const {
    lua_pushnil(L);
    while (lua_next(L, t)) {
      lua_pop(L, 1);
      if (lua_type(L, -1) != LUA_TSTRING) fail("non-string key in " + where);
      const std::string k = lua_tostring(L, -1);
      if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return k == a; }))
        fail("unknown key '" + k + "' in " + where);
    }
  }

  KindRole role(const std::string& r) const {
    KindRole k;
    if (r == "data")
      k.role = SegmentRole::Data;
    else if (r == "data reliable") {
      k.role = SegmentRole::Data;
      k.reliability = Reliability::Reliable;
    } else if (r == "data unreliable") {
      k.role = SegmentRole::Data;
      k.reliability = Reliability::Unreliable;
    } else if (r == "data unsequenced") {
      k.role = SegmentRole::Data;
      k.reliability = Reliability::Unsequenced;
    } else if (r == "ack") {
      k.role = SegmentRole::Ack;
      k.consumes_seq = false;
    } else if (r == "connect")
      k.role = SegmentRole::Connect;
    else if (r == "accept")
      k.role = SegmentRole::Accept;
    else if (r == "disconnect")
      k.role = SegmentRole::Disconnect;
    else if (r == "ping")
      k.role = SegmentRole::Ping;
    else if (r == "pong")
      k.role = SegmentRole::Pong;
    else if (r == "other")
      k.role = SegmentRole::Other;
    else
      fail("unknown role '" + r +
           "' in kind (valid: data, data reliable, data unreliable, data unsequenced, ack, connect, accept, "
           "disconnect, ping, pong, other)");
    return k;
  }

  // `version` and `proto`, common to both versions.
  Contract header(int t) const {
    Contract c;
    if (get(t, "version")) {
      const bool whole =
          lua_type(L, -1) == LUA_TNUMBER && (lua_tonumber(L, -1) == 1 || lua_tonumber(L, -1) == 2);
      lua_pop(L, 1);
      if (!whole) fail("'version' must be 1 or 2");
    }
    c.version = optInt(t, "version", 1, 1, 2, "version");
    if (!get(t, "proto") || lua_type(L, -1) != LUA_TSTRING)
      fail("'proto' (the dissector's filter name) is required");
    c.proto = lua_tostring(L, -1);
    lua_pop(L, 1);
    for (size_t p = 0; p < s->protos.size(); ++p)
      if (s->protos[p].name == c.proto) c.proto_index = static_cast<int>(p);
    if (c.proto_index < 0) fail("unknown protocol '" + c.proto + "'");
    return c;
  }

  // A sub-table t[key], pushed; fails unless it is a table with only `allowed` keys.
  bool table(int t, const char* key, std::initializer_list<const char*> allowed) const {
    if (!get(t, key)) return false;
    if (!lua_istable(L, -1)) fail(std::string("'") + key + "' must be a table");
    checkKeys(lua_gettop(L), allowed, key);
    return true;
  }

  // Version 2 (the two-level model): packet, acks, message.
  Contract parseTwoLevel(int t) const {
    Contract c = header(t);
    checkKeys(t, {"version", "proto", "conn_id", "packet", "acks", "message"}, "a version 2 contract");
    TwoLevelContract& v = c.two_level;
    c.conn_id = optField(t, "conn_id", "conn_id");
    if (!table(t, "packet", {"number", "bits"})) fail("'packet' = {number=, bits=} is required in version 2");
    const int p = lua_gettop(L);
    v.number = optNumberField(p, "number", "packet.number");
    if (v.number < 0) fail("'packet.number' is required");
    v.number_bits = optInt(p, "bits", 24, 8, 32, "packet.bits");
    lua_pop(L, 1);
    if (!table(t, "acks", {"style", "first", "last", "nak"})) fail("'acks' is required in version 2");
    const int a = lua_gettop(L);
    std::string style = "ranges";
    if (get(a, "style")) {
      style = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
      lua_pop(L, 1);
    }
    if (style != "ranges") fail("unknown acks.style '" + style + "' (valid: ranges)");
    v.ack_first = optNumberField(a, "first", "acks.first");
    v.ack_last = optNumberField(a, "last", "acks.last");
    v.nak = optField(a, "nak", "acks.nak");
    if (v.ack_first < 0) fail("'acks.first' is required");
    lua_pop(L, 1);
    if (!table(t, "message", {"segment", "id", "class", "order", "split", "length"}))
      fail("'message' is required in version 2");
    parseMessage(lua_gettop(L), v);
    lua_pop(L, 1);
    checkSingles(v);
    return c;
  }

  void parseMessage(int m, TwoLevelContract& v) const {
    v.msg_segment = optField(m, "segment", "message.segment");
    if (v.msg_segment < 0) fail("'message.segment' is required");
    parseLength(m, v);
    if (table(m, "id", {"field", "bits"})) {
      v.msg_id = optNumberField(lua_gettop(L), "field", "message.id.field");
      v.msg_id_bits = optInt(lua_gettop(L), "bits", 24, 8, 32, "message.id.bits");
      lua_pop(L, 1);
    }
    if (v.msg_id < 0) fail("'message.id' = {field=, bits=} is required");
    if (table(m, "class", {"field", "values"})) {
      const int k = lua_gettop(L);
      v.msg_class = optNumberField(k, "field", "message.class.field");
      if (v.msg_class < 0 || !get(k, "values") || !lua_istable(L, -1))
        fail("'message.class' needs field= and values={[number]=class}");
      lua_pushnil(L);
      while (lua_next(L, -2)) {
        if (lua_type(L, -2) != LUA_TNUMBER || lua_type(L, -1) != LUA_TSTRING)
          fail("'message.class.values' maps numbers to class names");
        v.classes[static_cast<uint64_t>(lua_tonumber(L, -2))] = messageClass(lua_tostring(L, -1));
        lua_pop(L, 1);
      }
      lua_pop(L, 2);
    }
    if (table(m, "order", {"index", "channel", "bits"})) {
      v.order_index = optNumberField(lua_gettop(L), "index", "message.order.index");
      v.order_channel = optNumberField(lua_gettop(L), "channel", "message.order.channel");
      v.order_bits = optInt(lua_gettop(L), "bits", 24, 8, 32, "message.order.bits");
      if (v.order_index < 0) fail("'message.order.index' is required");
      lua_pop(L, 1);
    }
    if (table(m, "split", {"id", "index", "count"})) {
      v.split_id = optNumberField(lua_gettop(L), "id", "message.split.id");
      v.split_index = optNumberField(lua_gettop(L), "index", "message.split.index");
      v.split_count = optNumberField(lua_gettop(L), "count", "message.split.count");
      if (v.split_id < 0 || v.split_index < 0 || v.split_count < 0)
        fail("'message.split' needs id=, index= and count=");
      lua_pop(L, 1);
    }
  }

  // `length = field` (bytes) or `length = {field=, unit="bytes"|"bits"}`.
  void parseLength(int m, TwoLevelContract& v) const {
    bool isTable = false;
    if (get(m, "length")) {
      isTable = lua_istable(L, -1);
      lua_pop(L, 1);
    }
    if (!isTable) {
      v.msg_length = optNumberField(m, "length", "message.length");
      return;
    }
    table(m, "length", {"field", "unit"});
    const int t = lua_gettop(L);
    v.msg_length = optNumberField(t, "field", "message.length.field");
    if (v.msg_length < 0) fail("'message.length' = {field=, unit=} needs field=");
    std::string unit = "bytes";
    if (get(t, "unit")) {
      unit = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
      lua_pop(L, 1);
    }
    if (unit != "bytes" && unit != "bits")
      fail("unknown message.length.unit '" + unit + "' (valid: bytes, bits)");
    v.msg_length_in_bits = unit == "bits";
    lua_pop(L, 1);
  }

  MessageClass messageClass(const std::string& name) const {
    for (int i = 0; i <= static_cast<int>(MessageClass::ReliableSequenced); ++i)
      if (name == toString(static_cast<MessageClass>(i))) return static_cast<MessageClass>(i);
    fail("unknown message class '" + name +
         "' (valid: unreliable, unreliable sequenced, reliable, reliable ordered, reliable sequenced)");
  }

  // A field is read once per datagram (the packet number, the NAK flag) or
  // once per record or message; one field in two of those roles would be
  // read as a list and as a single value at once.
  void checkSingles(const TwoLevelContract& v) const {
    const std::pair<int, const char*> once[] = {{v.number, "packet.number"}, {v.nak, "acks.nak"}};
    const std::pair<int, const char*> repeated[] = {{v.ack_first, "acks.first"},
                                                    {v.ack_last, "acks.last"},
                                                    {v.msg_segment, "message.segment"},
                                                    {v.msg_id, "message.id"},
                                                    {v.msg_class, "message.class"},
                                                    {v.order_index, "message.order.index"},
                                                    {v.order_channel, "message.order.channel"},
                                                    {v.split_id, "message.split.id"},
                                                    {v.split_index, "message.split.index"},
                                                    {v.split_count, "message.split.count"},
                                                    {v.msg_length, "message.length"}};
    for (const auto& [f, name] : once)
      for (const auto& [g, other] : repeated)
        if (f >= 0 && f == g)
          fail(std::string("'") + name + "' is read once per datagram and '" + other +
               "' once per record or message: they cannot name the same field");
  }

  Contract parse(int t) const {
    Contract c = header(t);
    if (c.version == 2) return parseTwoLevel(t);
    checkKeys(t,
              {"version", "proto", "segment", "conn_id", "kind", "seq", "reliable", "unsequenced", "ack",
               "nak", "ts", "channel", "length", "window", "unreliable_seq", "retx"},
              "the contract");
    c.segment = optField(t, "segment", "segment");
    c.conn_id = optField(t, "conn_id", "conn_id");
    c.reliable = optField(t, "reliable", "reliable");
    c.unsequenced = optField(t, "unsequenced", "unsequenced");
    c.channel = optField(t, "channel", "channel");
    c.length = optField(t, "length", "length");
    c.window = optField(t, "window", "window");
    if (get(t, "seq")) {
      const int q = lua_gettop(L);
      if (lua_istable(L, q)) {
        checkKeys(q, {"field", "bits", "space", "reliable_only"}, "seq");
        c.seq = optNumberField(q, "field", "seq.field");
        c.seq_bits = optInt(q, "bits", 32, 8, 32, "seq.bits");
        c.seq_space = optField(q, "space", "seq.space");
        if (get(q, "reliable_only")) {
          if (!lua_isboolean(L, -1)) fail("'seq.reliable_only' must be a boolean");
          c.seq_reliable_only = lua_toboolean(L, -1) != 0;
          lua_pop(L, 1);
        }
        if (c.seq < 0) fail("'seq.field' is required");
      } else {
        c.seq = requireNumber(field(q, "seq"), "seq");
      }
      if (c.seq_bits < 1 || c.seq_bits > 64) fail("'seq.bits' must be 1..64");
      lua_pop(L, 1);
    }
    if (get(t, "unreliable_seq")) {
      // One numbering {field=, bits=, group=, space=} or a list of them.
      const int u = lua_gettop(L);
      if (!lua_istable(L, u)) fail("'unreliable_seq' must be a table");
      const auto one = [&](int q, const std::string& path) {
        checkKeys(q, {"field", "bits", "group", "space"}, path);
        Contract::Numbering n;
        n.field = optField(q, "field", path + ".field");
        if (n.field < 0) fail("'" + path + ".field' is required");
        n.bits = optInt(q, "bits", 32, 8, 32, path + ".bits");
        if (n.bits < 1 || n.bits > 32) fail("'" + path + ".bits' must be 1..32");
        n.group = optField(q, "group", path + ".group");
        n.space = optField(q, "space", path + ".space");
        c.unreliable_seq.push_back(n);
      };
      lua_rawgeti(L, u, 1);
      const bool list = !lua_isnil(L, -1);
      lua_pop(L, 1);
      if (!list) {
        one(u, "unreliable_seq");
      } else {
        for (int i = 1;; ++i) {
          lua_rawgeti(L, u, i);
          if (lua_isnil(L, -1)) {
            lua_pop(L, 1);
            break;
          }
          if (!lua_istable(L, -1)) fail("'unreliable_seq' entries must be tables");
          one(lua_gettop(L), "unreliable_seq[" + std::to_string(i) + "]");
          lua_pop(L, 1);
        }
        if (c.unreliable_seq.size() > 2) fail("at most 2 'unreliable_seq' numberings");
      }
      lua_pop(L, 1);
    }
    if (get(t, "retx")) {
      const int a = lua_gettop(L);
      if (!lua_istable(L, a)) fail("'retx' must be a table");
      checkKeys(a, {"rto_min_ms", "fast_repeat", "fast_deferred", "fast_acks"}, "retx");
      c.rto_min_ms = optNumber(a, "rto_min_ms", -1, "retx.rto_min_ms");
      c.fast_acks = optInt(a, "fast_acks", 0, 0, 255, "retx.fast_acks");
      const auto flag = [&](const char* key, bool& out) {
        if (!get(a, key)) return;
        if (!lua_isboolean(L, -1)) fail(std::string("'retx.") + key + "' must be a boolean");
        out = lua_toboolean(L, -1) != 0;
        lua_pop(L, 1);
      };
      flag("fast_repeat", c.fast_repeat);
      flag("fast_deferred", c.fast_deferred);
      lua_pop(L, 1);
    }
    if (get(t, "kind")) {
      const int k = lua_gettop(L);
      if (!lua_istable(L, k)) fail("'kind' must be a table {field=, roles=, absent=}");
      checkKeys(k, {"field", "roles", "absent"}, "kind");
      c.kind = optField(k, "field", "kind.field");
      if (c.kind < 0) fail("'kind.field' is required");
      if (get(k, "roles")) {
        const int r = lua_gettop(L);
        if (!lua_istable(L, r)) fail("'kind.roles' must be a table");
        lua_pushnil(L);
        while (lua_next(L, r)) {
          if (lua_type(L, -2) != LUA_TNUMBER || lua_type(L, -1) != LUA_TSTRING)
            fail("'kind.roles' maps numbers to role names");
          c.kinds[static_cast<uint64_t>(lua_tonumber(L, -2))] = role(lua_tostring(L, -1));
          lua_pop(L, 1);
        }
        lua_pop(L, 1);
      }
      if (get(k, "absent")) {
        if (lua_type(L, -1) != LUA_TSTRING) fail("'kind.absent' must be a role name");
        c.kind_absent = role(lua_tostring(L, -1));
        lua_pop(L, 1);
      }
      lua_pop(L, 1);
    }
    if (get(t, "ack")) {
      const int a = lua_gettop(L);
      if (!lua_istable(L, a)) fail("'ack' must be a table");
      checkKeys(a, {"style", "field", "bitmap", "valid", "una"}, "ack");
      std::string style = "highest+bitmap";
      if (get(a, "style")) {
        style = lua_tostring(L, -1) ? lua_tostring(L, -1) : "";
        lua_pop(L, 1);
      }
      if (style == "highest+bitmap")
        c.ack_style = AckStyle::HighestBitmap;
      else if (style == "cumulative")
        c.ack_style = AckStyle::Cumulative;
      else if (style == "per-segment")
        c.ack_style = AckStyle::PerSegment;
      else
        fail("unknown ack.style '" + style + "' (valid: highest+bitmap, cumulative, per-segment)");
      c.ack = optField(a, "field", "ack.field");
      c.ack_bitmap = optField(a, "bitmap", "ack.bitmap");
      c.ack_valid = optField(a, "valid", "ack.valid");
      c.una = optField(a, "una", "ack.una");
      if (c.ack < 0) fail("'ack.field' is required");
      lua_pop(L, 1);
    }
    if (get(t, "nak")) {
      const int a = lua_gettop(L);
      if (!lua_istable(L, a)) fail("'nak' must be a table {first=, last=}");
      checkKeys(a, {"first", "last"}, "nak");
      c.nak_first = optNumberField(a, "first", "nak.first");
      c.nak_last = optNumberField(a, "last", "nak.last");
      if (c.nak_first < 0) fail("'nak.first' is required");
      lua_pop(L, 1);
    }
    if (get(t, "ts")) {
      const int a = lua_gettop(L);
      if (!lua_istable(L, a)) fail("'ts' must be a table");
      checkKeys(a, {"field", "echo", "echo_valid", "unit_ms", "bits"}, "ts");
      c.ts = optField(a, "field", "ts.field");
      c.ts_echo = optField(a, "echo", "ts.echo");
      c.ts_echo_valid = optField(a, "echo_valid", "ts.echo_valid");
      c.ts_unit_ms = optNumber(a, "unit_ms", 1.0, "ts.unit_ms");
      if (!(c.ts_unit_ms > 0 && c.ts_unit_ms <= 1e6)) fail("'ts.unit_ms' must be above 0 and at most 1e6");
      c.ts_bits = optInt(a, "bits", 32, 8, 32, "ts.bits");
      lua_pop(L, 1);
    }
    return c;
  }
};

}  // namespace

void loadContract(State* s, const std::string& source) {
  const size_t open = source.find(kOpen);
  if (open == std::string::npos) return;
  const size_t body = open + sizeof(kOpen) - 1;
  const size_t close = source.find(kClose, body);
  Parser p{s, s->L, s->script};
  if (close == std::string::npos) p.fail("block is not closed with ]==]");
  // Pad with newlines so error lines match the file's.
  const std::string chunk(
      static_cast<size_t>(std::count(source.begin(), source.begin() + static_cast<long>(body), '\n')), '\n');
  const std::string text = chunk + source.substr(body, close - body);
  lua_State* L = s->L;
  const int top = lua_gettop(L);
  const std::string name = "@" + s->script;
  if (luaL_loadbuffer(L, text.data(), text.size(), name.c_str()) != LUA_OK) {
    std::string msg = lua_tostring(L, -1);
    lua_settop(L, top);
    throw DissectorError(msg + " (in the rudpscope.contract block)");
  }
  lua_newtable(L);  // empty environment: no globals at all
  setFunctionEnv(L);
  s->instructions = 0;
  if (lua_pcall(L, 0, 1, 0) != LUA_OK) {
    std::string msg = lua_tostring(L, -1) ? lua_tostring(L, -1) : "error";
    lua_settop(L, top);
    throw DissectorError(msg + " (in the rudpscope.contract block)");
  }
  if (!lua_istable(L, -1)) {
    lua_settop(L, top);
    p.fail("the block must return a table");
  }
  Contract c;
  try {
    c = p.parse(lua_gettop(L));
  } catch (...) {
    lua_settop(L, top);
    throw;
  }
  lua_settop(L, top);
  ProtoInfo& info = s->protos[c.proto_index];
  info.has_contract = true;
  info.contract = c;
}

}  // namespace rudp::lua
