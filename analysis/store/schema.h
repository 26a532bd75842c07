// The database schema, one database per analysed capture.
#pragma once
#include "store/sqlite.h"

namespace rudp::store {

// Bumped on every incompatible change; readers reject other versions.
// 2: chunk directories (rtt, rate, packet); 3: live_capture; 7: frame_index;
// 8: tcp_notes; 9: tcp_seq_bases; 10: icmp_echo_replies; 13: rate_changes;
// 14: the same tables, analysed anew (roles from many peers, fields found in
// the first 32 payload bytes): a version-13 database is not reused.
inline constexpr int kSchemaVersion = 15;

// Creates every table in an empty database.
void createSchema(sql::Database& db);

// Throws StoreError with a one-line reason unless `db` is a complete
// rudpscope database of this schema version.
void checkReadable(sql::Database& db);

// Packet status bits (packets.status).
enum PacketStatus : int {
  kDecodeError = 1,  // link/IP/transport header malformed or cut
  kMalformed = 2,    // the dissector flagged the datagram malformed
  kLuaError = 4,     // the dissector raised an error on this packet
  kIpFragment = 8,   // an IPv4 or IPv6 fragment whose datagram is not complete in this frame
};

}  // namespace rudp::store
