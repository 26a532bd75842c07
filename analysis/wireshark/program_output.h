// Runs a program directly (no shell) and collects its standard output.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace rudp::wireshark {

// argv[0] is looked up on PATH. stderr is discarded (tshark warns there when
// run as root). Returns nullopt when the program cannot be started, exits
// non-zero, or runs longer than `timeoutMs` (then it is killed).
std::optional<std::string> programOutput(const std::vector<std::string>& argv, int timeoutMs = 15000);

// Whether `program` names an executable file on PATH (or is a path to one).
bool onPath(const std::string& program);

}  // namespace rudp::wireshark
