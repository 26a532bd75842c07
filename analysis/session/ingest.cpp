#include "session/ingest.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <optional>
#include <thread>
#include <unordered_map>

#include "capture/capture_reader.h"
#include "core/error.h"
#include "core/file_hash.h"
#include "core/time_gap.h"
#include "decode/capture_warnings.h"
#include "decode/decoder.h"
#include "decode/icmp.h"
#include "decode/quic_session.h"
#include "filter/display_filter.h"
#include "flow/connection_table.h"
#include "flow/icmp_echoes.h"
#include "flow/segment_extractor.h"
#include "flow/shared_endpoints.h"
#include "flow/tcp_notes.h"
#include "flow/two_level_datagram.h"
#include "session/connection_analyzers.h"
#include "session/dissect_pool.h"
#include "session/live_view.h"
#include "session/store_thread.h"
#include "store/db_path.h"
#include "store/schema.h"

namespace rudp {

namespace {

constexpr size_t kBatchPackets = 2048;  // also the progress / cancel granularity
constexpr size_t kBatchesInFlight = 3;  // read ahead of the dissector lanes

// Reads and decodes up to kBatchPackets packets into `b`; false at the end.
class BatchReader {
 public:
  // keepFrames: keep each whole frame in its slot (a display filter reads it).
  BatchReader(CaptureReader& r, DissectPool& pool, bool keepFrames)
      : reader_(r), decoder_(r.linkType()), pool_(pool), keep_frames_(keepFrames) {}

  // False at the end of the capture. A live capture that pauses ends the
  // batch early, possibly empty, so that what arrived is published now.
  bool fill(PacketBatch& b) {
    if (b.slots.size() < kBatchPackets) b.slots.resize(kBatchPackets);
    b.size = 0;
    while (b.size < kBatchPackets && !done_) {
      if (!reader_.next(raw_)) {
        done_ = !reader_.paused();
        break;
      }
      if (!started_) {
        started_ = true;
        pool_.setFirstTimestamp(raw_.ts_ns);
      }
      BatchSlot& s = b.slots[b.size++];
      decoder_.decode(raw_, s.pkt);
      // The decoder's pointers die with the next frame: keep copies.
      if (!keep_frames_ || !keepFrame(s)) {
        s.payload.assign(s.pkt.payload, s.pkt.payload + s.pkt.payload_len);
        s.pkt.payload = s.payload.data();
      }
      keepQuote(s);
      s.lane = dissectedUdpEnds(s.pkt) ? pool_.laneOf(s.pkt) : 0;
    }
    return b.size > 0 || !done_;
  }
  const Decoder& decoder() const { return decoder_; }

 private:
  // Copies the frame into the slot, and points the payload into the copy;
  // false when the caller must copy the payload itself.
  bool keepFrame(BatchSlot& s) const {
    s.frame.assign(raw_.data, raw_.data + raw_.caplen);
    s.raw = raw_;
    s.raw.data = s.frame.data();
    s.raw.interface_name = nullptr;  // the reader's, gone with the next frame
    const uint8_t* p = s.pkt.payload;
    rebaseBytes(s.pkt, raw_.data, raw_.caplen, s.frame.data());
    if (p != s.pkt.payload) return true;
    if (!p || !s.pkt.ip_reassembled) return false;
    // A reassembled datagram: its transport header comes along (the filter's udp/tcp bytes).
    const uint32_t header = s.pkt.l4 == L4::UDP ? 8 : s.pkt.l4 == L4::TCP ? s.pkt.tcp.header_len : 0;
    s.payload.assign(p - header, p + s.pkt.payload_len);
    s.pkt.payload = s.payload.data() + header;
    return true;
  }

  // An ICMP error's quote (the datagram the dissectors are offered), unless
  // the kept frame holds it.
  static void keepQuote(BatchSlot& s) {
    const IcmpError& e = s.pkt.icmp;
    if (!s.pkt.has_icmp_error || !e.quote) return;
    const auto at = reinterpret_cast<uintptr_t>(e.quote), kept = reinterpret_cast<uintptr_t>(s.frame.data());
    if (!s.frame.empty() && at >= kept && at <= kept + s.frame.size()) return;
    s.quote.assign(e.quote, e.quote + e.quote_len);
    rebaseBytes(s.pkt, e.quote, e.quote_len, s.quote.data());
  }

