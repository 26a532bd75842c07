#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "store/db_path.h"
#include "store/schema.h"
#include "store/store_reader.h"
#include "store/store_writer.h"

using namespace rudp;
namespace fs = std::filesystem;

namespace {
fs::path tempDir(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("rudpscope-store-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::vector<std::unique_ptr<Connection>> oneConnection(uint64_t packets) {
  std::vector<std::unique_ptr<Connection>> v;
  auto c = std::make_unique<Connection>();
  c->id = 1;
  c->protocol = "grudp";
  c->client.ip.family = 4;
  c->client.ip.bytes[0] = 10;
  c->client.ip.bytes[3] = 2;
  c->client.port = 40000;
  c->server.ip.family = 4;
  c->server.ip.bytes[0] = 10;
  c->server.ip.bytes[3] = 1;
  c->server.port = 7777;
  c->has_conn_id = true;
  c->conn_id = 0xabcdef01;
  c->dir[0].packets = packets;
  c->dir[0].bytes = packets * 100;
  c->dir[1].packets = 3;
  v.push_back(std::move(c));
  return v;
}

void writeDb(const std::string& path, uint64_t packets) {
  StoreWriter w(path);
  Segment s;
  s.has = Segment::Seq | Segment::Ts;
  for (uint64_t i = 1; i <= packets; ++i) {
    PacketRow r;
    r.frame = i;
    r.ts_ns = static_cast<int64_t>(i) * 1000;
    r.conn = 1;
    r.file_offset = 24 + i * 116;
    r.caplen = r.origlen = 100;
    s.seq = static_cast<uint32_t>(1000 + i);
    s.ts = static_cast<uint32_t>(i);
    w.addPacket(r, {s, s});
  }
  CaptureInfo c;
  c.path = "x.pcap";
  c.size = 1234;
  c.hash = "00";
  c.hash_algorithm = "xxh3-128";
  c.format = "pcap";
  c.link_type = 1;
  c.link_type_name = "EN10MB";
  c.packet_count = packets;
  c.first_ts_ns = 1000;
  c.last_ts_ns = static_cast<int64_t>(packets) * 1000;
  w.finish(c, oneConnection(packets));
}

// Counts straight from the file (independent of the reader's own queries).
int64_t count(StoreReader& r, const char* sql) {
  sql::Database db(r.path(), sql::Database::Mode::ReadOnly);
  sql::Statement st(db, sql);
  REQUIRE(st.step());
  return st.int64(0);
}
}  // namespace

TEST_CASE("a written database reads back exactly") {
  auto dir = tempDir("roundtrip");
  std::string db = (dir / "a.sqlite").string();
  writeDb(db, 120000);  // more than one batch
  StoreReader r(db);
  CaptureInfo c = r.capture();
  CHECK(c.packet_count == 120000);
  CHECK(c.link_type_name == "EN10MB");
  auto conns = r.connections();
  REQUIRE(conns.size() == 1);
  CHECK(conns[0].client == "10.0.0.2:40000");
  CHECK(conns[0].server == "10.0.0.1:7777");
  CHECK(conns[0].conn_id == 0xabcdef01);
  CHECK(conns[0].dir[0].packets == 120000);
  CHECK(conns[0].dir[0].bytes == 12000000);
  CHECK(count(r, "SELECT COUNT(*) FROM packets") == 120000);
  CHECK(count(r, "SELECT COUNT(*) FROM extra_segments") == 120000);
  CHECK(count(r, "SELECT seq FROM packets WHERE frame = 77") == 1077);
  CHECK(count(r, "SELECT file_offset FROM packets WHERE frame = 2") == 24 + 2 * 116);
  CHECK(count(r, "SELECT COUNT(*) FROM packets WHERE ack IS NOT NULL") == 0);
  CHECK_FALSE(fs::exists(db + ".partial"));
  fs::remove_all(dir);
}

TEST_CASE("re-analysing replaces the result; an abandoned run keeps the previous one") {
  auto dir = tempDir("replace");
  std::string db = (dir / "a.sqlite").string();
  writeDb(db, 10);
  writeDb(db, 20);
  {
    StoreReader r(db);
    CHECK(r.capture().packet_count == 20);
  }
  {
    StoreWriter w(db);
    PacketRow row;
    row.frame = 1;
    w.addPacket(row, {});
    // Destroyed without finish(): as if the run failed.
  }
  CHECK_FALSE(fs::exists(db + ".partial"));
  StoreReader r(db);
  CHECK(r.capture().packet_count == 20);
  fs::remove_all(dir);
}

TEST_CASE("an interrupted database is never taken for a complete one") {
  auto dir = tempDir("partial");
  std::string db = (dir / "a.sqlite").string();
  std::string copy = (dir / "copy.sqlite").string();
  {
    StoreWriter w(db);
    PacketRow row;
    for (uint64_t i = 1; i <= 60000; ++i) {
      row.frame = i;
      w.addPacket(row, {});
    }
    // What a SIGKILL now leaves on disk: the partial file and its WAL.
    fs::copy_file(db + ".partial", copy);
    if (fs::exists(db + ".partial-wal")) fs::copy_file(db + ".partial-wal", copy + "-wal");
  }
  CHECK_THROWS_WITH(StoreReader(copy), Catch::Contains("incomplete"));
  CHECK_THROWS_WITH(StoreReader(db), Catch::Contains("cannot open database"));
  fs::remove_all(dir);
}

TEST_CASE("other schema versions and foreign files are rejected with a reason") {
  auto dir = tempDir("version");
  std::string db = (dir / "a.sqlite").string();
  writeDb(db, 1);
  {
    sql::Database raw(db, sql::Database::Mode::ReadWriteCreate);
    raw.exec("PRAGMA user_version = 99");
  }
  CHECK_THROWS_WITH(StoreReader(db),
                    Catch::Contains("schema version 99") &&
                        Catch::Contains("reads version " + std::to_string(store::kSchemaVersion)));
  std::string other = (dir / "other.sqlite").string();
  {
    sql::Database raw(other, sql::Database::Mode::ReadWriteCreate);
    raw.exec("CREATE TABLE t(x)");
  }
  CHECK_THROWS_WITH(StoreReader(other), Catch::Contains("not a rudpscope database"));
  fs::remove_all(dir);
}

TEST_CASE("the default database sits beside the capture, or in the cache when read-only") {
  auto dir = tempDir("dbpath");
  fs::path cap = dir / "game.pcap";
  std::ofstream(cap) << "x";
  CHECK(defaultDatabasePath(cap.string()) == (dir / "game.pcap.rudpscope.sqlite").string());
  ::setenv("XDG_CACHE_HOME", (dir / "cache").c_str(), 1);
  std::string p = defaultDatabasePath(cap.string(), false);
  CHECK(p.rfind((dir / "cache" / "rudpscope").string() + "/", 0) == 0);
  CHECK(p.size() > 26);
  CHECK(p.substr(p.size() - 26) == "game.pcap.rudpscope.sqlite");
  CHECK(fs::is_directory(dir / "cache" / "rudpscope"));
  // Two captures of the same name in different folders do not share a database.
  CHECK(p != defaultDatabasePath((dir / "sub" / "game.pcap").string(), false));
  // Installed files (the sample under /usr/share) are not written beside, even
  // by root, who may write to /usr/share (the case CI runs).
  const std::string installed = defaultDatabasePath("/usr/share/sample.pcap");
  CHECK(installed.rfind((dir / "cache" / "rudpscope").string() + "/", 0) == 0);
  CHECK(fs::path(installed).filename().string().substr(17) == "sample.pcap.rudpscope.sqlite");
  fs::remove_all(dir);
}
