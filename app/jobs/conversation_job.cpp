#include "jobs/conversation_job.h"

#include <chrono>
#include <exception>

namespace rudp::gui {

ConversationJob::ConversationJob(quint64 frame, std::shared_ptr<ConversationReplay> replay, QObject* parent)
    : QObject(parent), m_frame(frame), m_replay(std::move(replay)) {}

ConversationJob::~ConversationJob() { m_cancel.store(true, std::memory_order_relaxed); }

void ConversationJob::start() {
  m_worker.start(QStringLiteral("rudp-conversation"), [this] { work(); });
}

void ConversationJob::work() {
  using Clock = std::chrono::steady_clock;
  auto lastReport = Clock::now();
  const auto keepGoing = [&](double fraction) {
    if (Clock::now() - lastReport > std::chrono::milliseconds(100)) {  // a few reports a second at most
      lastReport = Clock::now();
      post([this, fraction] { emit progressed(m_frame, fraction); });
    }
    return !m_cancel.load(std::memory_order_relaxed);
  };
  try {
    if (std::optional<ConversationFacts> facts = m_replay->factsOf(m_frame, keepGoing))
      post([this, facts = *facts] { emit ready(m_frame, facts); });
  } catch (const std::exception& e) {
    const QString message = QString::fromStdString(e.what());
    post([this, message] { emit failed(m_frame, message); });
  }
}

}  // namespace rudp::gui
