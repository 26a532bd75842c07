#include "wireshark/frame_export.h"

#include "capture/capture_reader.h"
#include "capture/pcapng_writer.h"
#include "core/error.h"

namespace rudp::wireshark {

ExportResult exportFrames(const std::string& capture, const std::vector<uint64_t>& frames,
                          const std::string& output, const std::atomic<bool>* cancel) {
  auto reader = CaptureReader::open(capture);
  PcapngWriter writer(output, reader->linkType());
  ExportResult result;
  auto wanted = frames.begin();
  RawPacket packet;
  while (wanted != frames.end() && reader->next(packet)) {
    if (cancel && cancel->load(std::memory_order_relaxed)) throw Cancelled();
    while (wanted != frames.end() && *wanted < packet.frame) result.missing.push_back(*wanted++);
    if (wanted == frames.end() || *wanted != packet.frame) continue;
    writer.write(packet);
    ++result.written;
    ++wanted;
  }
  result.missing.insert(result.missing.end(), wanted, frames.end());
  writer.finish();
  return result;
}

}  // namespace rudp::wireshark
