// What the Wireshark integration tests share: rudpscope-cli and tshark run
// with HOME (and PATH, RUDPSCOPE_DISSECTORS) set for the child only, so the
// user's real Wireshark folders are never touched.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "process.h"

namespace rudp::test {

using Env = std::map<std::string, std::string>;

// Runs argv through env(1) with `vars` set.
ProcessResult runWithEnv(const Env& vars, const std::vector<std::string>& argv);
// rudpscope-cli wireshark ARGS... with `vars`.
ProcessResult wiresharkCli(const Env& vars, const std::vector<std::string>& args);

// The personal Lua plugin folder tshark 4.0 reports for HOME=home.
std::string pluginFolderOf(const TempDir& home);

// A copy of the source tree's dissectors/ in dir/name; returns its path.
std::string copyDissectors(const TempDir& dir, const std::string& name);

// An executable shell script at path with `body` after "#!/bin/sh".
void writeScript(const std::string& path, const std::string& body);

std::string fileText(const std::string& path);
void writeText(const std::string& path, const std::string& text);

// The "  NAME  STATE ..." lines of `status` output, as NAME -> STATE.
std::map<std::string, std::string> statesIn(const std::string& statusOutput);

}  // namespace rudp::test
