// The SQL the reader runs and the decoding of its rows into records.h
// structs (store_reader.cpp is the only user).
#pragma once
#include <string>

#include "store/records.h"
#include "store/sqlite.h"

namespace rudp::store {

// SELECT ... FROM connections (append a WHERE clause, or not); rows in id order
// unless a WHERE is appended.
extern const char* const kConnectionColumns;
ConnectionSummary connectionSummary(const sql::Statement& st);

// Reads the analysis of one connection at a time with statements prepared once.
class ConnectionAnalysisReader {
 public:
  explicit ConnectionAnalysisReader(sql::Database& db);
  ConnectionRecord read(const ConnectionSummary& summary);

 private:
  bool readDirection(int64_t conn, Direction dir, ana::DirectionMetrics& m);
  sql::Statement conn_, dir_, bursts_, stalls_, changes_, icmp_;
};

// The ICMP errors of connection ?1 (0: of every connection), in frame order.
extern const char* const kIcmpErrorSelect;
IcmpErrorRecord icmpErrorRecord(const sql::Statement& st);

// Event queries: WHERE conn = ?1 AND dir = ?2 and the time range ?3..?4.
extern const char* const kRttSelect;
extern const char* const kRetxSelect;
extern const char* const kLossSelect;
extern const char* const kStallSelect;
extern const char* const kRateSelect;
ana::RttEvent rttEvent(const sql::Statement& st, Direction dir);
ana::RetransmissionEvent retransmissionEvent(const sql::Statement& st, Direction dir);
ana::LossEvent lossEvent(const sql::Statement& st, Direction dir);
ana::StallEvent stallEvent(const sql::Statement& st, Direction dir);
ana::RateEvent rateEvent(const sql::Statement& st, Direction dir);

// The per-frame tables a packets query joins: those the database has rows
// in (a join of an empty table costs a full scan about 15 %).
struct PacketJoins {
  bool tcp_notes = false;
  bool echo_replies = false;
};

// A packets query built from a PacketQuery, each row with what `joins` has.
struct PacketSelect {
  PacketSelect(const PacketQuery& q, PacketJoins joins);
  void bind(sql::Statement& st) const;
  std::string sql;
  PacketJoins joins;

 private:
  PacketQuery q_;
};
PacketRecord packetRecord(const sql::Statement& st, PacketJoins joins);

}  // namespace rudp::store
