#include "jobs/worker_thread.h"

#include <QMetaObject>
#include <QThread>

namespace rudp::gui {

WorkerThread::~WorkerThread() {
  if (!m_thread) return;
  m_thread->wait();
  delete m_thread;
}

void WorkerThread::start(const QString& name, std::function<void()> work) {
  Q_ASSERT(!m_thread);
  m_thread = QThread::create(std::move(work));
  m_thread->setObjectName(name);
  m_thread->start();
}

void postTo(QObject* receiver, std::function<void()> f) {
  QMetaObject::invokeMethod(receiver, std::move(f), Qt::QueuedConnection);
}

}  // namespace rudp::gui
