#include "capture/frame_export.h"

#include "capture/capture_reader.h"
#include "capture/pcapng_writer.h"
#include "core/error.h"

namespace rudp {

ExportResult exportFrames(const std::string& capture, const std::vector<uint64_t>& frames,
                          const std::string& target, const std::atomic<bool>* cancel) {
  auto reader = CaptureReader::open(capture);
  PcapngWriter writer(target, reader->linkType());  // removes its file unless finished
  ExportResult result;
  const bool every = frames.empty();
  auto wanted = frames.begin();
  RawPacket packet;
  while ((every || wanted != frames.end()) && reader->next(packet)) {
    if (cancel && cancel->load(std::memory_order_relaxed)) throw Cancelled();
    while (wanted != frames.end() && *wanted < packet.frame) result.missing.push_back(*wanted++);
    if (!every && (wanted == frames.end() || *wanted != packet.frame)) continue;
    writer.write(packet);
    ++result.written;
    if (!every) ++wanted;
  }
  result.missing.insert(result.missing.end(), wanted, frames.end());
  writer.finish();
  return result;
}

}  // namespace rudp
