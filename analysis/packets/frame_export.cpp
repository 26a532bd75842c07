#include "packets/frame_export.h"

#include "capture/pcapng_writer.h"
#include "core/error.h"
#include "packets/frame_reader.h"
#include "store/store_reader.h"

namespace rudp {

ExportResult exportFrames(const std::string& db, const std::string& capture,
                          const std::vector<uint64_t>& frames, const std::string& target,
                          const std::atomic<bool>* cancel) {
  StoreReader store(db);
  FrameReader reader(capture);
  PcapngWriter writer(target, reader.linkType());
  ExportResult result;
  auto copy = [&](const PacketRecord& p) {
    if (cancel && cancel->load(std::memory_order_relaxed)) return false;
    writer.write(reader.read(p.frame, p.file_offset));
    ++result.frames;
    return true;
  };
  if (frames.empty()) {
    bool going = true;
    store.forEachPacket({}, [&](const PacketRecord& p) { going = going && copy(p); });
    result.cancelled = !going;
  } else {
    for (uint64_t frame : frames) {
      const std::optional<PacketRecord> p = store.packet(frame);
      if (!p) throw Error("the capture has no frame " + std::to_string(frame));
      if (!copy(*p)) {
        result.cancelled = true;
        break;
      }
    }
  }
  if (!result.cancelled) writer.finish();  // else the writer removes its partial file
  return result;
}

}  // namespace rudp
