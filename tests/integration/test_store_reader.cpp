// The typed reader (StoreReader) against the simulator's ground truth and
// against the database's own rows: what the CLI and the GUI are shown.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "process.h"
#include "store/sqlite.h"
#include "store/store_reader.h"

using namespace rudp;
using namespace rudp::test;
using nlohmann::json;

namespace {
struct Analysed {
  TempDir dir{"reader"};
  std::string db = dir / "c.sqlite";
  json truth;
  Analysed() {
    const std::string cap = dir / "c.pcap", truthPath = dir / "c.json";
    REQUIRE(run({GRUDP_SIM,       "--out",   cap,          "--truth", truthPath,    "--truth-summary-only",
                 "--connections", "3",       "--duration", "10",      "--seed",     "5",
                 "--loss",        "0.05",    "--burst",    "2",       "--delay-ms", "60",
                 "--outage",      "4:5.2@1", "--vantage",  "client"})
                .status == 0);
    auto r = run({RUDPSCOPE_CLI, "analyze", cap, "--db", db, "-q"});
    INFO(r.err);
    REQUIRE(r.status == 0);
    std::ifstream f(truthPath);
    truth = json::parse(f);
  }
  int64_t epochNs() const {
    return static_cast<int64_t>(truth["time_base"]["pcap_epoch_s"].get<double>() * 1e9);
  }
};

int64_t scalar(const std::string& db, const std::string& q) {
  sql::Database raw(db, sql::Database::Mode::ReadOnly);
  sql::Statement st(raw, q.c_str());
  REQUIRE(st.step());
  return st.int64(0);
}
}  // namespace

TEST_CASE("connection records carry the truth's retransmissions and stalls") {
  Analysed a;
  StoreReader reader(a.db);
  auto records = reader.connectionRecords();
  REQUIRE(records.size() == a.truth["connections"].size());
  REQUIRE(reader.connectionCount() == records.size());
  size_t stalls = 0;
  for (const auto& tc : a.truth["connections"]) {
    auto rec = std::find_if(records.begin(), records.end(), [&](const ConnectionRecord& r) {
      return r.summary.conn_id == tc["conn_id"].get<uint64_t>();
    });
    REQUIRE(rec != records.end());
    REQUIRE(rec->has_analysis);
    CHECK(rec->metrics.vantage == ana::Vantage::Client);
    const json& s = tc["directions"]["client_to_server"]["summary"];
    const ana::DirectionMetrics& m = rec->metrics.dir[0];
    CHECK(m.retransmissions == s["retransmissions"]["total"].get<uint64_t>());
    CHECK(m.retransmissions_timeout == s["retransmissions"]["timeout"].get<uint64_t>());
    CHECK(m.retransmissions_fast == s["retransmissions"]["fast"].get<uint64_t>());

    // The event queries return exactly the events the metrics count.
    auto retx = reader.retransmissions(rec->summary.id, Direction::ClientToServer);
    CHECK(retx.size() == m.retransmissions);
    CHECK(std::count_if(retx.begin(), retx.end(), [](auto& e) {
            return e.cause == ana::RetxCause::Timeout;
          }) == static_cast<long>(m.retransmissions_timeout));
    CHECK(reader.rttSamples(rec->summary.id, Direction::ClientToServer).size() == m.rtt.samples);
    CHECK(reader.rttSamples(rec->summary.id, Direction::ServerToClient).size() ==
          rec->metrics.dir[1].rtt.samples);

    // Stalls: the same as the truth's, within one 30 Hz tick.
    const json& trueStalls = s["stalls"];
    auto ours = reader.stalls(rec->summary.id, Direction::ClientToServer);
    REQUIRE(ours.size() == trueStalls.size());
    REQUIRE(m.stalls.size() == ours.size());
    for (size_t i = 0; i < ours.size(); ++i) {
      CHECK(std::abs(ours[i].start_ns - a.epochNs() - trueStalls[i]["start_ns"].get<int64_t>()) < 33'400'000);
      CHECK(std::abs(ours[i].end_ns - a.epochNs() - trueStalls[i]["end_ns"].get<int64_t>()) < 33'400'000);
      CHECK(ours[i].start_ns == m.stalls[i].start_ns);
      ++stalls;
    }
  }
  CHECK(stalls >= 1);  // the outage on connection 1 at 4.0-5.2 s at least
}

