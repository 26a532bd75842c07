// The conversations Wireshark follows in its one pass over a capture, for
// frames read in capture order: TCP's analysis notes with its stream and
// SEQ/ACK analysis (TcpNotesByPair), the streams of every UDP header
// (UdpStreams) and the ICMP echo request each reply answers (IcmpEchoes). One per reading: display filters
// and `decode -e` over those fields, `decode -V`'s details, the Packets page's background replay. A value:
// copied, it goes on as the original would (the replay's checkpoints).
#pragma once
#include <optional>

#include "core/packet.h"
#include "flow/icmp_echoes.h"
#include "flow/tcp_notes.h"
#include "flow/udp_streams.h"

namespace rudp {

// One frame's: its TCP notes (empty without TCP), its TCP stream and SEQ/ACK
// analysis (a TCP segment's), its UDP headers' streams, and an echo reply's request.
struct ConversationFrame {
  TcpNotes notes;
  std::optional<TcpFrameDetails> tcp;
  FrameUdpStreams udp;
  std::optional<EchoRequest> echo_request;
};

class ConversationTracker {
 public:
  // The next frame's, which stays valid until the next call.
  const ConversationFrame& next(const DecodedPacket& pkt) {
    last_.notes = tcp_.packet(pkt);
    last_.tcp = tcp_.lastDetails().known ? std::optional(tcp_.lastDetails()) : std::nullopt;
    last_.udp = udp_.next(pkt);
    last_.echo_request = echoes_.next(pkt);
    return last_;
  }
  const ConversationFrame& last() const { return last_; }

 private:
  TcpNotesByPair tcp_{true};
  UdpStreams udp_;
  IcmpEchoes echoes_;
  ConversationFrame last_;
};

}  // namespace rudp
