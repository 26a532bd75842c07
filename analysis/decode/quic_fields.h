// QUIC's display-filter and `decode -e` fields, named and valued as
// Wireshark's packet-quic.c adds them (`tshark -o tls.keylog_file:K -T
// fields -e quic.…`): one value per occurrence in the tree's order, per
// packet of a coalesced datagram and per frame. Values come from a
// quic::Datagram (quic_session.h), so only for frames read in capture order.
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "decode/quic_session.h"

namespace rudp::quic {

enum class FieldType : uint8_t {
  Protocol,  // "quic": present or not
  Unsigned,
  Hex32,  // quic.version: tshark prints 0x%08x
  Bool,   // printed 1 / 0
  Bytes,  // connection ids: lower-case hex
};

struct FieldValue {
  uint64_t u = 0;
  std::string_view bytes;  // Bytes: into the Datagram
};

const std::vector<std::string_view>& fieldNames();
FieldType fieldType(size_t i);
// Field `i`'s values in `d`, appended to `out` in tshark's order.
void fieldValues(size_t i, const Datagram& d, std::vector<FieldValue>& out);

}  // namespace rudp::quic
