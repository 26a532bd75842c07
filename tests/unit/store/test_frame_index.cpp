// The frame index against the packets table of the same database: a display
// filter over frame number, lengths and time must pick exactly the frames
// SQL picks from the full rows, however odd the frames are.
#include <catch2/catch.hpp>

#include <atomic>
#include <filesystem>
#include <string>
#include <vector>

#include "core/error.h"
#include "store/frame_index.h"
#include "store/sqlite.h"
#include "store/store_reader.h"
#include "store/store_writer.h"

using namespace rudp;
namespace fs = std::filesystem;
using Col = FrameCondition::Column;
using Op = FrameCondition::Op;

namespace {
constexpr uint64_t kFrames = 10000;  // three index rows, the last one short

// Frames with gaps (as analyze -Y stores), times that jump back and far
// ahead, and lengths at their limits, captured lengths above and below.
PacketRow oddFrame(uint64_t i) {
  PacketRow r;
  r.frame = i * 3 + (i % 7 == 0 ? 1 : 0);
  r.ts_ns = 1'700'000'000'000'000'000 + static_cast<int64_t>(i) * 16'666'667;
  if (i % 101 == 0) r.ts_ns -= 5'000'000'000;  // 5 s back in time
  if (i % 997 == 0) r.ts_ns += 9'000'000'000;  // beyond a 32-bit step
  if (i == 5) r.ts_ns = 0;
  r.origlen = i == 9 ? 0xffffffffu : static_cast<uint32_t>(60 + (i * 37) % 1400);
  r.caplen = i % 5 == 0 ? std::min<uint32_t>(r.origlen, 96) : r.origlen;
  if (i == 11) r.caplen = r.origlen + 4;  // a bad file's record, kept as read
  r.file_offset = 24 + i * 100;
  return r;
}

std::string writeOddDatabase(const fs::path& dir) {
  const std::string path = (dir / "odd.sqlite").string();
  StoreWriter w(path);
  for (uint64_t i = 1; i <= kFrames; ++i) w.addPacket(oddFrame(i), nullptr, 0);
  CaptureInfo c;
  c.path = "odd.pcap";
  c.hash = "00";
  c.hash_algorithm = "xxh3-128";
  c.format = "pcap";
  c.link_type_name = "EN10MB";
  c.packet_count = kFrames;
  w.finish(c, {});
  return path;
}

FrameCondition compare(Col column, Op op, int64_t value) {
  FrameCondition c;
  c.kind = FrameCondition::Kind::Compare;
  c.column = column;
  c.op = op;
  c.value = value;
  return c;
}
FrameCondition join(FrameCondition::Kind kind, FrameCondition a, FrameCondition b = {}) {
  FrameCondition c;
  c.kind = kind;
  c.children.push_back(std::move(a));
  if (kind != FrameCondition::Kind::Not) c.children.push_back(std::move(b));
  return c;
}

std::vector<uint64_t> framesBySql(const std::string& db, const std::string& where) {
  sql::Database d(db, sql::Database::Mode::ReadOnly);
  sql::Statement st(d, ("SELECT frame FROM packets WHERE " + where + " ORDER BY frame").c_str());
  std::vector<uint64_t> out;
  while (st.step()) out.push_back(static_cast<uint64_t>(st.int64(0)));
  return out;
}

struct Case {
  FrameCondition condition;
  std::string sql;
};
}  // namespace

