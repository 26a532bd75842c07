// Words for the enums and bit fields of the store's records, as the GUI
// shows them (the store keeps numbers; the analysis' names use underscores).
#pragma once
#include <QString>
#include <cstdint>

#include "analyzers/events.h"
#include "store/records.h"

namespace rudp::gui {

// "retransmission_timeout" -> "retransmission timeout".
QString analysisWords(const char* name);
QString stallCauseText(ana::StallCause c);
QString vantageText(ana::Vantage v);
// The connection's protocol, "udp (timing only)" for a flow no dissector
// claims (analyzers/timing_analyzer.h).
QString protocolText(const ConnectionRecord& r);

// The contract's segment role and reliability, stored as numbers
// (core/contract.h: SegmentRole, Reliability).
QString segmentRoleText(int64_t role);
QString reliabilityText(int64_t reliability);

// store::PacketStatus bits in words, "ok" for none.
QString packetStatusText(int status);

// TCP flag bits, "SYN, ACK"; empty for none.
QString tcpFlagsText(int64_t flags);

// A 32-bit bitmap as hex and bits, most significant first:
// "0x0000000b (…1011)" shows the bits up to the highest set one.
QString ackBitsText(int64_t bits);

// What reading the capture left to say (cut off, a damaged record kept, link
// types not decoded: CaptureInfo::warning's lines), as one banner line.
QString readWarningText(const CaptureInfo& capture);

}  // namespace rudp::gui
