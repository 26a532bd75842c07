#include "jobs/query_runner.h"

namespace rudp::gui {

QueryRunner::QueryRunner(QObject* parent) : QObject(parent) {
  // Two readers at once are enough: queries are short, and the UI asks for
  // one connection's data at a time.
  m_pool.setMaxThreadCount(2);
  m_pool.setObjectName(QStringLiteral("rudp-query"));
}

QueryRunner::~QueryRunner() { m_pool.waitForDone(); }

void QueryRunner::waitForDone() { m_pool.waitForDone(); }

}  // namespace rudp::gui