TEST_CASE("the frame index picks exactly the frames SQL picks from the packets table") {
  const fs::path dir = fs::temp_directory_path() / ("rudpscope-frame-index-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string db = writeOddDatabase(dir);
  using K = FrameCondition::Kind;
  const int64_t t0 = 1'700'000'000'000'000'000;
  const std::vector<Case> cases = {
      {FrameCondition{}, "1"},
      {compare(Col::Frame, Op::Eq, 21), "frame = 21"},  // i = 7: frame 22, so none
      {compare(Col::Frame, Op::Ge, 29990), "frame >= 29990"},
      {compare(Col::WireLength, Op::Gt, 1000), "origlen > 1000"},
      {compare(Col::WireLength, Op::Eq, 0xffffffffLL), "origlen = 4294967295"},
      {compare(Col::CapturedLength, Op::Lt, 97), "caplen < 97"},
      {compare(Col::CapturedLength, Op::Ne, 96), "caplen != 96"},
      {compare(Col::TimeNs, Op::Le, t0 + 10'000'000'000), "ts_ns <= " + std::to_string(t0 + 10'000'000'000)},
      {compare(Col::TimeNs, Op::Lt, 1), "ts_ns < 1"},
      {join(K::And, compare(Col::WireLength, Op::Gt, 150), compare(Col::TimeNs, Op::Ge, t0 + 20'000'000'000)),
       "origlen > 150 AND ts_ns >= " + std::to_string(t0 + 20'000'000'000)},
      {join(K::Or, compare(Col::CapturedLength, Op::Gt, 0), compare(Col::Frame, Op::Lt, 100)),
       "caplen > 0 OR frame < 100"},
      {join(K::Not, join(K::Or, compare(Col::Frame, Op::Lt, 15000), compare(Col::WireLength, Op::Ge, 700))),
       "NOT (frame < 15000 OR origlen >= 700)"},
  };
  StoreReader reader(db);
  for (const Case& c : cases) {
    INFO(c.sql);
    const std::vector<uint64_t> expected = framesBySql(db, c.sql);
    CHECK(reader.framesWhere(c.condition) == expected);
  }
  // The cases are not all trivially everything or nothing.
  CHECK(framesBySql(db, "1").size() == kFrames);
  CHECK(framesBySql(db, "ts_ns < 1") == std::vector<uint64_t>{15});
  CHECK(framesBySql(db, "caplen > origlen") == std::vector<uint64_t>{33});
  fs::remove_all(dir);
}

TEST_CASE("a frame-index read stops at cancel and refuses a damaged row in one line") {
  const fs::path dir =
      fs::temp_directory_path() / ("rudpscope-frame-index-bad-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string db = writeOddDatabase(dir);
  {
    StoreReader reader(db);
    std::atomic<bool> cancel{true};
    CHECK_THROWS_AS(reader.framesWhere(FrameCondition{}, &cancel), Cancelled);
  }
  {
    sql::Database d(db, sql::Database::Mode::ReadWriteCreate);
    d.exec(
        "UPDATE frame_index SET data = substr(data, 1, length(data) - 1) WHERE first_frame = (SELECT "
        "min(first_frame) FROM frame_index)");
  }
  StoreReader reader(db);
  CHECK_THROWS_WITH(reader.framesWhere(FrameCondition{}), "'" + db + "' is damaged: its frame index is cut");
  fs::remove_all(dir);
}

TEST_CASE("the frame index holds every frame in a row per 4096, about 7 bytes a frame") {
  store::FrameIndexEncoder e;
  for (uint64_t i = 1; i <= store::kFramesPerIndexRow; ++i) e.add(i, int64_t(i) * 16'666'667, 120, 120);
  CHECK(e.firstFrame() == 1);
  CHECK(e.count() == store::kFramesPerIndexRow);
  const std::string row = e.take();
  // 1 (frame step) + 4 (time step, 16.7 ms zigzagged) + 1 (length 120) + 1 (captured: same)
  CHECK(row.size() == store::kFramesPerIndexRow * 7);
  uint64_t n = 0;
  CHECK(store::forEachIndexedFrame(row, store::kFramesPerIndexRow, [&](const FrameColumns& f) {
    ++n;
    CHECK(f[0] == int64_t(n));
    CHECK(f[3] == int64_t(n) * 16'666'667);
  }));
  CHECK(n == store::kFramesPerIndexRow);
  CHECK(e.count() == 0);
  CHECK_FALSE(store::forEachIndexedFrame(row, store::kFramesPerIndexRow - 1, [](const FrameColumns&) {}));
}
