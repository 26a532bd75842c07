#include "store/store_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <optional>

#include "core/error.h"
#include "store/batched_insert.h"
#include "store/chunk_buffers.h"
#include "store/frame_index.h"
#include "store/schema.h"

namespace rudp {

namespace {
constexpr int kBatch = 50000;  // rows per transaction

void removeWithSidecars(const std::string& p) {
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) std::remove((p + suffix).c_str());
}

void fsyncPath(const std::string& p, bool directory) {
  int fd = ::open(p.c_str(), directory ? O_RDONLY | O_DIRECTORY : O_RDONLY);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
}
}  // namespace

namespace {
// Binds the semantic columns of one segment starting at column `c`:
// kind role reliability seq ack ack_bits una ts ts_echo [flags] channel length window
template <class Bind, class Null>
void bindSegment(const Segment& s, int c, bool withFlags, Bind bind, Null null) {
  auto opt = [&](int col, bool present, int64_t v) { present ? bind(col, v) : null(col); };
  opt(c + 0, s.is(Segment::Kind), static_cast<int64_t>(s.kind));
  bind(c + 1, static_cast<int64_t>(s.role));
  bind(c + 2, static_cast<int64_t>(s.reliability));
  opt(c + 3, s.is(Segment::Seq), s.seq);
  opt(c + 4, s.is(Segment::Ack), s.ack);
  opt(c + 5, s.is(Segment::AckBits), s.ack_bits);
  opt(c + 6, s.is(Segment::Una), s.una);
  opt(c + 7, s.is(Segment::Ts), s.ts);
  opt(c + 8, s.is(Segment::Echo), s.ts_echo);
  int k = c + 9;
  if (withFlags) null(k++);
  opt(k, s.is(Segment::Channel), s.channel);
  opt(k + 1, s.is(Segment::Length), s.length);
  opt(k + 2, s.is(Segment::Window), s.window);
}
}  // namespace

namespace {
// The 22 columns of one packets row, starting after column `at`.
// A packets row: the packet and its first segment (the others go to extra_segments).
struct PacketInsert {
  PacketRow row;
  Segment first;
  size_t n;
};

void bindPacket(sql::Statement& st, int at, const PacketInsert& p) {
  const PacketRow& r = p.row;
  const size_t n = p.n;
  auto bind = [&](int col, int64_t v) { st.bind(at + col, v); };
  auto null = [&](int col) { st.bindNull(at + col); };
  bind(1, static_cast<int64_t>(r.frame));
  bind(2, r.ts_ns);
  if (r.conn) {
    bind(3, r.conn);
    bind(4, static_cast<int64_t>(r.dir));
  } else {
    null(3);
    null(4);
  }
  bind(5, static_cast<int64_t>(r.file_offset));
  bind(6, r.caplen);
  bind(7, r.origlen);
  bind(8, r.status);
  bind(9, static_cast<int64_t>(n));
  if (n) {
    bindSegment(p.first, 10, true, bind, null);
  } else if (r.tcp) {
    const TcpHeader& t = r.tcp_header;
    for (int c : {10, 11, 12, 16}) null(c);
    bind(13, t.seq);
    (t.flags & 0x10) ? bind(14, t.ack) : null(14);
    null(15);
    if (t.options.has_timestamps) {
      bind(17, t.options.tsval);
      bind(18, t.options.tsecr);
    } else {
      null(17);
      null(18);
    }
    bind(19, t.flags);
    null(20);
    bind(21, r.tcp_payload);
    bind(22, t.window);
  } else {
    for (int c = 10; c <= 22; ++c) null(c);
  }
}
}  // namespace

namespace {
// Frames per connection chunk of packet_chunks (about 4 s of a 60 Hz game
// connection: a time-range query seeks few frames outside its range), and
// frames held in all.
constexpr size_t kChunkFrames = 512;
constexpr size_t kMaxHeldFrames = 65536;

// A row of packet_chunks.
struct FrameList {
  int64_t conn, chunk, dir, last_frame, min_ts_ns, max_ts_ns;
  std::string frames;  // JSON array
};
void bindFrameList(sql::Statement& st, int at, const FrameList& f) {
  st.bind(at + 1, f.conn)
      .bind(at + 2, f.chunk)
      .bind(at + 3, f.dir)
      .bind(at + 4, f.last_frame)
      .bind(at + 5, f.min_ts_ns)
      .bind(at + 6, f.max_ts_ns)
      .bind(at + 7, std::string_view(f.frames));
}

// packet_chunks: the frames of each connection, by direction, in chunks (the
// packets table stays in frame order; this is its per-connection directory).
class PacketDirectory {
 public:
  explicit PacketDirectory(sql::Database& db)
      : ins_(db, "packet_chunks", 7, 16, bindFrameList),
        chunks_(kChunkFrames, kMaxHeldFrames,
                [this](int64_t conn, const std::vector<Frame>& f) { write(conn, f); }) {}

