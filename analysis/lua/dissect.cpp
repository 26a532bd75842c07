// The per-packet path: offering a UDP payload to the Lua dissectors the
// way Wireshark's UDP dissector does, and collecting the field values.
#include <cstring>

#include "lua/host.h"
#include "lua/state.h"

namespace rudp {

using namespace lua;

namespace lua {

namespace {

// Records a dissector's failure on the packet (the first one wins).
void noteError(State* s, const char* msg) {
  DissectResult& out = *s->out;
  if (s->exception) {
    out.malformed = true;  // a Wireshark exception: "Malformed Packet"
  } else {
    out.lua_error = true;
    if (strstr(msg, "Range is out of bounds")) out.malformed = true;
  }
  // LuaJIT loses the caller's line when a binding is tail-called; keep the file at least.
  if (out.error.empty())
    out.error =
        strncmp(msg, s->script.c_str(), s->script.size()) == 0 ? std::string(msg) : s->script + ": " + msg;
}

// Calls the function below the three arguments; returns false on error.
bool pcallDissector(lua_State* L, State* s, int nresults) {
  const int base = lua_gettop(L) - 3;
  lua_rawgeti(L, LUA_REGISTRYINDEX, s->msgh_ref);
  lua_insert(L, base);
  const int rc = lua_pcall(L, 3, nresults, base);
  lua_remove(L, base);
  if (rc == LUA_OK) return true;
  const char* m = lua_tostring(L, -1);
  noteError(s, m ? m : "unknown error");
  lua_pop(L, 1);
  return false;
}

}  // namespace

bool pcallDissectorPublic(lua_State* L, State* s) { return pcallDissector(L, s, 1); }

// Wireshark's dissect_lua(): returns the bytes consumed (0 = not mine). An
// error counts as having consumed everything, as in Wireshark.
int callHandle(lua_State* L, State* s, int handle, int tvb_idx, int pinfo_idx, int tree_idx) {
  if (handle < 0 || static_cast<size_t>(handle) >= s->handles.size()) return 0;
  const Handle& h = s->handles[handle];
  TvbUd* tvb = testUd<TvbUd>(L, tvb_idx, T::Tvb);
  if (!tvb) typeError(L, tvb_idx, "Tvb");
  const int len = static_cast<int>(tvb->len);
  if (s->out) s->out->layers.push_back(h.proto);
  if (h.proto < 0) return len;  // "data" takes anything
  const int ref = s->proto_rt[h.proto].dissector_ref;
  if (ref == LUA_NOREF) {
    std::string msg = "Lua Error: did not find the " + h.name + " dissector in the dissectors table";
    noteError(s, msg.c_str());
    return len;
  }
  tvb_idx = lua_absindex(L, tvb_idx);
  pinfo_idx = lua_absindex(L, pinfo_idx);
  tree_idx = lua_absindex(L, tree_idx);
  std::string saved;
  if (s->script != s->protos[h.proto].script) {  // nested call into another script's dissector
    saved = s->script;
    s->script = s->protos[h.proto].script;
  }
  lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
  lua_pushvalue(L, tvb_idx);
  lua_pushvalue(L, pinfo_idx);
  lua_pushvalue(L, tree_idx);
  int consumed = len;
  if (pcallDissector(L, s, 1)) {
    if (lua_type(L, -1) == LUA_TNUMBER) consumed = static_cast<int>(toInt(L, -1));
    lua_pop(L, 1);
  }
  if (!saved.empty()) s->script = saved;
  if (consumed == 0 && !s->exception && s->out) s->out->layers.pop_back();  // a dissector that declined
  return consumed;
}

}  // namespace lua

namespace {

// Puts out.values in tree (depth-first) order when items were added to a
// parent other than the newest branch.
void reorder(State& s) {
  const size_t n = s.nodes.size();
  std::vector<int> first(n, -1), last(n, -1), next(n, -1);
  for (size_t i = 1; i < n; ++i) {
    const int p = s.nodes[i].parent;
    if (last[p] < 0)
      first[p] = static_cast<int>(i);
    else
      next[last[p]] = static_cast<int>(i);
    last[p] = static_cast<int>(i);
  }
  std::vector<FieldValue> sorted;
  sorted.reserve(s.out->values.size());
  std::vector<int> stack{0};
  while (!stack.empty()) {
    const int v = stack.back();
    stack.pop_back();
    if (s.nodes[v].value >= 0) sorted.push_back(s.out->values[s.nodes[v].value]);
    std::vector<int> kids;
    for (int c = first[v]; c >= 0; c = next[c]) kids.push_back(c);
    for (auto it = kids.rbegin(); it != kids.rend(); ++it) stack.push_back(*it);
  }
  s.out->values.swap(sorted);
}

}  // namespace

void LuaHost::dissect(const DecodedPacket& pkt, bool wantColumns, DissectResult& out, bool wantTree) {
  if (pkt.l4 == L4::UDP) return dissectUdp(pkt, wantColumns, out, wantTree);
  DecodedPacket quoted;
  if (quotedUdpDatagram(pkt, quoted)) return dissectUdp(quoted, wantColumns, out, wantTree);
  out.clear();
}

void LuaHost::dissectUdp(const DecodedPacket& pkt, bool wantColumns, DissectResult& out, bool wantTree) {
  State& s = d->s;
  lua_State* L = s.L;
  out.clear();
  s.out = &out;
  s.pkt = &pkt;
  s.want_columns = wantColumns;
  s.want_tree = wantTree;
  s.labels.clear();
  ++s.gen;
  s.in_packet = true;
  s.exception = false;
  s.nodes.clear();
  s.nodes.push_back(Node{-1, -1});
  s.last_node = 0;
  s.out_of_order = false;
  s.range_used = s.tree_used = 0;
  if (!s.owned.empty()) s.owned.clear();
  s.tvb->data = pkt.payload;
  s.tvb->len = pkt.payload ? pkt.payload_len : 0;
  s.tvb->reported = std::max(pkt.payload_reported_len, s.tvb->len);
  s.tvb->gen = s.gen;
  s.root->gen = s.gen;
  if (s.first_ts_ns == INT64_MIN) s.first_ts_ns = pkt.ts_ns;
  if (wantColumns) {
    s.col_protocol = "UDP";
    s.col_info = std::to_string(pkt.sport) + " \xE2\x86\x92 " + std::to_string(pkt.dport) +
                 " Len=" + std::to_string(s.tvb->reported) +
                 (udpChecksumIllegal(pkt) ? " [ILLEGAL CHECKSUM (0)]" : "");
    s.info_fence = s.protocol_fence = 0;
  }

  const int top = lua_gettop(L);
  lua_rawgeti(L, LUA_REGISTRYINDEX, s.tvb_ref);
  lua_rawgeti(L, LUA_REGISTRYINDEX, s.pinfo_ref);
  lua_getfield(L, -1, "pinfo");
  lua_remove(L, -2);
  lua_rawgeti(L, LUA_REGISTRYINDEX, s.root_ref);
  const int tvb_i = top + 1, pinfo_i = top + 2, tree_i = top + 3;

  // The port table, lower port first, then the heuristics; none for an empty
  // datagram (Wireshark's UDP layer ends before it calls any dissector).
  bool claimed = false;
  const bool empty = s.tvb->reported == 0;
  uint16_t ports[2] = {std::min(pkt.sport, pkt.dport), std::max(pkt.sport, pkt.dport)};
  for (const auto& t : s.tables) {
    if (empty || t.name != "udp.port") continue;
    for (int i = 0; i < 2 && !claimed; ++i) {
      if (ports[i] == 0 || (i == 1 && ports[1] == ports[0])) continue;
      auto it = t.by_uint.find(ports[i]);
      if (it == t.by_uint.end()) continue;
      s.instructions = 0;
      if (callHandle(L, &s, it->second, tvb_i, pinfo_i, tree_i) != 0 || s.exception) {
        out.proto = s.handles[it->second].proto;
        claimed = true;
      }
    }
  }
  auto heur = s.heuristics.find("udp");
  if (!claimed && !empty && heur != s.heuristics.end()) {
    for (const Heuristic& h : heur->second) {
      s.instructions = 0;
      const size_t layersBefore = out.layers.size();
      out.layers.push_back(h.proto);
      s.script = s.protos[h.proto].script;
      lua_rawgeti(L, LUA_REGISTRYINDEX, h.fn_ref);
      lua_pushvalue(L, tvb_i);
      lua_pushvalue(L, pinfo_i);
      lua_pushvalue(L, tree_i);
      if (pcallDissectorPublic(L, &s)) {
        const int t = lua_type(L, -1);
        const bool yes =
            (t == LUA_TBOOLEAN && lua_toboolean(L, -1)) || (t == LUA_TNUMBER && lua_tonumber(L, -1) != 0);
        lua_pop(L, 1);
        if (yes) {
          out.proto = h.proto;
          break;
        }
      } else if (s.exception) {
        out.proto = h.proto;
        break;
      }
      out.layers.resize(layersBefore);
    }
  }
  lua_settop(L, top);
  s.in_packet = false;
  if (wantTree) lua::buildTree(s);  // before reorder: it reads values by the nodes' indices
  if (s.out_of_order) reorder(s);
  if (wantColumns) {
    out.protocol_col = s.col_protocol;
    out.info_col = s.col_info;
  }
  s.pkt = nullptr;
}

}  // namespace rudp
