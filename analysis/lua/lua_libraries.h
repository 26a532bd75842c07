// The standard libraries a dissector sees: Wireshark's. Wireshark's Lua
// (5.2 in 4.0, 5.4 in 4.4) has no `ffi` and no `jit`, so a dissector that
// runs in Wireshark never needs them, and without them a dissector cannot
// call into C. A privileged process (core/privileges.h) also reads every
// further Lua file (dofile, loadfile, require) through the trust check of
// lua/trusted_file.h and loads no C modules.
#pragma once
#include "lua/compat.h"

namespace rudp::lua {

// After luaL_openlibs.
void restrictLibraries(lua_State* L, bool privileged);

}  // namespace rudp::lua