  CaptureReader& reader_;
  Decoder decoder_;
  DissectPool& pool_;
  const bool keep_frames_;
  RawPacket raw_;
  bool done_ = false, started_ = false;
};

// The in-order stage: connections, segments and rows, on the calling thread.
class FlowStage {
 public:
  // `keys`: the TLS key log QUIC connections open with (null: none).
  FlowStage(LuaHost& host, CaptureInfo& info, const IngestOptions& opts, const SharedEndpoints* shared,
            const quic::KeyLog* keys)
      : info_(info),
        protos_(host.protocols()),
        analyze_(opts.analyze_connections),
        idle_ns_(opts.idle_close_ns),
        max_open_(std::max<size_t>(opts.max_open_connections, 4)),
        analyzers_(protos_, opts.analysis),
        quic_(keys) {
    extractors_.resize(protos_.size());
    two_level_.resize(protos_.size());
    for (size_t i = 0; i < protos_.size(); ++i) {
      if (!protos_[i].has_contract) continue;
      if (protos_[i].contract.twoLevel())
        two_level_[i].emplace(protos_[i].contract.two_level, host.fields().size());
      else
        extractors_[i].emplace(protos_[i].contract, host.fields().size());
    }
    table_.setSharedEndpoints(shared);
  }

  // `notes`: the frame's TCP notes when worked out before (over every frame,
  // where this stage sees only those a display filter passes).
  void process(BatchSlot& s, RowBatch& out, const TcpNotes* notes = nullptr) {
    analyzers_.setOutput(&out);
    const DecodedPacket& pkt = s.pkt;
    const DissectResult& res = s.res;
    if (info_.packet_count == 0) info_.first_ts_ns = pkt.ts_ns;
    info_.last_ts_ns = pkt.ts_ns;  // capture order, as Wireshark's last packet
    ++info_.packet_count;

    PacketRow row;
    row.frame = pkt.frame;
    row.ts_ns = pkt.ts_ns;
    row.file_offset = pkt.file_offset;
    row.caplen = pkt.caplen;
    row.origlen = pkt.origlen;
    segs_.clear();
    if (!pkt.error.empty()) {
      row.status |= store::kDecodeError;
      ++info_.decode_errors;
      out.errors.emplace_back(pkt.frame, pkt.error);
    }
    if (pkt.ip_fragment) row.status |= store::kIpFragment;

    ConnectionTable::Hit hit;
    bool malformed = false;
    quic_read_ = false;
    if (pkt.l4 == L4::UDP) {
      if (res.lua_error) {
        row.status |= store::kLuaError;
        ++info_.lua_errors;
        out.errors.emplace_back(pkt.frame, res.error);
      }
      if (res.malformed) {
        row.status |= store::kMalformed;
        ++info_.malformed;
      }
      malformed = res.lua_error || res.malformed;
      if (res.proto >= 0) {
        dgram_.clear();
        if (auto& ex = extractors_[res.proto]) ex->extract(res, segs_);
        if (auto& ex = two_level_[res.proto]) ex->extract(res, dgram_, segs_);
        hit = table_.contractPacket(res.proto, protos_[res.proto].name,
                                    segs_.empty() ? nullptr : &segs_.front(), pkt);
      } else if (readQuic(pkt)) {
        hit = table_.quicPacket(pkt, quic_datagram_.from_client, quic_datagram_.connection);
      } else {
        hit = table_.udpPacket(pkt);
      }
    } else if (pkt.l4 == L4::TCP) {
      hit = table_.tcpPacket(pkt);
      row.tcp = true;
      row.tcp_header = pkt.tcp;
      row.tcp_payload = pkt.payload_reported_len;
    } else if (pkt.has_icmp_error) {
      recordIcmpError(pkt, out);
    } else {
      row.echo_request = echoes_.next(pkt);  // the packet list's "(request in N)"
    }
    if (hit.conn) {
      ConnectionTable::count(hit, pkt, static_cast<uint32_t>(segs_.size()), malformed);
      row.conn = hit.conn->id;
      row.dir = hit.dir;
      if (row.tcp) {
        row.tcp_notes = notes ? *notes : tcp_notes_.packet(row.conn, row.dir, pkt);
        recordSeqBases(row);
      }
      if (analyze_ && row.tcp)
        analyzers_.tcpPacket(*hit.conn, pkt.frame, pkt.ts_ns, hit.dir, pkt);
      else if (analyze_ && quic_read_)
        analyzers_.quicPacket(*hit.conn, pkt.frame, pkt.ts_ns, hit.dir, quic_datagram_,
                              quic_.parameters(quic_datagram_.connection, quic_datagram_.from_client), pkt);
      else if (analyze_ && hit.conn->proto_index < 0)  // no dissector claims the flow
        analyzers_.udpPacket(*hit.conn, pkt.frame, pkt.ts_ns, hit.dir, pkt);
      else if (analyze_ && !hit.foreign)  // the protocol's analysis is of its own datagrams
        analyzers_.contractPacket(*hit.conn, pkt.frame, pkt.ts_ns, hit.dir, segs_, dgram_, pkt);
    }
    out.add(row, segs_);
  }

