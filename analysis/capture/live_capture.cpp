#include "capture/live_capture.h"

#include <cstdio>
#include <ctime>
#include <filesystem>

#include "capture/capture_filter.h"
#include "core/error.h"

namespace rudp {

namespace {

using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

// How often a flowing capture pauses so that the pipeline publishes and the
// file is flushed: the GUI looks every 150 ms and wants at least five
// updates a second. The clock is read as packets come, and the kernel hands
// them over in 50 ms blocks, so publishes come 50-100 ms apart (at 100 ms
// they came 100-150 ms apart, and one look in three found nothing new).
constexpr auto kPublishEvery = std::chrono::milliseconds(50);

}  // namespace

LiveCapture::LiveCapture(const LiveOptions& options) : options_(options) {
  // A bad filter is reported before anything needs permission or starts.
  if (std::string why = captureFilterError(options_.filter); !why.empty()) throw CaptureError(why);
  source_ = openLiveSource(options_);
  link_type_ = source_->linkType();
  link_type_name_ = source_->linkTypeName();
  openFile();
  started_ = published_ = Clock::now();
}

LiveCapture::~LiveCapture() = default;

// OUTPUT's stem + _NNNNN_YYYYmmddHHMMSS + its extension, as Wireshark names ring files.
static std::string ringFileName(const std::string& output, unsigned index) {
  const fs::path path(output);
  char stamp[32];
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  std::strftime(stamp, sizeof stamp, "%Y%m%d%H%M%S", &tm);
  char number[16];
  std::snprintf(number, sizeof number, "_%05u_", index);
  return (path.parent_path() / (path.stem().string() + number + stamp + path.extension().string())).string();
}

void LiveCapture::openFile() {
  const bool ring = options_.ring_files > 0;
  const std::string path = ring ? ringFileName(options_.output, file_index_) : options_.output;
  writer_ = std::make_unique<PcapngWriter>(path, link_type_, PcapngWriter::Mode::Live);
  if (ring) kept_.push_back(path);
}

std::string LiveCapture::rotate() {
  file_full_ = false;
  finished_ = false;
  frame_ = 0;
  ++file_index_;
  openFile();
  if (kept_.size() <= options_.ring_files) return {};
  std::string dropped = kept_.front();
  kept_.erase(kept_.begin());
  std::remove(dropped.c_str());
  return dropped;
}

bool LiveCapture::stopRequested() const {
  if (options_.stop && options_.stop->load(std::memory_order_relaxed)) return true;
  return options_.duration_s > 0 &&
         std::chrono::duration<double>(Clock::now() - started_).count() >= options_.duration_s;
}

// Ends the current batch so the pipeline publishes it, and hands the file's
// new packets to the kernel, so that a killed capture keeps them. Returns
// false, as next() does when it pauses.
bool LiveCapture::pause() {
  published_ = Clock::now();
  writer_->flush();
  paused_ = true;
  return false;
}

bool LiveCapture::next(RawPacket& out) {
  paused_ = false;
  if (finished_ || stopRequested()) return false;
  if (options_.ring_files > 0 && writer_->bytesWritten() >= options_.ring_file_bytes) {
    file_full_ = true;
    return false;
  }
  if (Clock::now() - published_ >= kPublishEvery) return pause();
  const LiveSource::Read got = source_->next(out, kLiveReadTimeoutMs);
  if (got == LiveSource::Read::Idle) return pause();
  if (got == LiveSource::Read::Ended) return false;  // the interface went away: keep what came before
  // As the libpcap path delivers it: the one interface of the file written.
  out.frame = ++frame_;
  out.link_type = -1;
  out.interface_id = -1;
  out.interface_name = nullptr;
  out.comments.clear();
  out.file_offset = writer_->write(out);
  ++counters_.packets;
  return true;
}

void LiveCapture::readStats() {
  const DropCounts d = source_->drops();
  counters_.kernel_drops = d.kernel;
  counters_.interface_drops = d.interface;
  counters_.drops_counted = d.counted;
}

LiveCounters LiveCapture::counters() {
  if (!finished_) readStats();
  counters_.bytes = writer_->bytesWritten();
  return counters_;
}

void LiveCapture::finish() {
  if (finished_) return;
  finished_ = true;
  if (!file_full_) source_->stop();
  readStats();
  writer_->finish();
}

}  // namespace rudp
