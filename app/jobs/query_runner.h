// Runs read queries of a finished database off the UI thread, as JobRunner
// jobs: each query runs on a pool thread with its own read-only StoreReader
// and returns a value, delivered unless its tracker started a newer request.
#pragma once
#include <QString>
#include <string>
#include <type_traits>
#include <utility>

#include "jobs/job_runner.h"
#include "store/store_reader.h"

namespace rudp::gui {

class QueryRunner : public JobRunner {
 public:
  // Two readers at once are enough: queries are short, and the UI asks for
  // one connection's data at a time.
  explicit QueryRunner(QObject* parent = nullptr) : JobRunner(2, QStringLiteral("rudp-query"), parent) {}

  // query: T(rudp::StoreReader&), run on a worker thread.
  // done: void(T), fail: void(QString), both called on this object's thread.
  template <class Query, class Done, class Fail>
  void run(JobTracker& tracker, const QString& dbPath, Query query, Done done, Fail fail) {
    JobRunner::run(
        tracker,
        [path = dbPath.toStdString(), query = std::move(query)]() mutable {
          rudp::StoreReader reader(path);
          return query(reader);
        },
        std::move(done), std::move(fail));
  }
};

}  // namespace rudp::gui