  void add(const PacketRow& r) {
    if (r.conn) chunks_.add(r.conn, {r.frame, r.ts_ns, r.dir});
  }
  void flush(int64_t conn) { chunks_.flush(conn); }
  void flushAll() {
    chunks_.flushAll();
    ins_.flush();
  }

 private:
  struct Frame {
    uint64_t frame;
    int64_t ts_ns;
    Direction dir;
  };
  // One row per direction present; both rows keyed by the chunk's first frame.
  void write(int64_t conn, const std::vector<Frame>& frames) {
    const auto chunk = static_cast<int64_t>(frames.front().frame);
    FrameList rows[2] = {{conn, chunk, 0, 0, INT64_MAX, INT64_MIN, {}},
                         {conn, chunk, 1, 0, INT64_MAX, INT64_MIN, {}}};
    for (FrameList& row : rows) row.frames.reserve(frames.size() * 8);
    for (const Frame& f : frames) {
      FrameList& row = rows[static_cast<int>(f.dir)];
      row.frames.push_back(row.frames.empty() ? '[' : ',');
      char buf[24];
      row.frames.append(buf, std::to_chars(buf, buf + sizeof buf, f.frame).ptr);
      row.last_frame = static_cast<int64_t>(f.frame);
      row.min_ts_ns = std::min(row.min_ts_ns, f.ts_ns);
      row.max_ts_ns = std::max(row.max_ts_ns, f.ts_ns);
    }
    for (FrameList& row : rows) {
      if (row.frames.empty()) continue;
      row.frames.push_back(']');
      ins_.add(std::move(row));
    }
  }

  sql::BatchedInsert<FrameList> ins_;
  sql::ChunkBuffers<int64_t, Frame, std::function<void(int64_t, const std::vector<Frame>&)>> chunks_;
};
}  // namespace

struct StoreWriter::Impl {
  sql::Database db;
  std::optional<sql::BatchedInsert<PacketInsert>> insPacket;  // 16 rows per statement
  std::optional<sql::Statement> insExtra, insError, insConn, insIcmp, insTcpNotes, insTcpBase, insEchoReply;
  std::optional<PacketDirectory> directory;
  std::optional<sql::Statement> insIndex;
  store::FrameIndexEncoder frameIndex;
  int pending = 0;