  // A UDP payload no Lua dissector took, read as QUIC when it is (the
  // QUIC analyzer says when a connection stays encrypted).
  bool readQuic(const DecodedPacket& pkt) {
    if (!pkt.payload || pkt.payload_len == 0 || pkt.ip_fragment) return false;
    const quic::Endpoint src{pkt.src, pkt.sport}, dst{pkt.dst, pkt.dport};
    quic_read_ = quic_.read(src, dst, pkt.payload, pkt.payload_len, quic_datagram_);
    return quic_read_;
  }

  // Where the connection's relative sequence numbers start, stored when it
  // changes (the first frames each way, a port reuse).
  void recordSeqBases(PacketRow& row) {
    const TcpSeqBases& b = row.tcp_notes.bases;
    if (!b.known) return;
    auto& stored = seq_bases_[row.conn];
    auto note = [&](int dir, uint32_t base) {
      if (stored[dir] == base) return;
      stored[dir] = base;
      row.tcp_new_bases |= uint8_t(1 << dir);
      row.tcp_base[dir] = base;
    };
    const int dir = static_cast<int>(row.dir);
    note(dir, b.seq);
    if (row.tcp_header.flags & 0x10) note(1 - dir, b.ack);  // the ack's base is set by then
  }

  // An ICMP error about a connection's datagram: counted and kept with that
  // connection, not as one of its packets (its figures are of its own).
  void recordIcmpError(const DecodedPacket& pkt, RowBatch& out) {
    const ConnectionTable::Hit h = table_.icmpError(pkt);
    if (!h.conn) return;
    ++h.conn->dir[static_cast<int>(h.dir)].icmp_errors;
    const IcmpError& e = pkt.icmp;
    out.icmp_errors.push_back({h.conn->id, h.dir, pkt.frame, pkt.ts_ns, e.v6, e.type, e.code,
                               pkt.src.toString(), icmp::describe(e.v6, e.type, e.code)});
  }

