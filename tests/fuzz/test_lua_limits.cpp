// A dissector that loops forever or allocates without bound is stopped on
// that packet (instruction-count hook, per-packet memory limit), the packet
// is reported as a Lua error, and the packets after it are dissected as
// usual: through LuaHost directly and through ingestCapture on
// resources/sample.pcap (5311 frames, every one UDP to or from port 7777).
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "core/error.h"
#include "lua/dissector_files.h"
#include "lua/host.h"
#include "session/ingest.h"
#include "store/schema.h"
#include "store/store_reader.h"

namespace fs = std::filesystem;
using namespace rudp;

namespace {

// Misbehaves on the frames listed, behaves (one field, claims the payload)
// on every other frame. Registered on UDP port 7777 like GRUDP.
const char* kScript = R"lua(
local p = Proto("misbehave", "Dissector that misbehaves on some frames")
local f_len = ProtoField.uint32("misbehave.len", "Length")
p.fields = { f_len }
local LOOP = { [100] = true, [2000] = true, [4000] = true }
local HOG_STEP = { [500] = true, [3000] = true }   -- grows a table of strings
local HOG_BIG = { [4500] = true }                  -- doubles one string
function p.dissector(tvb, pinfo, tree)
  local n = pinfo.number
  if LOOP[n] then
    local i = 0
    while true do i = i + 1 end
  elseif HOG_STEP[n] then
    local t = {}
    local i = 0
    while true do i = i + 1; t[i] = string.rep("x", 4096) .. i end
  elseif HOG_BIG[n] then
    local t, s = {}, "y"
    for i = 1, 1000000 do s = s .. s; t[i] = s end
  end
  pinfo.cols.protocol = "MISBEHAVE"
  local t = tree:add(p, tvb())
  t:add(f_len, tvb:len())
  return tvb:len()
end
DissectorTable.get("udp.port"):add(7777, p)
)lua";

const std::set<uint64_t> kLoopFrames = {100, 2000, 4000};
const std::set<uint64_t> kHogFrames = {500, 3000, 4500};
constexpr uint64_t kSampleFrames = 5311;

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("rudpscope-lua-limits-" + std::to_string(::getpid()));
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::string writeScript(const TempDir& dir) {
  const fs::path p = dir.path / "misbehave.lua";
  std::ofstream(p) << kScript;
  return p.string();
}

DecodedPacket udp(uint64_t frame, const std::vector<uint8_t>& payload) {
  DecodedPacket p;
  p.frame = frame;
  p.ts_ns = 1'700'000'000'000'000'000 + static_cast<int64_t>(frame) * 1'000'000;
  p.l3 = L3::IPv4;
  p.src.family = p.dst.family = 4;
  p.src.bytes = {10, 0, 0, 1};
  p.dst.bytes = {10, 0, 0, 2};
  p.ip_proto = 17;
  p.l4 = L4::UDP;
  p.sport = 40000;
  p.dport = 7777;
  p.payload = payload.data();
  p.payload_len = p.payload_reported_len = static_cast<uint32_t>(payload.size());
  p.caplen = p.origlen = p.payload_len + 42;
  return p;
}

}  // namespace

TEST_CASE("LuaHost stops a looping or allocating dissector on that packet and goes on") {
  TempDir dir;
  LuaHost host;
  host.loadScript(writeScript(dir));
  host.finishLoading();
  // Small limits keep the test quick; ingest below uses the defaults.
  host.setLimits(2'000'000, 64u << 20);
  const std::vector<uint8_t> payload(40, 0xab);
  DissectResult res;

  for (uint64_t frame : {1, 100, 101, 500, 501, 4500, 4501}) {
    const auto t0 = std::chrono::steady_clock::now();
    host.dissectUdp(udp(frame, payload), false, res);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    INFO("frame " << frame << ": " << res.error);
    CHECK(secs < 10.0);
    if (kLoopFrames.count(frame)) {
      CHECK(res.lua_error);
      CHECK(res.error.find("instruction limit") != std::string::npos);
    } else if (kHogFrames.count(frame)) {
      CHECK(res.lua_error);
      CHECK(!res.error.empty());
    } else {
      CHECK_FALSE(res.lua_error);
      CHECK(res.proto >= 0);
      // The Proto item, then misbehave.len.
      REQUIRE_FALSE(res.values.empty());
      CHECK(res.values.back().field == host.fieldByAbbrev("misbehave.len"));
      CHECK(res.values.back().u == payload.size());
    }
  }
}

TEST_CASE("ingest reports each misbehaving frame as a Lua error and analyses every other frame") {
  TempDir dir;
  DissectorOptions opts;
  opts.load_defaults = false;  // GRUDP would claim port 7777 as well
  opts.extra_scripts = {writeScript(dir)};
  const std::string db = (dir.path / "sample.sqlite").string();
  const std::string capture = std::string(RUDPSCOPE_SOURCE_DIR) + "/resources/sample.pcap";

  const IngestResult r = ingestCapture(capture, db, opts);
  CHECK(r.capture.packet_count == kSampleFrames);
  CHECK(r.capture.lua_errors == kLoopFrames.size() + kHogFrames.size());

  StoreReader reader(db);
  sql::Database sdb(db, sql::Database::Mode::ReadOnly);  // the rows themselves, not the reader's view
  CHECK(reader.capture().lua_errors == kLoopFrames.size() + kHogFrames.size());

  // Exactly the misbehaving frames carry the Lua-error status and a message.
  std::set<uint64_t> flagged;
  {
    sql::Statement st(sdb, "SELECT frame FROM packets WHERE status & 4 != 0 ORDER BY frame");
    while (st.step()) flagged.insert(static_cast<uint64_t>(st.int64(0)));
  }
  std::set<uint64_t> expected(kLoopFrames);
  expected.insert(kHogFrames.begin(), kHogFrames.end());
  CHECK(flagged == expected);
  {
    sql::Statement st(sdb, "SELECT frame, message FROM packet_errors ORDER BY frame");
    std::set<uint64_t> errFrames;
    while (st.step()) {
      const auto frame = static_cast<uint64_t>(st.int64(0));
      const std::string msg = st.text(1);
      INFO("frame " << frame << ": " << msg);
      errFrames.insert(frame);
      if (kLoopFrames.count(frame)) CHECK(msg.find("instruction limit") != std::string::npos);
      if (kHogFrames.count(frame))
        CHECK(
            (msg.find("memory") != std::string::npos || msg.find("instruction limit") != std::string::npos));
    }
    CHECK(errFrames == expected);
  }
  // Every frame is stored; every other frame was claimed by the dissector,
  // so its connection is a "misbehave" one and nothing else is flagged.
  {
    sql::Statement st(sdb, "SELECT count(*) FROM packets");
    REQUIRE(st.step());
    CHECK(st.int64(0) == static_cast<int64_t>(kSampleFrames));
  }
  {
    sql::Statement st(sdb,
                      "SELECT count(*) FROM packets p JOIN connections c ON c.id = p.conn "
                      "WHERE c.protocol = 'misbehave' AND p.status & 4 = 0");
    REQUIRE(st.step());
    CHECK(st.int64(0) == static_cast<int64_t>(kSampleFrames - expected.size()));
  }
}
