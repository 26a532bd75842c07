#include <cstdio>

#include "capture/capture_reader.h"
#include "cli/commands.h"
#include "decode/decoder.h"
#include "session/field_printer.h"

namespace rudp::cli {

int runDecode(const DecodeArgs& args) {
  auto reader = CaptureReader::open(args.capture);
  LuaHost host;
  loadDissectors(host, args.dissectors);
  FieldPrinter printer(host, args.fields);
  Decoder decoder(reader->linkType());

  RawPacket raw;
  DecodedPacket pkt;
  DissectResult res;
  std::string out;
  int64_t first = 0;
  bool any = false;
  while (reader->next(raw)) {
    decoder.decode(raw, pkt);
    if (!any) {
      first = raw.ts_ns;
      any = true;
      host.setFirstTimestamp(first);
    }
    res.clear();
    if (pkt.l4 == L4::UDP) host.dissectUdp(pkt, false, res);
    out.clear();
    printer.line(pkt, res, first, out);
    // Same stream as a dissector's print(), so both interleave as in tshark.
    std::fwrite(out.data(), 1, out.size(), stdout);
  }
  std::fflush(stdout);
  if (reader->truncated()) std::fprintf(stderr, "rudpscope-cli: warning: %s\n", reader->warning().c_str());
  return 0;
}

}  // namespace rudp::cli
