// The jobs under the window: progress figures from bytes, a newer query
// drops an older one's result, each query reads through its own StoreReader,
// the preferences round-trip through QSettings and decide database reuse.
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <fstream>
#include <mutex>
#include <set>
#include <thread>

#include "../models/catch_qt.h"
#include "app_fixture.h"
#include "jobs/analysis_preferences.h"
#include "jobs/database_reuse.h"
#include "jobs/progress_rate.h"
#include "jobs/query_runner.h"
#include "session/ingest.h"
#include "store/store_reader.h"

using namespace rudp;
using namespace rudp::test;
using namespace rudp::gui;

TEST_CASE("progress: packets per second and time left come from the bytes read") {
  ProgressRate rate;
  IngestProgress p = rate.update({0, 10'000'000, 0}, 0.5);
  CHECK(p.phase == IngestProgress::Phase::Reading);
  CHECK(p.fraction == 0);
  CHECK(p.seconds_left == -1);                            // nothing measured yet
  p = rate.update({2'000'000, 10'000'000, 10'000}, 2.5);  // 2 s after the first report
  CHECK(p.fraction == Approx(0.2));
  CHECK(p.packets == 10'000);
  CHECK(p.packets_per_second == Approx(5'000));
  CHECK(p.seconds_left == Approx(8.0));  // 8 MB left at 1 MB/s
  // Rates follow the last seconds: a slow start no longer counts.
  rate.update({3'000'000, 10'000'000, 15'000}, 3.5);
  p = rate.update({7'000'000, 10'000'000, 35'000}, 5.5);  // the window starts at the 2.5 s report
  CHECK(p.packets_per_second == Approx(25'000.0 / 3.0));  // not 35,000 / 5
  CHECK(p.seconds_left == Approx(3.0 / (5.0 / 3.0)));
  p = rate.update({10'000'000, 10'000'000, 50'000}, 10.5);
  CHECK(p.phase == IngestProgress::Phase::Finishing);
  CHECK(p.seconds_left == 0);
}

TEST_CASE("a newer query on the same tracker drops the older one's result") {
  TempDir dir("app-jobs");
  const std::string db = dir / "s.sqlite";
  ingestCapture(copySample(dir), db, DissectorOptions{});
  QueryRunner runner;
  JobTracker tracker;
  std::vector<size_t> delivered;
  std::set<std::thread::id> threads;
  std::mutex threadsLock;
  QString failure;
  auto query = [&](int delayMs) {
    return [&, delayMs](StoreReader& reader) {
      QThread::msleep(delayMs);
      const std::lock_guard<std::mutex> lock(threadsLock);
      threads.insert(std::this_thread::get_id());
      return reader.connectionCount() * 10 + size_t(delayMs);
    };
  };
  runner.run(
      tracker, QString::fromStdString(db), query(300), [&](size_t v) { delivered.push_back(v); },
      [&](const QString& e) { failure = e; });
  runner.run(
      tracker, QString::fromStdString(db), query(1), [&](size_t v) { delivered.push_back(v); },
      [&](const QString& e) { failure = e; });
  QTest::qWait(600);
  runner.waitForDone();
  QTest::qWait(50);  // the queued deliveries
  CHECK(failure.isEmpty());
  REQUIRE(delivered.size() == 1);
  CHECK(delivered[0] == 3 * 10 + 1);                      // the newer one: the sample has 3 connections
  CHECK(threads.count(std::this_thread::get_id()) == 0);  // never on the UI thread

  SECTION("a query of a missing database fails with a message") {
    JobTracker other;
    runner.run(
        other, QString::fromStdString(dir / "missing.sqlite"), query(0),
        [&](size_t v) { delivered.push_back(v); }, [&](const QString& e) { failure = e; });
    REQUIRE(QTest::qWaitFor([&] { return !failure.isEmpty(); }, 5000));
    CHECK(failure.contains("missing.sqlite"));
    CHECK(delivered.size() == 1);
  }
}

TEST_CASE("preferences round-trip through QSettings and become the core's options") {
  useTemporarySettings();
  AnalysisPreferences p;
  p.genre = "mmo";
  p.stall_ms = 300;
  p.rtt_limits_ms = {100, 200, 400};
  p.dissector_prefs = {{"grudp.port", "7777"}, {"grudp.strict", "a:b"}};
  p.extra_scripts = {"/tmp/x.lua"};
  {
    QSettings s;
    p.save(s);
  }
  QSettings s;
  const AnalysisPreferences back = AnalysisPreferences::load(s);
  CHECK(back == p);
  CHECK(back.dissector_prefs[1].second == "a:b");  // a value may hold a colon
  const IngestOptions ingest = back.ingestOptions();
  CHECK(ingest.analysis.stall_ms == 300);
  CHECK(ingest.analysis.rtt_limits_ms == std::array<double, 3>{100, 200, 400});
  const DissectorOptions dissectors = back.dissectorOptions();
  CHECK(dissectors.extra_scripts == std::vector<std::string>{"/tmp/x.lua"});
  CHECK(dissectors.prefs.size() == 2);
  CHECK(dissectors.prefs[0] == std::pair<std::string, std::string>{"grudp.port", "7777"});
}

TEST_CASE("a database is reused only with the same content and thresholds") {
  TempDir dir("app-reuse-rule");
  const std::string pcap = copySample(dir);
  const std::string db = dir / "s.sqlite";
  AnalysisPreferences prefs;
  CHECK_FALSE(databaseMatchesCapture(pcap, db, prefs));  // none yet
  ingestCapture(pcap, db, prefs.dissectorOptions(), prefs.ingestOptions());
  CHECK(databaseMatchesCapture(pcap, db, prefs));
  AnalysisPreferences stricter = prefs;
  stricter.stall_ms = 100;
  CHECK_FALSE(databaseMatchesCapture(pcap, db, stricter));
  AnalysisPreferences limits = prefs;
  limits.rtt_limits_ms[2] = 500;
  CHECK_FALSE(databaseMatchesCapture(pcap, db, limits));
  // Another capture's database.
  const std::string other = makeSimCapture(dir, "other.pcap", {"--connections", "1", "--duration", "2"});
  CHECK_FALSE(databaseMatchesCapture(other, db, prefs));
}

TEST_CASE("a database is reused only with the same dissectors and preferences") {
  TempDir dir("app-reuse-dissectors");
  const std::string pcap = copySample(dir);
  const std::string db = dir / "s.sqlite";
  const std::string script = dir / "extra.lua";
  std::ofstream(script) << "local p = Proto('extra1', 'Extra')\n";
  AnalysisPreferences prefs;
  prefs.extra_scripts = {QString::fromStdString(script)};
  ingestCapture(pcap, db, prefs.dissectorOptions(), prefs.ingestOptions());
  CHECK(databaseMatchesCapture(pcap, db, prefs));
  AnalysisPreferences withPref = prefs;
  withPref.dissector_prefs = {{"grudp.port", "7778"}};
  CHECK_FALSE(databaseMatchesCapture(pcap, db, withPref));
  AnalysisPreferences without = prefs;
  without.extra_scripts.clear();
  CHECK_FALSE(databaseMatchesCapture(pcap, db, without));
  std::ofstream(script, std::ios::app) << "-- edited\n";  // same name, other content
  CHECK_FALSE(databaseMatchesCapture(pcap, db, prefs));
}
