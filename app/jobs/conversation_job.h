// Works out one frame's conversation items (TCP's stream, times and SEQ/ACK
// analysis, UDP's streams: ConversationReplay) on a worker thread for the
// Packets page, whose rows are read alone. The replay is shared from job to
// job, so the next frame down the list costs a frame or two; only one job
// may use it at a time: destroy the last job (it cancels and waits) before
// starting the next. Results cross threads as values; every signal names
// its frame, so the page drops one it no longer shows.
#pragma once
#include <QObject>
#include <QString>
#include <atomic>
#include <functional>
#include <memory>

#include "jobs/worker_thread.h"
#include "packets/conversation_replay.h"

namespace rudp::gui {

class ConversationJob : public QObject {
  Q_OBJECT
 public:
  ConversationJob(quint64 frame, std::shared_ptr<ConversationReplay> replay, QObject* parent = nullptr);
  ~ConversationJob() override;  // cancels and waits for the worker

  void start();

 signals:
  void ready(quint64 frame, const rudp::ConversationFacts& facts);
  void progressed(quint64 frame, double fraction);
  void failed(quint64 frame, const QString& message);

 private:
  void work();
  void post(std::function<void()> f) { postTo(this, std::move(f)); }

  quint64 m_frame;
  std::shared_ptr<ConversationReplay> m_replay;
  std::atomic<bool> m_cancel{false};
  WorkerThread m_worker;  // last: joined before the members it uses go
};

}  // namespace rudp::gui