  explicit Impl(const std::string& path) : db(path, sql::Database::Mode::ReadWriteCreate) {
    db.exec("PRAGMA journal_mode = WAL");
    // The partial file is discarded on any failure, so per-transaction
    // durability buys nothing; the finished file is fsynced before rename.
    db.exec("PRAGMA synchronous = OFF");
    db.exec("PRAGMA cache_size = -4096");
    store::createSchema(db);
    insPacket.emplace(db, "packets", 22, 16, bindPacket);
    insConn.emplace(db,
                    "INSERT INTO connections VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    insExtra.emplace(db, "INSERT INTO extra_segments VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    insError.emplace(db, "INSERT INTO packet_errors VALUES (?,?)");
    insTcpNotes.emplace(db, "INSERT INTO tcp_notes VALUES (?,?,?,?)");
    insTcpBase.emplace(db, "INSERT INTO tcp_seq_bases VALUES (?,?,?,?)");
    insEchoReply.emplace(db, "INSERT INTO icmp_echo_replies VALUES (?,?,?)");
    insIcmp.emplace(db, "INSERT INTO icmp_errors VALUES (?,?,?,?,?,?,?,?,?)");
    directory.emplace(db);
    insIndex.emplace(db, "INSERT INTO frame_index VALUES (?,?,?)");
    db.exec("BEGIN");
  }

  void indexFrame(const PacketRow& r) {
    frameIndex.add(r.frame, r.ts_ns, r.origlen, r.caplen);
    if (frameIndex.count() == store::kFramesPerIndexRow) writeFrameIndex();
  }
  void writeFrameIndex() {
    if (frameIndex.count() == 0) return;
    insIndex->bind(1, static_cast<int64_t>(frameIndex.firstFrame()))
        .bind(2, static_cast<int64_t>(frameIndex.count()))
        .bindBlob(3, frameIndex.take());
    insIndex->run();
  }

  void tick() {
    if (++pending >= kBatch) {
      db.exec("COMMIT");
      db.exec("BEGIN");
      pending = 0;
    }
  }
};

StoreWriter::StoreWriter(const std::string& dbPath) : final_(dbPath), partial_(dbPath + ".partial") {
  removeWithSidecars(partial_);
  try {
    d = std::make_unique<Impl>(partial_);
  } catch (...) {
    removeWithSidecars(partial_);  // e.g. the disk filled while creating the schema
    throw;
  }
}

StoreWriter::~StoreWriter() {
  if (d) {
    d.reset();
    removeWithSidecars(partial_);
  }
}

sql::Database& StoreWriter::database() { return d->db; }
void StoreWriter::tick() { d->tick(); }

void StoreWriter::addSettings(const AnalysisSettings& settings) {
  sql::Statement st(d->db, "INSERT INTO meta(key, value) VALUES (?, ?)");
  auto put = [&](const std::string& k, const std::string& v) {
    st.bind(1, k).bind(2, std::string_view(v));
    st.run();
  };
  // "%g", as the limits name the share_above keys of `analyze --json`.
  auto number = [](double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return std::string(buf);
  };
  put("stall_ms", number(settings.stall_ms));
  for (size_t i = 0; i < settings.rtt_limits_ms.size(); ++i)
    put("rtt_limit_" + std::to_string(i + 1), number(settings.rtt_limits_ms[i]));
  put("analysed", settings.analysed ? "1" : "0");
  put("dissectors", settings.dissectors);
  put("display_filter", settings.display_filter);
}

void StoreWriter::addLiveCapture(const LiveCaptureRecord& live) {
  sql::Statement st(d->db, "INSERT INTO live_capture VALUES (1,?,?,?,?,?,?)");
  st.bind(1, live.interface)
      .bind(2, live.filter)
      .bind(3, int64_t{live.snaplen})
      .bind(4, int64_t{live.promiscuous})
      .bind(5, static_cast<int64_t>(live.kernel_drops))
      .bind(6, static_cast<int64_t>(live.interface_drops));
  st.run();
}

void StoreWriter::addProtocols(const std::vector<ProtoInfo>& protos) {
  sql::Statement st(d->db, "INSERT INTO protocols VALUES (?,?,?,?,?)");
  for (size_t i = 0; i < protos.size(); ++i) {
    st.bind(1, static_cast<int64_t>(i))
        .bind(2, protos[i].name)
        .bind(3, protos[i].description)
        .bind(4, protos[i].script)
        .bind(5, int64_t{protos[i].has_contract});
    st.run();
  }
}

void StoreWriter::addPacket(const PacketRow& r, const Segment* segs, size_t n) {
  d->insPacket->add({r, n ? segs[0] : Segment{}, n});
  d->directory->add(r);
  d->indexFrame(r);
  d->tick();
  for (size_t i = 1; i < n; ++i) {
    auto& ex = *d->insExtra;
    ex.bind(1, static_cast<int64_t>(r.frame)).bind(2, static_cast<int64_t>(i));
    bindSegment(
        segs[i], 3, false, [&](int col, int64_t v) { ex.bind(col, v); }, [&](int col) { ex.bindNull(col); });
    ex.run();
    d->tick();
  }
  if (r.tcp_notes.flags) {
    d->insTcpNotes->bind(1, static_cast<int64_t>(r.frame))
        .bind(2, int64_t{r.tcp_notes.flags})
        .bind(3, int64_t{r.tcp_notes.dup_ack_num})
        .bind(4, static_cast<int64_t>(r.tcp_notes.dup_ack_frame));
    d->insTcpNotes->run();
    d->tick();
  }
  if (r.echo_request) {
    d->insEchoReply->bind(1, static_cast<int64_t>(r.frame))
        .bind(2, static_cast<int64_t>(r.echo_request->frame))
        .bind(3, r.echo_request->ts_ns)
        .run();
    d->tick();
  }
  for (int dir = 0; dir < 2; ++dir) {
    if (!(r.tcp_new_bases & (1 << dir))) continue;
    d->insTcpBase->bind(1, r.conn).bind(2, int64_t{dir}).bind(3, static_cast<int64_t>(r.frame));
    d->insTcpBase->bind(4, int64_t{r.tcp_base[dir]}).run();
    d->tick();
  }
}

void StoreWriter::flushPackets() { d->insPacket->flush(); }

void StoreWriter::addPacketError(uint64_t frame, const std::string& message) {
  d->insError->bind(1, static_cast<int64_t>(frame)).bind(2, message);
  d->insError->run();
  d->tick();
}

void StoreWriter::addIcmpError(const IcmpErrorRecord& e) {
  d->insIcmp->bind(1, e.conn)
      .bind(2, int64_t(e.dir))
      .bind(3, static_cast<int64_t>(e.frame))
      .bind(4, e.ts_ns)
      .bind(5, int64_t{e.v6 ? 6 : 4})
      .bind(6, int64_t{e.type})
      .bind(7, int64_t{e.code})
      .bind(8, e.reporter)
      .bind(9, e.description);
  d->insIcmp->run();
  d->tick();
}

void StoreWriter::addConnection(const Connection& x) {
  sql::Statement& con = *d->insConn;
  con.bind(1, x.id)
      .bind(2, x.protocol)
      .bind(3, x.client.ip.toString())
      .bind(4, int64_t{x.client.port})
      .bind(5, x.server.ip.toString())
      .bind(6, int64_t{x.server.port})
      .bind(7, int64_t{x.roles_from_handshake});
  x.has_conn_id ? con.bind(8, static_cast<int64_t>(x.conn_id)) : con.bindNull(8);
  con.bind(9, x.first_ts_ns).bind(10, x.last_ts_ns).bind(11, int64_t{x.rebindings});
  int col = 12;
  for (const DirectionStats& s : x.dir)
    for (uint64_t v :
         {s.packets, s.bytes, s.payload_bytes, s.segments, s.malformed, s.foreign, s.icmp_errors})
      con.bind(col++, static_cast<int64_t>(v));
  con.bind(col, std::string_view(x.roles_reason));
  con.run();
  d->directory->flush(x.id);
  d->tick();
}

void StoreWriter::finish(const CaptureInfo& c, const std::vector<std::unique_ptr<Connection>>& conns) {
  flushPackets();
  sql::Statement cap(d->db, "INSERT INTO capture VALUES (1,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
  cap.bind(1, c.path)
      .bind(2, static_cast<int64_t>(c.size))
      .bind(3, c.hash)
      .bind(4, c.hash_algorithm)
      .bind(5, c.format)
      .bind(6, int64_t{c.link_type})
      .bind(7, c.link_type_name);
  if (c.packet_count)
    cap.bind(8, c.first_ts_ns).bind(9, c.last_ts_ns);
  else
    cap.bindNull(8).bindNull(9);
  cap.bind(10, static_cast<int64_t>(c.packet_count))
      .bind(11, int64_t{c.truncated})
      .bind(12, c.warning)
      .bind(13, static_cast<int64_t>(c.decode_errors))
      .bind(14, static_cast<int64_t>(c.malformed))
      .bind(15, static_cast<int64_t>(c.lua_errors));
  cap.run();

  for (const auto& cp : conns) addConnection(*cp);
  d->directory->flushAll();  // frames of connections never reported
  d->writeFrameIndex();
  d->db.exec("UPDATE meta SET value = '1' WHERE key = 'complete'");
  d->db.exec("COMMIT");
  d->db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  // WAL while writing; the finished file in rollback mode, so read-only
  // readers (the GUI, the CLI summary) leave no -wal/-shm files beside it.
  d->db.exec("PRAGMA journal_mode = DELETE");
  d->insPacket.reset();
  d->insExtra.reset();
  d->insError.reset();
  d->insTcpNotes.reset();
  d->insEchoReply.reset();
  d->insConn.reset();
  d->directory.reset();
  d->insIndex.reset();
  d.reset();  // closing the last connection removes the -wal file
  fsyncPath(partial_, false);

  // Replace the previous result in one step; its sidecars belong to it.
  for (const char* suffix : {"-wal", "-shm"}) std::remove((final_ + suffix).c_str());
  if (std::rename(partial_.c_str(), final_.c_str()) != 0) {
    std::string err = errnoMessage(errno);
    removeWithSidecars(partial_);
    throw StoreError("cannot move '" + partial_ + "' to '" + final_ + "': " + err);
  }
  auto dir = std::filesystem::path(final_).parent_path();
  fsyncPath(dir.empty() ? "." : dir.string(), true);
}

}  // namespace rudp
