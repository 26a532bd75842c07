// Reading a Lua file for the dissector host. A process that runs with
// privileges (core/privileges.h) runs only Lua that an unprivileged user
// cannot have written: files owned by root that no one else can write, as
// the installed dissectors are. Anything else would hand the privileges to
// whoever wrote the file (a Lua dissector can call into the system).
#pragma once
#include <string>

namespace rudp::lua {

// The file's bytes. Throws DissectorError with one line naming `display`
// (how errors name the file): unreadable, not a regular file, or, when
// `privileged`, not trusted and why.
std::string readLuaFile(const std::string& path, const std::string& display, bool privileged);

}  // namespace rudp::lua
