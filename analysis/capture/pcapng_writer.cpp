#include "capture/pcapng_writer.h"

#include <bit>
#include <cerrno>
#include <cstring>
#include <vector>

#include "capture/link_type.h"
#include "capture/pcapng_format.h"
#include "core/error.h"
#include "core/partial_file.h"

namespace rudp {

namespace {

using namespace pcapng;

// A block's bytes built in memory, then written at once: the total length
// is known only at the end and appears at both ends of the block.
class Block {
 public:
  Block(uint32_t type, std::vector<uint8_t>& bytes) : bytes_(bytes) {
    bytes_.clear();
    u32(type);
    u32(0);  // total length, set by finish()
  }
  Block& u16(uint16_t v) { return raw(&v, 2); }
  Block& u32(uint32_t v) { return raw(&v, 4); }
  Block& raw(const void* p, size_t n) {
    const auto* b = static_cast<const uint8_t*>(p);
    bytes_.insert(bytes_.end(), b, b + n);
    return *this;
  }
  Block& padded(const void* p, uint32_t n) {
    raw(p, n);
    bytes_.resize(bytes_.size() + (pad4(n) - n), 0);
    return *this;
  }
  Block& option(uint16_t code, const void* p, uint16_t n) { return u16(code).u16(n).padded(p, n); }
  Block& endOfOptions() { return u16(kOptEnd).u16(0); }
  const std::vector<uint8_t>& finish() {
    const uint32_t total = uint32_t(bytes_.size()) + 4;
    std::memcpy(bytes_.data() + 4, &total, 4);
    u32(total);
    return bytes_;
  }

 private:
  std::vector<uint8_t>& bytes_;
};

static_assert(std::endian::native == std::endian::little, "the blocks are written in host order");

}  // namespace

PcapngWriter::PcapngWriter(const std::string& path, int dlt, Mode mode)
    : path_(path), partial_(path + ".part"), mode_(mode) {
  file_ = std::fopen(target().c_str(), "wb");
  if (!file_) throw CaptureError("cannot create '" + target() + "': " + errnoMessage(errno));
  writeSectionHeader();
  writeInterface(dlt);
}

PcapngWriter::~PcapngWriter() {
  if (!file_) return;
  std::fclose(file_);
  if (mode_ == Mode::Complete) std::remove(partial_.c_str());
}

void PcapngWriter::put(const std::vector<uint8_t>& bytes) {
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size())
    throw CaptureError("cannot write '" + target() + "': " + errnoMessage(errno));
  offset_ += bytes.size();
}

void PcapngWriter::flush() {
  if (std::fflush(file_) != 0) throw CaptureError("cannot write '" + target() + "': " + errnoMessage(errno));
}

void PcapngWriter::writeSectionHeader() {
  static const char kApp[] = "rudpscope";
  Block b(kSectionHeader, block_);
  b.u32(kByteOrderMagic).u16(1).u16(0);  // version 1.0
  b.u32(0xFFFFFFFF).u32(0xFFFFFFFF);     // section length: not given
  b.option(kShbUserAppl, kApp, sizeof kApp - 1).endOfOptions();
  put(b.finish());
}

void PcapngWriter::writeInterface(int dlt) {
  const uint8_t nanoseconds = 9;
  Block b(kInterfaceDescription, block_);
  b.u16(linkTypeOfDlt(dlt)).u16(0).u32(0);  // link type, reserved, snaplen: no limit
  b.option(kIfTsresol, &nanoseconds, 1).endOfOptions();
  put(b.finish());
  dlts_.push_back(dlt);
}

uint32_t PcapngWriter::interfaceOf(int dlt) {
  if (dlt < 0) return 0;
  for (size_t i = 0; i < dlts_.size(); ++i)
    if (dlts_[i] == dlt) return uint32_t(i);
  writeInterface(dlt);  // a pcapng file may describe an interface anywhere before its first packet
  return uint32_t(dlts_.size() - 1);
}

uint64_t PcapngWriter::write(const RawPacket& packet) {
  const uint32_t interface = interfaceOf(packet.link_type);
  const uint64_t at = offset_;
  const auto ts = static_cast<uint64_t>(packet.ts_ns);
  Block b(kEnhancedPacket, block_);
  b.u32(interface).u32(uint32_t(ts >> 32)).u32(uint32_t(ts));  // interface, timestamp high, low
  b.u32(packet.caplen).u32(packet.origlen).padded(packet.data, packet.caplen);
  put(b.finish());
  ++packets_;
  return at;
}

void PcapngWriter::finish() {
  if (mode_ == Mode::Live) {
    const bool closed = std::fclose(file_) == 0;
    file_ = nullptr;
    if (!closed) throw CaptureError("cannot write '" + path_ + "': " + errnoMessage(errno));
    return;
  }
  const std::string failure = commitPartialFile(file_, partial_, path_);
  file_ = nullptr;
  if (!failure.empty()) throw CaptureError(failure);
}

}  // namespace rudp
