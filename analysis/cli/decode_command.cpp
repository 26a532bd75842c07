#include <cstdio>

#include "cli/commands.h"
#include "filter/filter_syntax.h"
#include "packets/field_printer.h"
#include "packets/frame_tree_printer.h"

namespace rudp::cli {

int runDecode(const DecodeArgs& args) {
  auto print = [](const std::string& line) {
    // Same stream as a dissector's print(), so both interleave as in tshark.
    std::fwrite(line.data(), 1, line.size(), stdout);
  };
  try {
    const auto warnings = args.details ? printFrameTrees(args.capture, args.dissectors, args.expand, print,
                                                         args.keep_damaged, args.display_filter)
                          : args.fields.empty()
                              ? printFrameSummaries(args.capture, args.dissectors, print, args.keep_damaged,
                                                    args.display_filter)
                              : forEachFieldLine(args.capture, args.dissectors, args.fields, print,
                                                 args.keep_damaged, args.display_filter);
    std::fflush(stdout);
    printWarnings(warnings);
  } catch (const FilterError& e) {
    throw Error(describeFilterError("-Y", args.display_filter, e));
  } catch (...) {
    std::fflush(stdout);  // the frames before a damaged record come first, as in tshark
    throw;
  }
  return 0;
}

}  // namespace rudp::cli
