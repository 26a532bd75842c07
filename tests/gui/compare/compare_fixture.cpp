#include "compare_fixture.h"

#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <QWidget>
#include <algorithm>
#include <catch2/catch.hpp>
#include <memory>

#include "compare/labels.h"
#include "pages/compare_page.h"
#include "sim_capture.h"
#include "simulator.hpp"

namespace rudp::test {

std::string simulateCapture(const QString& folder, int lossPercent, int rtoMinMs) {
  grudp_sim::SimConfig c;
  c.connections = 2;
  c.duration_s = 8;
  c.seed = static_cast<uint64_t>(100 * lossPercent + rtoMinMs);
  c.c2s.loss = c.s2c.loss = lossPercent / 100.0;
  c.c2s.delay_ms = c.s2c.delay_ms = 40;
  c.c2s.jitter_ms = c.s2c.jitter_ms = 4;
  c.rto_min_ms = rtoMinMs;
  c.rto_initial_ms = std::max(1000, rtoMinMs);
  c.nsec = true;
  const std::string path =
      QStringLiteral("%1/grudp_loss%2_rto%3.pcap").arg(folder).arg(lossPercent).arg(rtoMinMs).toStdString();
  grudp_sim::Simulator sim(c);
  sim.run(path, true);
  return path;
}

gui::CompareOutcome runCompareJob(const QStringList& paths, int timeoutMs) {
  gui::CompareJob job(1, gui::CompareRequest{paths, {}, gui::AnalysisPreferences{}});
  QSignalSpy done(&job, &gui::CompareJob::succeeded);
  QSignalSpy failed(&job, &gui::CompareJob::failed);
  job.start();
  REQUIRE(QTest::qWaitFor([&] { return !done.isEmpty() || !failed.isEmpty(); }, timeoutMs));
  if (!failed.isEmpty()) FAIL("the compare job failed: " << failed.first().at(1).toString().toStdString());
  return done.first().at(1).value<gui::CompareOutcome>();
}

void useTemporarySettings() {
  static QTemporaryDir dir;
  QSettings::setDefaultFormat(QSettings::IniFormat);
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.path());
  QSettings().clear();
}

bool compareAndWait(gui::ComparePage& page, const QStringList& paths, int timeoutMs) {
  QSignalSpy shown(&page, &gui::ComparePage::comparisonShown);
  QSignalSpy notShown(&page, &gui::ComparePage::comparisonNotShown);
  page.compare(paths);
  (void)QTest::qWaitFor([&] { return !shown.isEmpty() || !notShown.isEmpty(); }, timeoutMs);
  return !shown.isEmpty();
}

QString savePng(QWidget& w, const std::string& name) {
  const QString path = QString::fromStdString(artifactPath(name));
  return w.grab().save(path, "PNG") ? path : QString();
}

const CompareSet& compareSet() {
  // Destroyed at exit: the folder and its databases go with it.
  static const std::unique_ptr<CompareSet> set = [] {
    auto s = std::make_unique<CompareSet>();
    REQUIRE(s->dir.isValid());
    for (int loss : kLossPercents)
      for (int rto : kRtoMinMs) simulateCapture(s->dir.path(), loss, rto);
    s->captures = cmp::expandCaptureSet({s->dir.path().toStdString()});
    REQUIRE(s->captures.size() == kLossPercents.size() * kRtoMinMs.size());
    s->outcome = runCompareJob({s->dir.path()});
    return s;
  }();
  return *set;
}

}  // namespace rudp::test