TEST_CASE("event queries honour the time range exactly") {
  Analysed a;
  StoreReader reader(a.db);
  const ConnectionRecord rec = *reader.connection(1);
  const auto all = reader.rttSamples(1, Direction::ClientToServer);
  REQUIRE(all.size() > 100);
  REQUIRE(std::is_sorted(all.begin(), all.end(), [](auto& x, auto& y) { return x.ts_ns < y.ts_ns; }));
  const TimeRange range{all[all.size() / 3].ts_ns, all[2 * all.size() / 3].ts_ns};
  const auto part = reader.rttSamples(1, Direction::ClientToServer, range);
  const auto expected =
      std::count_if(all.begin(), all.end(), [&](auto& e) { return range.contains(e.ts_ns); });
  CHECK(static_cast<long>(part.size()) == expected);
  CHECK(part.front().frame == all[all.size() / 3].frame);

  // A stall is returned when it overlaps the range, not only when it starts in it.
  const auto stalls = reader.stalls(rec.summary.id, Direction::ClientToServer);
  REQUIRE_FALSE(stalls.empty());
  const ana::StallEvent& st = stalls.front();
  const TimeRange inside{st.start_ns + 1, st.start_ns + 2};
  CHECK(reader.stalls(rec.summary.id, Direction::ClientToServer, inside).size() == 1);
  const TimeRange before{st.start_ns - 1'000'000'000, st.start_ns};
  auto b = reader.stalls(rec.summary.id, Direction::ClientToServer, before);
  CHECK(std::none_of(b.begin(), b.end(), [&](auto& x) { return x.start_ns == st.start_ns; }));

  // Rates add up to the connection's packets.
  uint64_t packets = 0;
  for (const auto& r : reader.rates(1, Direction::ServerToClient)) packets += r.packets;
  CHECK(packets == rec.summary.dir[1].packets);
}

TEST_CASE("packet queries by connection, direction, frame range and frame") {
  Analysed a;
  StoreReader reader(a.db);
  const ConnectionRecord rec = *reader.connection(2);
  PacketQuery q;
  q.conn = rec.summary.id;
  const auto mine = reader.packets(q);
  CHECK(mine.size() == rec.summary.dir[0].packets + rec.summary.dir[1].packets);
  CHECK(std::all_of(mine.begin(), mine.end(), [&](auto& p) { return p.conn == rec.summary.id; }));
  q.dir = Direction::ServerToClient;
  CHECK(reader.packets(q).size() == rec.summary.dir[1].packets);

  PacketQuery range;
  range.first_frame = 100;
  range.last_frame = 199;
  const auto hundred = reader.packets(range);
  REQUIRE(hundred.size() == 100);
  CHECK(hundred.front().frame == 100);
  CHECK(hundred.back().frame == 199);
  range.limit = 7;
  CHECK(reader.packets(range).size() == 7);

  const auto p = reader.packet(150);
  REQUIRE(p);
  CHECK(p->frame == 150);
  CHECK(p->ts_ns == hundred[50].ts_ns);
  CHECK(p->seq == hundred[50].seq);
  CHECK(p->seq.has_value() == (scalar(a.db, "SELECT seq IS NOT NULL FROM packets WHERE frame = 150") == 1));
  CHECK(p->file_offset ==
        static_cast<uint64_t>(scalar(a.db, "SELECT file_offset FROM packets WHERE frame = 150")));
  CHECK_FALSE(reader.packet(scalar(a.db, "SELECT max(frame) FROM packets") + 1));
}

TEST_CASE("settings and protocols are what the analysis used") {
  Analysed a;
  StoreReader reader(a.db);
  const AnalysisSettings s = reader.settings();
  CHECK(s.stall_ms == 200);
  CHECK(s.rtt_limits_ms == std::vector<double>{150, 250, 300});
  auto protos = reader.protocols();
  CHECK(
      std::any_of(protos.begin(), protos.end(), [](auto& p) { return p.name == "grudp" && p.has_contract; }));
  CHECK(reader.capture().packet_count == static_cast<uint64_t>(scalar(a.db, "SELECT count(*) FROM packets")));
}
