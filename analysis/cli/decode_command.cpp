#include <cstdio>

#include "cli/commands.h"
#include "session/field_printer.h"

namespace rudp::cli {

int runDecode(const DecodeArgs& args) {
  const std::string warning =
      forEachFieldLine(args.capture, args.dissectors, args.fields, [](const std::string& line) {
        // Same stream as a dissector's print(), so both interleave as in tshark.
        std::fwrite(line.data(), 1, line.size(), stdout);
      });
  std::fflush(stdout);
  if (!warning.empty()) std::fprintf(stderr, "rudpscope-cli: warning: %s\n", warning.c_str());
  return 0;
}

}  // namespace rudp::cli