  // Closes idle connections (once per second of capture time) and, past the
  // cap, the longest-silent ones; their rows and metrics go to `out`.
  void closeIdle(RowBatch& out) {
    const int64_t now = info_.last_ts_ns;
    const bool over = table_.connections().size() > max_open_;
    if (!over && swept_ && gapNs(now, last_sweep_ns_) >= 0 && gapNs(now, last_sweep_ns_) < 1'000'000'000)
      return;
    swept_ = true;
    last_sweep_ns_ = now;
    const size_t from = out.closed.size();
    table_.closeIdle(now, idle_ns_, max_open_, out.closed);
    analyzers_.setOutput(&out);
    for (size_t i = from; i < out.closed.size(); ++i) {
      const Connection& c = *out.closed[i];
      analyzers_.close(c.id);
      tcp_notes_.close(c.id);
      seq_bases_.erase(c.id);
      if (over && gapNs(now, c.last_ts_ns) < idle_ns_) ++closed_early_;
    }
  }

  const ConnectionTable& table() const { return table_; }
  ConnectionAnalyzers& analyzers() { return analyzers_; }
  size_t closedEarly() const { return closed_early_; }

 private:
  CaptureInfo& info_;
  const std::vector<ProtoInfo>& protos_;
  const bool analyze_;
  const int64_t idle_ns_;
  const size_t max_open_;
  bool swept_ = false;
  int64_t last_sweep_ns_ = 0;
  size_t closed_early_ = 0;
  std::vector<std::optional<SegmentExtractor>> extractors_;  // contract version 1
  std::vector<std::optional<TwoLevelExtractor>> two_level_;  // version 2
  TwoLevelDatagram dgram_;
  ConnectionTable table_;
  ConnectionAnalyzers analyzers_;
  TcpNoteTracker tcp_notes_;
  IcmpEchoes echoes_;
  std::unordered_map<int64_t, std::array<std::optional<uint32_t>, 2>> seq_bases_;  // as stored
  std::vector<Segment> segs_;
  quic::QuicSession quic_;
  quic::Datagram quic_datagram_;
  bool quic_read_ = false;  // the packet being processed is QUIC
};

// The settings the figures depend on, as readers get them back (StoreReader::settings).
AnalysisSettings settingsOf(const IngestOptions& options, const DissectorOptions& dissectors) {
  AnalysisSettings s;
  s.stall_ms = options.analysis.stall_ms;
  s.rtt_limits_ms.assign(options.analysis.rtt_limits_ms.begin(), options.analysis.rtt_limits_ms.end());
  s.analysed = options.analyze_connections;
  s.dissectors = dissectorFingerprint(dissectors);
  s.display_filter = options.display_filter;
  return s;
}

// The capture's description: its file as it stands once the reader is finished.
void describeFile(CaptureInfo& info, const CaptureReader& reader, const Decoder& decoder,
                  const std::string& path) {
  info.path = path;
  info.size = reader.fileSize();
  info.hash = hashFile(path);
  info.hash_algorithm = kFileHashAlgorithm;
  info.format = reader.format();
  info.link_type = reader.linkType();
  info.link_type_name = reader.linkTypeName();
  info.truncated = reader.truncated();
  info.warning = joinLines(captureWarnings(path, reader, decoder, info.packet_count));
}

// What the pipeline reads: a file, or a live capture writing one.
struct Source {
  CaptureReader& reader;
  std::string path;
  uint64_t total = 0;                                   // bytes, for progress; 0 for a live capture
  std::function<void(StoreWriter&)> beforeFinish = {};  // adds what only the caller knows
  // After each batch, before its rows go to the store (a live view).
  std::function<void(const RowBatch&, const ConnectionTable&, const CaptureInfo&, bool last)> onBatch = {};
  const SharedEndpoints* shared = nullptr;  // learnt from the file's first packets; none when live
};

// The endpoints many peers opened flows to, from the capture's first packets
// read by a reader of their own. A damaged record ends the scan: the analysis
// reports it.
SharedEndpoints scanSharedEndpoints(const std::string& capturePath) {
  constexpr uint64_t kScanPackets = 65536;  // 11 ms on the 1M-packet benchmark's capture
  SharedEndpoints shared;
  try {
    auto reader = CaptureReader::open(capturePath);
    Decoder decoder(reader->linkType());
    RawPacket raw;
    DecodedPacket pkt;
    for (uint64_t n = 0; n < kScanPackets && reader->next(raw); ++n) {
      decoder.decode(raw, pkt);
      shared.add(pkt);
    }
  } catch (const CaptureError&) {}
  return shared;
}

// Runs the pipeline over the source until its end, then completes the database.
IngestResult ingestSource(const Source& source, const std::string& dbPath, const DissectorOptions& dissectors,
                          const IngestOptions& options, const ProgressSink& progress) {
  CaptureReader& reader = source.reader;
  unsigned lanes = options.dissector_lanes;
  if (lanes == 0) lanes = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  DissectPool pool(dissectors, lanes);

  CaptureInfo info;
  StoreWriter store(dbPath);
  store.addProtocols(pool.host().protocols());
  // Its statements must be finalized before finish() closes the database.
  std::optional<AnalysisWriter> analysis(std::in_place, store);
  store.addSettings(settingsOf(options, dissectors));
  // A file's own TLS secrets come before its packets; a live capture has none.
  const auto quicKeys = loadKeyLog(dissectors, source.shared ? source.path : std::string());
  FlowStage flows(pool.host(), info, options, source.shared, quicKeys.get());
  const DisplayFilter filter(options.display_filter, pool.host());
  // With a filter, Wireshark's TCP notes (stored with the frames it keeps)
  // and the TCP and UDP streams come from every frame, as tshark -Y's.
  FilterFrameSequence sequence(reader.linkType(), !filter.passesAll());
  uint64_t filteredOut = 0;
  BatchReader batches(reader, pool, !filter.passesAll());
  // What the flow stage has done, for progress reports from this thread.
  std::atomic<uint64_t> packetsDone{0}, connectionsDone{0};
  auto report = [&](uint64_t done) {
    if (progress.report) progress.report({done, source.total, packetsDone, connectionsDone});
  };
  {
    StoreThread writer(store, *analysis, options.threaded_store);
    // The in-order stage: filter, connections and analysis, then the rows
    // to the writer. A live source stays on this thread: its counters read
    // the capture handle, which only this thread may use.
    auto flowBatch = [&](PacketBatch& b) {
      auto rows = writer.take();
      for (size_t i = 0; i < b.size; ++i) {
        BatchSlot& slot = b.slots[i];
        if (filter.passesAll()) {
          flows.process(slot, *rows);
          continue;
        }
        const FilterFrame frame = sequence.next(slot.raw, slot.pkt, &slot.res);
        if (filter.matchesShown(frame, sequence))
          flows.process(slot, *rows, frame.tcp_notes);
        else
          ++filteredOut;
      }
      flows.closeIdle(*rows);
      if (source.onBatch) source.onBatch(*rows, flows.table(), info, false);
      writer.write(std::move(rows));
      packetsDone = info.packet_count;
      connectionsDone = uint64_t(flows.table().created());
    };
    BatchWorker<PacketBatch> flowStage("rudp-flow", flowBatch, options.threaded_flows && !source.onBatch, 2);
    // Reading and decoding the next batches overlaps with dissecting earlier
    // ones, and both with the flow stage's and the writer's work.
    std::deque<std::unique_ptr<PacketBatch>> inFlight;
    struct Drain {  // on an error, no lane may still read a batch as it goes
      DissectPool& pool;
      ~Drain() { pool.drain(); }
    } drain{pool};
    // No read-ahead for a live source, which publishes each batch as it
    // arrives, nor with a single lane, which dissects on this thread anyway.
    const size_t readAhead = source.onBatch || pool.lanes() == 1 ? 1 : kBatchesInFlight;
    bool more = true;
    while (more || !inFlight.empty()) {
      if (more && inFlight.size() < readAhead) {
        auto b = flowStage.take();
        more = batches.fill(*b);
        if (b->size == 0 && !more) continue;  // the end: nothing to hand on
        pool.submit(*b);
        inFlight.push_back(std::move(b));
        continue;
      }
      pool.waitFor(*inFlight.front());
      flowStage.write(std::move(inFlight.front()));
      inFlight.pop_front();
      if (progress.cancelled()) throw Cancelled();
      report(reader.bytesRead());
    }
    flowStage.flush();
    // Events the analyzers emit while finishing (open stalls, late losses).
    auto last = writer.take();
    flows.analyzers().setOutput(last.get());
    flows.analyzers().finish();
    if (source.onBatch) source.onBatch(*last, flows.table(), info, true);
    writer.write(std::move(last));
    writer.flush();
    analysis->createIndexes();
  }
  analysis.reset();
  reader.finish();
  checkDamage(reader, info.packet_count, options.keep_damaged);
  describeFile(info, reader, batches.decoder(), source.path);
  if (source.beforeFinish) source.beforeFinish(store);
  store.finish(info, flows.table().connections());
  report(info.size);
  return IngestResult{store.path(), info, static_cast<size_t>(flows.table().created()), flows.closedEarly(),
                      filteredOut};
}

}  // namespace

IngestResult ingestCapture(const std::string& capturePath, const std::string& dbPath,
                           const DissectorOptions& dissectors, const IngestOptions& options,
                           const ProgressSink& progress) {
  auto reader = CaptureReader::open(capturePath);
  const SharedEndpoints shared = scanSharedEndpoints(capturePath);
  return ingestSource({*reader, capturePath, reader->fileSize(), {}, {}, &shared}, dbPath, dissectors,
                      options, progress);
}

IngestResult ingestLive(LiveCapture& capture, const std::string& dbPath, const DissectorOptions& dissectors,
                        const IngestOptions& options, const ProgressSink& progress, LiveView* view) {
  const LiveOptions& o = capture.options();
  auto addDrops = [&](StoreWriter& store) {
    const LiveCounters c = capture.counters();
    store.addLiveCapture(
        {o.interface, o.filter, o.snaplen, o.promiscuous, c.kernel_drops, c.interface_drops});
  };
  auto publish = [&](const RowBatch& batch, const ConnectionTable& table, const CaptureInfo& info,
                     bool last) {
    if (view) view->publish(batch, table.connections(), info, capture.counters(), last);
  };
  if (o.ring_files > 0 && !dbPath.empty())
    throw StoreError("a ring capture writes each file's database beside it: no database path can be given");
  if (view) view->setRttLimits(options.analysis.rtt_limits_ms);
  // A ring: one database per file, beside it, each what analysing that file gives.
  for (;;) {
    const std::string file = capture.currentFile();
    const std::string db = dbPath.empty() ? defaultDatabasePath(file) : dbPath;
    IngestResult r = ingestSource({capture, file, 0, addDrops, publish}, db, dissectors, options, progress);
    if (!capture.fileFull()) {
      if (view) view->finish();
      return r;
    }
    if (const std::string dropped = capture.rotate(); !dropped.empty())
      std::remove(defaultDatabasePath(dropped).c_str());
    if (view) view->startFile();
  }
}

}  // namespace rudp
