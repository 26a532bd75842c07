// LuaHost: loads Wireshark Lua dissectors and runs them on UDP payloads.
#include "lua/host.h"

#include <cstdlib>
#include <cstring>

#include "core/error.h"
#include "core/privileges.h"
#include "lua/lua_libraries.h"
#include "lua/state.h"
#include "lua/trusted_file.h"
#ifdef RUDPSCOPE_LUAJIT
extern "C" {
#include <luajit.h>
}
#endif

namespace rudp {

using namespace lua;

namespace lua {
void loadContract(State* s, const std::string& source);  // contract.cpp
}

namespace {

uint64_t kStateKey;  // its address keys the State in the registry

State* stateOf(lua_State* L) {
  lua_pushlightuserdata(L, &kStateKey);
  lua_rawget(L, LUA_REGISTRYINDEX);
  auto* s = static_cast<State*>(lua_touserdata(L, -1));
  lua_pop(L, 1);
  return s;
}

// Runs every 1000 VM instructions: bounds a dissector's work and memory.
void countHook(lua_State* L, lua_Debug*) {
  State* s = stateOf(L);
  s->instructions += 1000;
  if (s->instructions > s->instruction_limit) {
    s->instructions = 0;  // let the error handler run
    lua_pushfstring(L, "%s: dissector exceeded the instruction limit", s->script.c_str());
    lua_error(L);
  }
  if (static_cast<size_t>(lua_gc(L, LUA_GCCOUNT, 0)) * 1024 > s->memory_limit) {
    lua_gc(L, LUA_GCCOLLECT, 0);
    if (static_cast<size_t>(lua_gc(L, LUA_GCCOUNT, 0)) * 1024 > s->memory_limit) {
      lua_pushfstring(L, "%s: dissector exceeded the memory limit", s->script.c_str());
      lua_error(L);
    }
  }
}

// A hard cap around the Lua implementation's own allocator (LuaJIT's is
// much faster than malloc for Lua's many small strings and tables).
void* limitedAlloc(void* ud, void* ptr, size_t osize, size_t nsize) {
  auto* impl = static_cast<LuaHost::Impl*>(ud);
  const int64_t old = ptr ? static_cast<int64_t>(osize) : 0;
  const int64_t grow = static_cast<int64_t>(nsize) - old;
  if (nsize != 0 && grow > 0 &&
      impl->allocated + grow > static_cast<int64_t>(impl->s.memory_limit + (16u << 20)))
    return nullptr;
  void* p = impl->base_alloc(impl->base_ud, ptr, osize, nsize);
  if (p || nsize == 0) impl->allocated += grow;
  return p;
}

// Message handler: "file:line: msg", no traceback.
int messageHandler(lua_State* L) {
  if (lua_type(L, 1) == LUA_TSTRING) return 1;
  if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) return 1;
  lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
  return 1;
}

// Lower-case Wireshark globals the host does not provide.
const char* const kMissingApi[] = {"register_postdissector",
                                   "register_menu",
                                   "register_stat_cmd_arg",
                                   "register_filehandler",
                                   "deregister_filehandler",
                                   "retap_packets",
                                   "all_field_infos",
                                   "format_date",
                                   "format_time",
                                   "get_filter",
                                   "set_filter",
                                   "apply_filter",
                                   "reload",
                                   "copy_to_clipboard",
                                   "open_capture_file",
                                   "browser_open_url",
                                   "browser_open_data_file",
                                   "datafile_path",
                                   "persconffile_path",
                                   "running_superuser",
                                   "report_failure",
                                   "get_color_filter_slot",
                                   "set_color_filter_slot",
                                   "register_packet_menu",
                                   "reload_packets",
                                   "redissect_packets",
                                   "new_dialog"};

// __index of _G: Wireshark API names (CamelCase classes or the list above)
// fail loudly; any other missing global is nil as usual.
int globalIndex(lua_State* L) {
  if (lua_type(L, 2) != LUA_TSTRING) return 0;
  const char* k = lua_tostring(L, 2);
  bool api = k[0] >= 'A' && k[0] <= 'Z';
  if (api) {
    api = false;
    for (const char* c = k; *c; ++c) api = api || (*c >= 'a' && *c <= 'z');
  }
  for (const char* m : kMissingApi) api = api || !strcmp(k, m);
  if (api) notImplemented(L, k);
  return 0;
}

int getVersion(lua_State* L) {
  lua_pushstring(L, "4.0.17");
  return 1;
}
int noop(lua_State*) { return 0; }
int falseFn(lua_State* L) {
  lua_pushboolean(L, 0);
  return 1;
}
// The arguments as one line, in one write so that lanes' lines do not
// interleave. A host that repeats another's load (a further dissector lane)
// keeps its load-time lines to itself: Wireshark loads each file once, so a
// file's top-level prints appear once.
int writeLine(lua_State* L, char separator, FILE* to) {
  const State* s = S(L);
  if (s->repeat_load && !s->in_packet) return 0;
  std::string line;
  const int n = lua_gettop(L);
  for (int i = 1; i <= n; ++i) {
    size_t len = 0;
    const char* str = toDisplayString(L, i, &len);
    line.append(str, len);
    lua_pop(L, 1);
    line += i < n ? separator : '\n';
  }
  if (n == 0) line = "\n";
  fwrite(line.data(), 1, line.size(), to);
  return 0;
}
// critical/warn/message/info/debug: Wireshark's log functions.
int logFn(lua_State* L) { return writeLine(L, ' ', stderr); }
int printFn(lua_State* L) { return writeLine(L, '\t', stdout); }
int typeOf(lua_State* L) {
  if (lua_getmetatable(L, 1)) {
    lua_getfield(L, -1, "__name");
    if (lua_isstring(L, -1)) return 1;
  }
  lua_pushstring(L, luaL_typename(L, 1));
  return 1;
}

void openGlobals(lua_State* L, State* s) {
  const luaL_Reg fns[] = {{"get_version", getVersion}, {"set_plugin_info", noop}, {"gui_enabled", falseFn},
                          {"typeof", typeOf},          {"critical", logFn},       {"warn", logFn},
                          {"message", logFn},          {"info", logFn},           {"debug_log", logFn},
                          {"print", printFn},          {nullptr, nullptr}};
  lua_pushglobaltable(L);
  luaL_setfuncs(L, fns, pushUpvalues(L, s));
  lua_pop(L, 1);
  const std::pair<const char*, lua_Number> consts[] = {{"ENC_BIG_ENDIAN", 0},
                                                       {"ENC_LITTLE_ENDIAN", 2147483648.0},
                                                       {"ENC_NA", 0},
                                                       {"ENC_ASCII", 0},
                                                       {"ENC_UTF_8", 2},
                                                       {"ENC_STR_HEX", 0x02000000},
                                                       {"DESEGMENT_ONE_MORE_SEGMENT", 0x0fffffff}};
  for (const auto& [n, v] : consts) {
    lua_pushnumber(L, v);
    lua_setglobal(L, n);
  }
#if LUA_VERSION_NUM < 502
  // Dissectors written for Lua 5.2+ use table.unpack.
  lua_getglobal(L, "table");
  lua_getglobal(L, "unpack");
  lua_setfield(L, -2, "unpack");
  lua_pop(L, 1);
#endif
}

std::string baseName(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

LuaHost::LuaHost() : d(std::make_unique<Impl>()) {
  State& s = d->s;
  s.host = this;
  lua_State* L = luaL_newstate();
  if (!L) throw DissectorError("cannot create a Lua state");
  d->base_alloc = lua_getallocf(L, &d->base_ud);
  lua_setallocf(L, limitedAlloc, d.get());
  s.L = L;
  luaL_openlibs(L);
  s.privileged = runsPrivileged();
  restrictLibraries(L, s.privileged);
#ifdef RUDPSCOPE_LUAJIT
  // Interpreter only: traces abort at every binding (lua_CFunctions cannot
  // be compiled), so the JIT only costs time (measured ~6%), and compiled
  // loops would not run the instruction-count hook.
  luaJIT_setmode(L, 0, LUAJIT_MODE_ENGINE | LUAJIT_MODE_OFF);
#endif
  lua_pushlightuserdata(L, &kStateKey);
  lua_pushlightuserdata(L, &s);
  lua_rawset(L, LUA_REGISTRYINDEX);
  lua_pushcfunction(L, messageHandler);
  d->s.msgh_ref = luaL_ref(L, LUA_REGISTRYINDEX);

  lua_newtable(L);
  s.range_pool_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_newtable(L);
  s.tree_pool_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  openBit(L, &s);
  openProto(L, &s);
  openProtoField(L, &s);
  openTvb(L, &s);
  openTvbRange(L, &s);
  openTreeItem(L, &s);
  openPinfo(L, &s);
  openDissectorTable(L, &s);
  openPref(L, &s);
  openExpert(L, &s);
  openByteArray(L, &s);
  openUInt64(L, &s);
  openField(L, &s);
  openGlobals(L, &s);

  // The objects every packet reuses: its Tvb and the root TreeItem.
  s.tvb = newUd<TvbUd>(L, &s, T::Tvb);
  s.tvb->data = nullptr;
  s.tvb->len = s.tvb->reported = s.tvb->gen = 0;
  s.tvb_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  s.root = newUd<TreeUd>(L, &s, T::TreeItem);
  s.root->node = 0;
  s.root->gen = 0;
  s.root_ref = luaL_ref(L, LUA_REGISTRYINDEX);

  lua_pushglobaltable(L);
  lua_newtable(L);
  lua_pushlightuserdata(L, &s);
  lua_pushcclosure(L, globalIndex, 1);
  lua_setfield(L, -2, "__index");
  lua_setmetatable(L, -2);
  lua_pop(L, 1);

  lua_sethook(L, countHook, LUA_MASKCOUNT, 1000);
}

LuaHost::~LuaHost() {
  if (!d->s.L) return;
  // LuaJIT frees its memory arena only when it sees its own allocator.
  lua_setallocf(d->s.L, d->base_alloc, d->base_ud);
  lua_close(d->s.L);
}

namespace {

// Runs the function below its nargs arguments with the message handler.
// Returns an empty string or the error text.
std::string protectedCall(lua_State* L, int msgh_ref, int nargs, int nresults, State& s) {
  const int base = lua_gettop(L) - nargs;
  lua_rawgeti(L, LUA_REGISTRYINDEX, msgh_ref);
  lua_insert(L, base);
  s.instructions = 0;
  const int rc = lua_pcall(L, nargs, nresults, base);
  std::string err;
  if (rc != LUA_OK) {
    const char* m = lua_tostring(L, -1);
    err = m ? m : "unknown error";
    lua_pop(L, 1);
  }
  lua_remove(L, base);
  return err;
}

std::string withFile(const std::string& msg, const std::string& file) {
  if (msg.rfind(file, 0) == 0) return msg;
  return file + ": " + msg;
}

}  // namespace

void LuaHost::loadScript(const std::string& path) {
  State& s = d->s;
  lua_State* L = s.L;
  const std::string name = baseName(path);
  const std::string source = readLuaFile(path, name, s.privileged);
  s.script = name;
  const std::string chunk = "@" + name;
  if (luaL_loadbuffer(L, source.data(), source.size(), chunk.c_str()) != LUA_OK) {
    std::string msg = lua_tostring(L, -1);
    lua_pop(L, 1);
    throw DissectorError(withFile(msg, name));
  }
  // Wireshark up to 4.2 runs each script in its own environment over _G.
  lua_newtable(L);
  lua_newtable(L);
  lua_pushglobaltable(L);
  lua_setfield(L, -2, "__index");
  lua_setmetatable(L, -2);
  setFunctionEnv(L);
  std::string err = protectedCall(L, d->s.msgh_ref, 0, 0, s);
  if (!err.empty()) throw DissectorError(withFile(err, name));
  commitFields(&s);
  loadContract(&s, source);
}

void LuaHost::setRepeatLoad(bool repeat) { d->s.repeat_load = repeat; }

bool LuaHost::tcpRelativeSequenceNumbers() const { return d->s.tcp_relative_seq; }

void LuaHost::setPreference(const std::string& name, const std::string& value) {
  d->s.pref_overrides[name] = value;
}

namespace {

// A boolean preference's value as Wireshark reads it (TRUE, false, 1, 0).
bool boolPreference(const std::string& full, const std::string& value) {
  if (!strcasecmp(value.c_str(), "true") || value == "1") return true;
  if (!strcasecmp(value.c_str(), "false") || value == "0") return false;
  throw DissectorError("invalid value '" + value + "' for preference " + full);
}

void applyPreference(State& s, PrefRt& p, const std::string& full, const std::string& value) {
  auto bad = [&] { throw DissectorError("invalid value '" + value + "' for preference " + full); };
  switch (p.type) {
    case PrefType::UInt: {
      char* end;
      const unsigned long long v = strtoull(value.c_str(), &end, 0);
      if (value.empty() || *end || v > 0xFFFFFFFFull) bad();
      p.num = static_cast<double>(v);
      break;
    }
    case PrefType::Bool: p.num = boolPreference(full, value) ? 1 : 0; break;
    case PrefType::Enum: {
      bool found = false;
      for (const auto& [n, v] : p.enum_values)
        if (!strcasecmp(n.c_str(), value.c_str())) {
          p.num = v;
          found = true;
          break;
        }
      if (!found) bad();
      break;
    }
    case PrefType::String:
    case PrefType::Range: p.str = value; break;
    case PrefType::Static: bad();
  }
  (void)s;
}

}  // namespace

void LuaHost::finishLoading() {
  State& s = d->s;
  lua_State* L = s.L;
  commitFields(&s);
  for (const auto& [name, value] : s.pref_overrides) {
    if (name == "tcp.relative_sequence_numbers") {
      s.tcp_relative_seq = boolPreference(name, value);
      continue;
    }
    bool found = false;
    for (auto& p : s.prefs) {
      if (p.proto < 0 || s.protos[p.proto].name + "." + p.name != name) continue;
      applyPreference(s, p, name, value);
      found = true;
    }
    if (!found) throw DissectorError("unknown preference '" + name + "'");
  }
  auto run = [&](int ref, size_t proto, const char* what) {
    if (ref == LUA_NOREF) return;
    s.script = s.protos[proto].script;
    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
    std::string err = protectedCall(L, d->s.msgh_ref, 0, 0, s);
    if (!err.empty()) throw DissectorError(withFile(err, s.script) + " (in " + what + ")");
  };
  for (size_t p = 0; p < s.protos.size(); ++p) run(s.proto_rt[p].prefs_changed_ref, p, "prefs_changed");
  for (size_t p = 0; p < s.protos.size(); ++p) run(s.proto_rt[p].init_ref, p, "init");
  d->finished = true;
}

const std::vector<FieldInfo>& LuaHost::fields() const { return d->s.fields; }

int LuaHost::fieldByAbbrev(std::string_view abbrev) const {
  auto it = d->s.field_by_abbrev.find(std::string(abbrev));
  return it == d->s.field_by_abbrev.end() ? -1 : it->second;
}

const std::vector<std::pair<int64_t, std::string>>& LuaHost::valueNames(int field) const {
  static const std::vector<std::pair<int64_t, std::string>> kNone;
  const State& s = d->s;
  if (field < 0 || static_cast<size_t>(field) >= s.field_pf.size() || s.field_pf[field] < 0) return kNone;
  return s.pfields[s.field_pf[field]].value_names;
}

const std::vector<ProtoInfo>& LuaHost::protocols() const { return d->s.protos; }

std::string LuaHost::formatValue(const FieldValue& v, const DissectResult& r) const {
  return formatField(d->s, v, r);
}

void LuaHost::setFirstTimestamp(int64_t ts_ns) { d->s.first_ts_ns = ts_ns; }

void LuaHost::setLimits(uint64_t instructions, size_t memory_bytes) {
  d->s.instruction_limit = instructions;
  d->s.memory_limit = memory_bytes;
}

}  // namespace rudp
