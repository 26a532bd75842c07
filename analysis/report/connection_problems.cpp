#include "report/connection_problems.h"

#include <algorithm>

#include "report/loss_span.h"
#include "report/severity.h"
#include "report/wording.h"
#include "store/store_reader.h"

namespace rudp::report {

namespace {

const char* causeWords(ana::StallCause c, Direction d) {
  const bool c2s = d == Direction::ClientToServer;
  switch (c) {
    case ana::StallCause::RetransmissionTimeout: return "data lost, resent on retransmission timeouts";
    case ana::StallCause::PeerSilent: return c2s ? "the server sent nothing" : "the client sent nothing";
    case ana::StallCause::ZeroWindow: return "the receiver's window was closed";
    case ana::StallCause::AcksLost: return "acks were lost, data resent needlessly";
    default: return "unknown cause";
  }
}

// A silence of a flow analysed from timing alone (timing_analyzer.h).
bool timingCause(ana::StallCause c) {
  return c == ana::StallCause::BothQuiet || c == ana::StallCause::LocalQuiet ||
         c == ana::StallCause::RemoteQuiet || c == ana::StallCause::OneSideQuiet;
}

// "freeze at 3.371 s: neither side sent anything", "silence at ...".
std::string silenceWords(const ana::StallEvent& s, const std::string& at) {
  const bool c2s = s.dir == Direction::ClientToServer;
  if (s.cause == ana::StallCause::BothQuiet) return "freeze at " + at + ": neither side sent anything";
  std::string text = "silence at " + at + ": the " + (c2s ? "client" : "server") +
                     " sent nothing while the " + (c2s ? "server" : "client") + " kept sending";
  if (s.cause == ana::StallCause::LocalQuiet)
    text += " (the capture host went quiet: a local hang, or it had nothing to send)";
  if (s.cause == ana::StallCause::RemoteQuiet) text += " (the peer or the path)";
  return text;
}

std::string runWords(const RetransmissionRun& r) {
  return format("%u timeout retransmission%s in a row (seq %u, attempt%s %u\u2013%u)", r.count,
                r.count == 1 ? "" : "s", r.seq, r.count == 1 ? "" : "s", r.first_attempt, r.last_attempt);
}

bool overlaps(int64_t a0, int64_t a1, int64_t b0, int64_t b1) { return a0 <= b1 && b0 <= a1; }

}  // namespace

ConnectionProblems::ConnectionProblems(StoreReader& reader, const ConnectionRecord& conn,
                                       int64_t captureStartNs, const AnalysisSettings& settings,
                                       const ProblemThresholds& thresholds)
    : reader_(reader), conn_(conn), start_ns_(captureStartNs), settings_(settings), thr_(thresholds) {}

std::vector<Problem> ConnectionProblems::find() {
  out_.clear();
  if (!conn_.has_analysis) return out_;
  for (size_t d = 0; d < 2; ++d)
    stalls_[d] = TimeSpans(metrics(Direction(d)).stalls,
                           [](const ana::StallEvent& s) { return std::make_pair(s.start_ns, s.end_ns); });
  for (Direction d : {Direction::ClientToServer, Direction::ServerToClient})
    if (conn_.has_direction[static_cast<size_t>(d)]) findInDirection(d);
  return std::move(out_);
}

const ana::DirectionMetrics& ConnectionProblems::metrics(Direction d) const {
  return conn_.metrics.dir[static_cast<size_t>(d)];
}

double ConnectionProblems::medianGapMs(Direction d) const { return packetGapMs(metrics(d)); }

std::string ConnectionProblems::prefix() const { return connectionLabel(conn_.summary) + ": "; }

Problem ConnectionProblems::at(ProblemKind kind, Direction d, int64_t start_ns, int64_t end_ns,
                               uint64_t frame) const {
  Problem p;
  p.kind = kind;
  p.conn = conn_.summary.id;
  p.dir = d;
  p.start_ns = start_ns;
  p.end_ns = end_ns;
  p.frame = frame;
  return p;
}

void ConnectionProblems::findInDirection(Direction d) {
  const ana::DirectionMetrics& m = metrics(d);
  std::vector<RetransmissionRun> runs;
  if (m.retransmissions_timeout > 0) runs = timeoutRuns(reader_.retransmissions(conn_.summary.id, d), 1);
  const std::vector<Burst> bursts = longBursts(d);
  for (const auto& s : m.stalls) addStall(s, runs, bursts);
  for (const auto& r : runs)
    if (r.count >= thr_.min_timeout_run && !insideStall(d, r.start_ns, r.end_ns)) addRun(r);
  for (const auto& b : bursts)
    if (!insideStall(d, b.start_ns, b.end_ns)) addBurst(d, b);
  addRttOverLimit(d);
  addHighLoss(d);
  for (const auto& e : m.rate_changes) addRateChange(e);
}

// "server→client rate fell to 16.0 packets/s (usually 64) at 5.003–8.002 s"; a
// drop harms in proportion to the packets missing, a burst a little.
void ConnectionProblems::addRateChange(const ana::RateChangeEvent& e) {
  Problem p = at(ProblemKind::RateChange, e.dir, e.start_ns, e.end_ns, e.first_frame);
  const double ms = double(e.end_ns - e.start_ns) / 1e6;
  const bool drop = e.kind == ana::RateChangeKind::Drop;
  p.severity = drop ? ms * (1 - e.rate_hz / e.usual_hz) / 2 : ms / 20;
  p.text = prefix() + directionWords(e.dir) + " " + rateChangeWords(e) + " " +
           (e.open ? "from " + secondsAt(e.start_ns, start_ns_) + " to the end"
                   : "at " + secondsAt(e.start_ns, start_ns_) + "\u2013" + secondsAt(e.end_ns, start_ns_));
  out_.push_back(std::move(p));
}

bool ConnectionProblems::insideStall(Direction d, int64_t from_ns, int64_t to_ns) const {
  return stalls_[static_cast<size_t>(d)].touches(from_ns, to_ns);
}

ConnectionProblems::Burst ConnectionProblems::toBurst(const ana::LossEvent& ev, Direction d) {
  const LossSpan span = lossSpan(reader_, ev, medianGapMs(d));
  return Burst{span.start_ns, span.end_ns, ev.count, ev.first_seq, span.frame};
}

std::vector<ConnectionProblems::Burst> ConnectionProblems::longBursts(Direction d) {
  std::vector<Burst> out;
  const auto& hist = metrics(d).loss_bursts;
  if (hist.empty() || hist.rbegin()->first < thr_.long_loss_burst) return out;
  for (const auto& ev : reader_.losses(conn_.summary.id, d))
    if (ev.count >= thr_.long_loss_burst) out.push_back(toBurst(ev, d));
  return out;
}

void ConnectionProblems::addStall(const ana::StallEvent& s, const std::vector<RetransmissionRun>& runs,
                                  const std::vector<Burst>& bursts) {
  Problem p = at(ProblemKind::Stall, s.dir, s.start_ns, s.end_ns, s.first_frame);
  p.severity = stallSeverity(s);
  if (timingCause(s.cause)) {
    p.text = prefix() + durationText(s.duration_ms) + " " +
             silenceWords(s, secondsAt(s.start_ns, start_ns_)) +
             (s.open ? "; still quiet when the capture ends" : "");
    out_.push_back(std::move(p));
    return;
  }
  p.text = prefix() + durationText(s.duration_ms) + " stall at " + secondsAt(s.start_ns, start_ns_) + ": " +
           directionWords(s.dir) + " data waited for an ack (" + causeWords(s.cause, s.dir) + ")";
  if (s.retransmissions > 0)
    p.text += format("; %u cop%s resent", s.retransmissions, s.retransmissions == 1 ? "y" : "ies");
  const RetransmissionRun run = longestRunWithin(runs, s.start_ns, s.end_ns);
  if (run.count >= thr_.min_timeout_run) p.text += ", " + runWords(run);
  uint32_t lostInRow = 0;
  for (const auto& b : bursts)
    if (overlaps(b.start_ns, b.end_ns, s.start_ns, s.end_ns)) lostInRow = std::max(lostInRow, b.count);
  if (lostInRow > 0) p.text += format(", %u packets lost in a row", lostInRow);
  if (s.open) p.text += "; still waiting when the capture ends";
  if (s.estimated) p.text += "; estimated from the receiver's side";
  out_.push_back(std::move(p));
}

void ConnectionProblems::addRun(const RetransmissionRun& r) {
  Problem p = at(ProblemKind::RetransmissionRun, r.dir, r.start_ns, r.end_ns, r.first_frame);
  p.severity = runSeverity(r);
  p.text = prefix() + runWords(r) + " at " + secondsAt(r.start_ns, start_ns_) + ": " + directionWords(r.dir) +
           " data waited " + durationText(r.waitedMs()) + " for an ack";
  out_.push_back(std::move(p));
}

void ConnectionProblems::addBurst(Direction d, const Burst& b) {
  Problem p = at(ProblemKind::LossBurst, d, b.start_ns, b.end_ns, b.frame);
  p.severity = burstSeverity(b.count, medianGapMs(d));
  p.text = prefix() + format("%u ", b.count) + directionWords(d) + " packets lost in a row at " +
           secondsAt(b.start_ns, start_ns_) + format(" (from seq %u, about ", b.first_seq) +
           durationText(b.count * medianGapMs(d)) + " of traffic)";
  out_.push_back(std::move(p));
}

void ConnectionProblems::addRttOverLimit(Direction d) {
  const ana::RttStats& rtt = metrics(d).rtt;
  const auto& limits = settings_.rtt_limits_ms;
  if (limits.empty() || rtt.samples == 0) return;
  const size_t top = std::max_element(limits.begin(), limits.end()) - limits.begin();
  if (top >= rtt.share_above.size()) return;
  const double share = rtt.share_above[top], limit = limits[top];
  const double over = share * static_cast<double>(rtt.samples);
  if (share < thr_.min_share_over_limit || over + 0.5 < static_cast<double>(thr_.min_samples_over_limit))
    return;
  // Where on the timeline: from the first sample over the limit to the last.
  Problem p = at(ProblemKind::RttOverLimit, d, conn_.summary.first_ts_ns, conn_.summary.last_ts_ns, 0);
  bool first = true;
  for (const auto& e : reader_.rttSamples(conn_.summary.id, d)) {
    if (e.rtt_ms <= limit) continue;
    if (first) p.start_ns = e.ts_ns, p.frame = e.frame, first = false;
    p.end_ns = e.ts_ns;
  }
  p.severity = rateSeverity(share);
  p.text = prefix() + percentText(share) + " of " + directionWords(d) + " " + rttSpanWords(rtt.span) +
           format(" samples above %g ms (p95 ", limit) + durationText(rtt.p95) + ", max " +
           durationText(rtt.max) + format(", %llu samples)", static_cast<unsigned long long>(rtt.samples));
  if (conn_.metrics.timing_only)  // the echo of this direction's counter travels the other way
    p.text += ", inferred from an echo of the counter: " +
              inferredFieldText(metrics(d == Direction::ClientToServer ? Direction::ServerToClient
                                                                       : Direction::ClientToServer)
                                    .ack_field);
  out_.push_back(std::move(p));
}

void ConnectionProblems::addHighLoss(Direction d) {
  const ana::DirectionMetrics& m = metrics(d);
  const double fraction = lossFraction(m, conn_.metrics.vantage, d);
  if (m.lost == 0 || fraction < thr_.min_loss_fraction) return;
  // Seqs lost during a stall are that stall's harm already; only the rest
  // count towards this one's severity.
  Problem p = at(ProblemKind::HighLoss, d, conn_.summary.first_ts_ns, conn_.summary.last_ts_ns, 0);
  uint64_t inStalls = 0;
  p.start_ns = p.end_ns;
  for (const auto& ev : reader_.losses(conn_.summary.id, d)) {
    const Burst b = toBurst(ev, d);  // points at the earliest lost data
    if (b.start_ns < p.start_ns) p.frame = b.frame, p.start_ns = b.start_ns;
    if (insideStall(d, b.start_ns, b.end_ns)) inStalls += ev.count;
  }
  const uint64_t outside = m.lost > inStalls ? m.lost - inStalls : 0;
  p.severity = rateSeverity(fraction * static_cast<double>(outside) / static_cast<double>(m.lost));
  const uint32_t longest = m.loss_bursts.empty() ? 0 : m.loss_bursts.rbegin()->first;
  if (conn_.metrics.timing_only) {
    p.text = prefix() + percentText(fraction) + " of " + directionWords(d) +
             format(" packets lost before the capture (%llu, longest run %u), inferred from a counter: ",
                    static_cast<unsigned long long>(m.lost), longest) +
             inferredFieldText(m.seq_field);
    out_.push_back(std::move(p));
    return;
  }
  p.text = prefix() + percentText(fraction) + " of " + directionWords(d) +
           format(" data lost (%llu seqs, longest run %u", static_cast<unsigned long long>(m.lost), longest);
  if (inStalls > 0) p.text += format(", %llu during stalls", static_cast<unsigned long long>(inStalls));
  p.text += ")";
  out_.push_back(std::move(p));
}

}  // namespace rudp::report
