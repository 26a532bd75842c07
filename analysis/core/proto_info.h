// A protocol a loaded dissector registered, with its analysis contract.
// Shared by the Lua host (which fills it), the flow and analysis layers and
// the store, without pulling in the host.
#pragma once
#include <string>

#include "core/contract.h"

namespace rudp {

struct ProtoInfo {
  std::string name;  // filter name (lower case)
  std::string description;
  std::string script;  // file it came from
  bool has_contract = false;
  Contract contract;
};

}  // namespace rudp
