#include "capture/live_source.h"

#include "capture/dumpcap_source.h"
#include "capture/pcap_live_source.h"
#include "core/privileges.h"

namespace rudp {

std::unique_ptr<LiveSource> openLiveSource(const LiveOptions& options) {
  if (canCaptureDirectly()) return std::make_unique<PcapLiveSource>(options);
  return std::make_unique<DumpcapSource>(options);
}

}  // namespace rudp
