// Fuzz target 5: the whole pipeline. The input is a capture file; it is
// analysed by ingestCapture (read, decode, Lua, flows, SQLite) into a
// scratch database, which is then read back through StoreReader. Each input
// runs twice, serial (one lane, no store thread) and parallel (two lanes,
// store thread): both must store the same result. Both run with a cap of 4
// open connections, so closing connections early is exercised too.
#include <filesystem>

#include "core/error.h"
#include "fuzz_common.h"
#include "lua/dissector_files.h"
#include "session/ingest.h"
#include "store/store_reader.h"

using namespace rudp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The dissector set is not part of the input: if it does not load (a
  // dissector newer than the host, mid-edit), say so once instead of
  // reporting every input as a crash. $RUDPSCOPE_DISSECTORS picks a folder.
  static const bool dissectorsLoad = [] {
    try {
      LuaHost h;
      loadDissectors(h, DissectorOptions{});
    } catch (const DissectorError& e) {
      std::fprintf(stderr, "fuzz_ingest: the dissectors do not load: %s\n", e.what());
      std::exit(2);
    }
    return true;
  }();
  (void)dissectorsLoad;
  static fuzz::MemFile file;
  // /dev/shm when present: SQLite's fsyncs on a disk file would dominate.
  static const std::string db = [] {
    std::string dir = std::filesystem::is_directory("/dev/shm") ? "/dev/shm" : "/tmp";
    return dir + "/rudpscope-fuzz-ingest-" + std::to_string(::getpid()) + ".sqlite";
  }();
  // libFuzzer ends with exit(): leave no scratch databases behind.
  static const bool cleanup = [] {
    std::atexit([] {
      for (const char* s : {"", "-wal", "-shm", ".partial", ".partial-wal", ".partial-shm"})
        std::remove((db + s).c_str());
    });
    return true;
  }();
  (void)cleanup;

  const std::string& path = file.write(data, size);
  IngestResult r[2];
  CaptureInfo stored[2];
  size_t conns[2] = {0, 0};
  for (int parallel = 0; parallel < 2; ++parallel) {
    IngestOptions opt;
    opt.dissector_lanes = parallel ? 2 : 1;
    opt.threaded_store = parallel;
    opt.threaded_flows = parallel;
    opt.max_open_connections = 4;
    try {
      r[parallel] = ingestCapture(path, db, DissectorOptions{}, opt);
    } catch (const CaptureError&) {
      return 0;  // not a capture: refused cleanly
    }
    // A finished ingest must be readable and agree with what it reported.
    StoreReader reader(db);
    stored[parallel] = reader.capture();
    conns[parallel] = reader.connections().size();
    if (stored[parallel].packet_count != r[parallel].capture.packet_count)
      fuzz::fail("stored packet count differs from the reported one");
    if (conns[parallel] != r[parallel].connections)
      fuzz::fail("stored connection count differs from the reported one");
    uint64_t packets = 0;
    int64_t id = 0;
    for (const ConnectionSummary& c : reader.connections()) {
      if (c.id != ++id) fuzz::fail("stored connection ids are not 1..n");
      packets += c.dir[0].packets + c.dir[1].packets;
    }
    if (packets > stored[parallel].packet_count) fuzz::fail("connections hold more packets than the capture");
  }
  const CaptureInfo &a = stored[0], &b = stored[1];
  if (a.packet_count != b.packet_count || a.decode_errors != b.decode_errors || a.malformed != b.malformed ||
      a.lua_errors != b.lua_errors || conns[0] != conns[1])
    fuzz::fail("serial and parallel ingest disagree");
  return 0;
}
