// Runs read queries of a finished database off the UI thread. Each query runs
// on a pool thread with its own read-only StoreReader and returns a value;
// the value comes back to the UI thread, where it is handed to `done` unless
// its tracker has started a newer request since (then it is dropped).
#pragma once
#include <QFutureWatcher>
#include <QObject>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>
#include <exception>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "jobs/job_tracker.h"
#include "store/store_reader.h"

namespace rudp::gui {

template <class T>
struct QueryResult {
  std::optional<T> value;
  QString error;  // one line when value is empty
};

class QueryRunner : public QObject {
 public:
  explicit QueryRunner(QObject* parent = nullptr);
  ~QueryRunner() override;  // waits for the queries still running

  // query: T(rudp::StoreReader&), run on a worker thread.
  // done: void(T), fail: void(QString), both called on this object's thread.
  template <class Query, class Done, class Fail>
  void run(JobTracker& tracker, const QString& dbPath, Query query, Done done, Fail fail) {
    using T = std::invoke_result_t<Query&, rudp::StoreReader&>;
    const quint64 id = tracker.startJob();
    auto* watcher = new QFutureWatcher<QueryResult<T>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this,
            [watcher, id, &tracker, done = std::move(done), fail = std::move(fail)]() mutable {
              QueryResult<T> result = watcher->future().takeResult();
              watcher->deleteLater();
              if (!tracker.isCurrent(id)) return;
              if (result.value)
                done(std::move(*result.value));
              else
                fail(result.error);
            });
    watcher->setFuture(
        QtConcurrent::run(&m_pool, [path = dbPath.toStdString(), query = std::move(query)]() mutable {
          return runQuery<T>(path, query);
        }));
  }

  // Blocks until every started query has finished (tests, shutdown).
  void waitForDone();

 private:
  template <class T, class Query>
  static QueryResult<T> runQuery(const std::string& path, Query& query) {
    QueryResult<T> result;
    try {
      rudp::StoreReader reader(path);
      result.value.emplace(query(reader));
    } catch (const std::exception& e) { result.error = QString::fromStdString(e.what()); }
    return result;
  }

  QThreadPool m_pool;
};

}  // namespace rudp::gui
