// rudpscope-cli dissector infer: a Lua dissector written from the counters
// the analysis found in a flow no dissector claims (report/inferred_dissector.h).
#include <cstdio>
#include <fstream>

#include "cli/commands.h"
#include "core/error.h"
#include "report/inferred_dissector.h"
#include "session/reuse.h"
#include "store/db_path.h"
#include "store/store_reader.h"

namespace rudp::cli {

namespace {

// The flow to write the dissector for: of those analysed from timing alone
// with a counter in some direction, the one with the most packets.
std::optional<ConnectionRecord> inferredFlow(StoreReader& reader, size_t& undecoded) {
  std::optional<ConnectionRecord> best;
  auto packets = [](const ConnectionRecord& r) {
    return r.summary.dir[0].packets + r.summary.dir[1].packets;
  };
  reader.forEachConnectionRecord([&](const ConnectionRecord& r) {
    if (!r.has_analysis || !r.metrics.timing_only) return;
    ++undecoded;
    if (!report::hasInferredCounter(r)) return;
    if (!best || packets(r) > packets(*best)) best = r;
  });
  return best;
}

}  // namespace

int runDissectorInfer(const DissectorInferArgs& args) {
  std::string db = args.analysis.db.empty() ? defaultDatabasePath(args.analysis.capture) : args.analysis.db;
  if (!whyNotReusable(args.analysis.capture, db, args.analysis.dissectors, ingestOptions(args.analysis))
           .empty())
    db = ingestWithWarnings(args.analysis, db).db_path;
  StoreReader reader(db);
  size_t undecoded = 0;
  const std::optional<ConnectionRecord> flow = inferredFlow(reader, undecoded);
  if (!flow) {
    std::fprintf(stderr, "rudpscope-cli: %s\n",
                 undecoded == 0
                     ? "every UDP flow of the capture is decoded by a dissector: nothing to infer"
                     : "no sequence counter found in the flows no dissector claims (encrypted or compressed "
                       "payloads, or too few packets): no dissector written");
    return 1;
  }
  std::ofstream out(args.output, std::ios::trunc);
  if (out) out << report::inferredDissector(*flow, args.analysis.capture);
  if (!out.flush()) throw Error("cannot write " + args.output);
  if (!args.analysis.quiet)
    std::printf("%s: protocol %s for conn %lld (%s -> %s); load it with -X lua_script:%s\n",
                args.output.c_str(), report::inferredProtocolName(flow->summary).c_str(),
                static_cast<long long>(flow->summary.id), flow->summary.client.c_str(),
                flow->summary.server.c_str(), args.output.c_str());
  return 0;
}

}  // namespace rudp::cli
