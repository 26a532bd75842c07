// Reads a finished database into plain structs (for the CLI summary and the GUI).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "store/store_writer.h"
#include "store/sqlite.h"

namespace rudp {

struct ConnectionSummary {
  int64_t id = 0;
  std::string protocol;
  std::string client, server;  // "ip:port"
  bool roles_from_handshake = false;
  bool has_conn_id = false;
  uint64_t conn_id = 0;
  int64_t first_ts_ns = 0, last_ts_ns = 0;
  uint32_t rebindings = 0;
  DirectionStats dir[2];
};

class StoreReader {
 public:
  // Opens read-only; throws StoreError unless the database is complete and
  // of this schema version.
  explicit StoreReader(const std::string& dbPath);

  CaptureInfo capture();
  std::vector<ConnectionSummary> connections();
  // One at a time, in order of id (memory independent of the count).
  void forEachConnection(const std::function<void(const ConnectionSummary&)>& f);
  sql::Database& database() { return db_; }

 private:
  sql::Database db_;
};

}  // namespace rudp
