#include "session/ingest.h"

#include <optional>

#include "capture/capture_reader.h"
#include "core/error.h"
#include "core/file_hash.h"
#include "decode/decoder.h"
#include "flow/connection_table.h"
#include "flow/segment_extractor.h"
#include "store/schema.h"

namespace rudp {

namespace {
constexpr uint64_t kProgressEvery = 8192;  // packets between progress reports / cancel checks
}

IngestResult ingestCapture(const std::string& capturePath, const std::string& dbPath,
                           LuaHost& host, const ProgressSink& progress) {
  auto reader = CaptureReader::open(capturePath);
  CaptureInfo info;
  info.path = capturePath;
  info.size = reader->fileSize();
  info.hash = hashFile(capturePath);
  info.hash_algorithm = kFileHashAlgorithm;
  info.format = reader->format();
  info.link_type = reader->linkType();
  info.link_type_name = reader->linkTypeName();

  // One extractor per protocol that declares a contract.
  const auto& protos = host.protocols();
  std::vector<std::optional<SegmentExtractor>> extractors(protos.size());
  for (size_t i = 0; i < protos.size(); ++i)
    if (protos[i].has_contract) extractors[i].emplace(protos[i].contract, host.fields().size());

  StoreWriter store(dbPath);
  store.addProtocols(protos);
  Decoder decoder(reader->linkType());
  ConnectionTable table;
  RawPacket raw;
  DecodedPacket pkt;
  DissectResult res;
  std::vector<Segment> segs;
  PacketRow row;

  while (reader->next(raw)) {
    decoder.decode(raw, pkt);
    if (info.packet_count == 0) {
      info.first_ts_ns = raw.ts_ns;
      host.setFirstTimestamp(raw.ts_ns);  // pinfo.rel_ts
    }
    info.last_ts_ns = raw.ts_ns;  // capture order, as Wireshark's last packet
    ++info.packet_count;

    row = PacketRow{};
    row.frame = raw.frame;
    row.ts_ns = raw.ts_ns;
    row.file_offset = raw.file_offset;
    row.caplen = raw.caplen;
    row.origlen = raw.origlen;
    segs.clear();
    if (!pkt.error.empty()) {
      row.status |= store::kDecodeError;
      ++info.decode_errors;
      store.addPacketError(raw.frame, pkt.error);
    }
    if (pkt.ip_fragment) row.status |= store::kIpFragment;

    ConnectionTable::Hit hit;
    bool malformed = false;
    if (pkt.l4 == L4::UDP) {
      host.dissectUdp(pkt, false, res);
      if (res.lua_error) {
        row.status |= store::kLuaError;
        ++info.lua_errors;
        store.addPacketError(raw.frame, res.error);
      }
      if (res.malformed) {
        row.status |= store::kMalformed;
        ++info.malformed;
      }
      malformed = res.lua_error || res.malformed;
      if (res.proto >= 0) {
        if (auto& ex = extractors[res.proto]) ex->extract(res, segs);
        hit = table.contractPacket(res.proto, protos[res.proto].name,
                                   segs.empty() ? nullptr : &segs.front(), pkt);
      } else {
        hit = table.udpPacket(pkt);
      }
    } else if (pkt.l4 == L4::TCP) {
      hit = table.tcpPacket(pkt);
      row.tcp = true;
      row.tcp_header = pkt.tcp;
      row.tcp_payload = pkt.payload_reported_len;
    }
    if (hit.conn) {
      ConnectionTable::count(hit, pkt, static_cast<uint32_t>(segs.size()), malformed);
      row.conn = hit.conn->id;
      row.dir = hit.dir;
    }
    store.addPacket(row, segs);

    if (info.packet_count % kProgressEvery == 0) {
      if (progress.cancelled()) throw Cancelled();
      if (progress.report) progress.report({reader->bytesRead(), info.size, info.packet_count});
    }
  }
  info.truncated = reader->truncated();
  info.warning = reader->warning();
  store.finish(info, table.connections());
  if (progress.report) progress.report({info.size, info.size, info.packet_count});
  return IngestResult{store.path(), info, table.connections().size()};
}

}  // namespace rudp
