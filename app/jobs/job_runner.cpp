#include "jobs/job_runner.h"

namespace rudp::gui {

JobRunner::JobRunner(int threads, const QString& name, QObject* parent) : QObject(parent) {
  m_pool.setMaxThreadCount(threads);
  m_pool.setObjectName(name);
}

JobRunner::~JobRunner() { m_pool.waitForDone(); }

void JobRunner::waitForDone() { m_pool.waitForDone(); }

}  // namespace rudp::gui
