#include "jobs/compare_job.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <exception>

#include "core/error.h"
#include "session/capture_set.h"
#include "store/store_reader.h"

namespace rudp::gui {

namespace {
constexpr qint64 kProgressIntervalMs = 100;  // ~10 updates a second

QString fileNameOf(const std::string& path) { return QFileInfo(QString::fromStdString(path)).fileName(); }
}  // namespace

int CompareOutcome::failed() const {
  int n = 0;
  for (const CompareCapture& c : captures) n += !c.error.isEmpty();
  return n;
}

CompareJob::CompareJob(quint64 id, CompareRequest request, QObject* parent)
    : QObject(parent), m_id(id), m_request(std::move(request)) {
  qRegisterMetaType<CompareProgress>();
  qRegisterMetaType<CompareOutcome>();
}

CompareJob::~CompareJob() { cancel(); }

void CompareJob::start() {
  m_worker.start(QStringLiteral("rudp-compare"), [this] { work(); });
}

void CompareJob::cancel() { m_cancel.store(true, std::memory_order_relaxed); }

void CompareJob::work() {
  try {
    CompareOutcome outcome = compare();
    post([this, outcome = std::move(outcome)] { emit succeeded(m_id, outcome); });
  } catch (const rudp::Cancelled&) {
    post([this] { emit cancelled(m_id); });
  } catch (const std::exception& e) {
    const QString message = QString::fromStdString(e.what());
    post([this, message] { emit failed(m_id, message); });
  }
}

CompareOutcome CompareJob::compare() {
  std::vector<std::string> paths;
  for (const QString& p : m_request.paths) paths.push_back(p.toStdString());
  const std::vector<std::string> captures = cmp::expandCaptureSet(paths);  // CompareError: nothing to compare
  CompareOutcome outcome;
  const int count = static_cast<int>(captures.size());
  for (int i = 0; i < count; ++i) {
    if (m_cancel.load()) throw rudp::Cancelled();
    outcome.captures.push_back(compareOne(captures[i], i, count, outcome));
  }
  return outcome;
}

// Analyses (or reuses) one capture and appends its rows and warnings. What
// goes wrong with this capture is its line; only a cancel stops the set.
CompareCapture CompareJob::compareOne(const std::string& capture, int index, int count,
                                      CompareOutcome& outcome) {
  CompareCapture result;
  result.path = QString::fromStdString(capture);
  const QString name = fileNameOf(capture);
  post([this, p = CompareProgress{index, count, name, -1}] { emit progressed(m_id, p); });
  QElapsedTimer clock;
  clock.start();
  qint64 lastReport = -kProgressIntervalMs;
  rudp::ProgressSink sink;
  sink.cancel = &m_cancel;
  sink.report = [&](const rudp::Progress& p) {
    const qint64 now = clock.elapsed();
    if (now - lastReport < kProgressIntervalMs) return;
    lastReport = now;
    const double fraction = p.total ? double(p.done) / double(p.total) : -1;
    post([this, progress = CompareProgress{index, count, name, fraction}] {
      emit progressed(m_id, progress);
    });
  };
  try {
    const cmp::Labels labels = cmp::captureLabels(capture, m_request.overrides);
    result.labels = QString::fromStdString(cmp::labelText(labels));
    const cmp::AnalysedCapture analysed = cmp::ensureAnalysed(capture, m_request.prefs.dissectorOptions(),
                                                              m_request.prefs.ingestOptions(), sink);
    result.reused = analysed.reused;
    result.db = QString::fromStdString(analysed.db);
    for (const std::string& w : analysed.warnings)
      outcome.warnings << name + QStringLiteral(": ") + QString::fromStdString(w);
    StoreReader reader(analysed.db);
    std::vector<cmp::DirectionComparison> rows = cmp::compareConnections(reader, capture, labels);
    result.connections = static_cast<int>(rows.size() / 2);
    if (rows.empty()) outcome.warnings << name + QStringLiteral(": no connection was analysed");
    std::vector<std::vector<double>> rtt(rows.size());  // read whole before appending: rows stay aligned
    for (size_t i = 0; i < rows.size(); ++i)
      for (const ana::RttEvent& e : reader.rttSamples(rows[i].conn, rows[i].dir)) rtt[i].push_back(e.rtt_ms);
    for (size_t i = 0; i < rows.size(); ++i) {
      outcome.rows.push_back(std::move(rows[i]));
      outcome.rttMs.push_back(std::move(rtt[i]));
    }
  } catch (const rudp::Cancelled&) { throw; } catch (const std::exception& e) {
    result.error = QString::fromStdString(e.what());
  }
  return result;
}

}  // namespace rudp::gui
