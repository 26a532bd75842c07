#include "analyzers/seq_window.h"

namespace rudp::ana {

void SeqWindow::start(uint32_t seq) {
  started_ = true;
  slid_ = false;
  if (ring_.empty()) ring_.resize(kMinCap);
  base_ = top_ = seq;
  at(seq) = SeqSlot{};
  at(seq).seq = seq;
}

bool SeqWindow::prepend(uint32_t seq) {
  const uint32_t span = top_ - seq + 1;
  if (span > kMaxCap || slid_) return false;
  while (span > ring_.size()) grow();
  while (base_ != seq) {
    --base_;
    at(base_) = SeqSlot{};
    at(base_).seq = base_;
  }
  return true;
}

void SeqWindow::grow() {
  std::vector<SeqSlot> bigger(ring_.size() * 2);
  for (uint32_t s = base_;; ++s) {
    bigger[s & (bigger.size() - 1)] = at(s);
    if (s == top_) break;
  }
  ring_.swap(bigger);
}

}  // namespace rudp::ana
