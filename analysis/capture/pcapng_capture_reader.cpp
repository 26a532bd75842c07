// Block types and options: draft-ietf-opsawg-pcapng. What Wireshark does
// with the odd cases is followed (wiretap/pcapng.c): a simple packet block
// belongs to interface 0 and has no timestamp, unknown block types are
// skipped, a new section header starts a new list of interfaces.
#include "capture/pcapng_capture_reader.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "capture/link_type.h"
#include "capture/pcapng_format.h"
#include "core/error.h"

namespace rudp {

namespace {

using namespace pcapng;
// Far above any real block (Wireshark's own bound is 393,248 bytes for
// packets), low enough that a damaged length never allocates gigabytes.
constexpr uint32_t kMaxBlock = 16u << 20;

std::string quoted(const std::string& path) { return "'" + path + "'"; }

int64_t saturatingAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return b < 0 ? INT64_MIN : INT64_MAX;
  return r;
}

}  // namespace

PcapngCaptureReader::PcapngCaptureReader(const std::string& path, std::FILE* file, uint64_t fileSize,
                                         std::unique_ptr<DecompressState> decompress)
    : path_(path), f_(file), file_size_(fileSize), decompress_(std::move(decompress)) {
  // A file whose first section header cannot be read is not a capture at all.
  RawPacket unused;
  if (readBlock(unused) != Got::Other || done_) {
    std::fclose(f_);
    throw CaptureError(truncated_ ? quoted(path) + " is cut off inside its file header"
                                  : quoted(path) + " has a damaged section header");
  }
  // Read up to the first interface, so that linkType() answers before the
  // first packet. (A packet block before it is damage: packet() says so.)
  while (!done_ && interfaces_.empty())
    if (readBlock(unused) == Got::End) done_ = true;
}

PcapngCaptureReader::~PcapngCaptureReader() { std::fclose(f_); }

std::string PcapngCaptureReader::format() const {
  return decompress_ ? std::string("pcapng, ") + compressionName(decompress_->compression) : "pcapng";
}

std::string PcapngCaptureReader::linkTypeName() const {
  std::string names;
  for (int dlt : dlts_seen_) names += (names.empty() ? "" : ", ") + dltName(dlt);
  return names.empty() ? dltName(linkType()) : names;
}

uint64_t PcapngCaptureReader::bytesRead() const {
  if (done_) return file_size_;
  return decompress_ ? decompress_->compressed_read : pos_;
}

// Interfaces are those of the section read so far (the first one, for a
// reader just opened): a record of a later section is read with the first
// section's interfaces.
bool PcapngCaptureReader::seekTo(uint64_t file_offset, uint64_t frame) {
  if (decompress_ || frame == 0 || fseeko(f_, off_t(file_offset), SEEK_SET) != 0) return false;
  pos_ = file_offset;
  frame_ = frame - 1;
  done_ = truncated_ = damaged_ = false;
  warning_.clear();
  return true;
}

// A binary resolution 2^-n shows as many decimal digits as it resolves.
int PcapngCaptureReader::timestampDigits() const {
  if (interfaces_.empty()) return 6;
  const Interface& i = interfaces_.front();
  const int digits = i.binary ? int(std::ceil(i.exponent * std::log10(2.0))) : int(i.exponent);
  return std::clamp(digits, 0, 9);
}

uint32_t PcapngCaptureReader::u32(const uint8_t* p) const {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return swapped_ ? __builtin_bswap32(v) : v;
}

uint16_t PcapngCaptureReader::u16(const uint8_t* p) const {
  uint16_t v;
  std::memcpy(&v, p, 2);
  return swapped_ ? __builtin_bswap16(v) : v;
}

bool PcapngCaptureReader::readExact(void* p, size_t n) { return fread_unlocked(p, 1, n, f_) == n; }

bool PcapngCaptureReader::next(RawPacket& out) {
  while (!done_) {
    const Got got = readBlock(out);
    if (got == Got::Packet) return true;
    if (got == Got::End) break;
  }
  done_ = true;
  return false;
}

// Reads one whole block. A short read is the end of the file when it happens
// between blocks, a cut-off capture inside one.
PcapngCaptureReader::Got PcapngCaptureReader::readBlock(RawPacket& out) {
  const uint64_t at = pos_;
  uint8_t head[8];
  const size_t got = fread_unlocked(head, 1, sizeof head, f_);
  if (got == 0 && !std::ferror(f_) && !(decompress_ && decompress_->cut_off)) return Got::End;
  if (got < sizeof head) {
    stop("");
    return Got::End;
  }
  uint32_t type;
  std::memcpy(&type, head, 4);  // the section header's type reads the same in both orders
  if (type == kSectionHeader) {
    // Its byte-order magic, right after the length, sets the order from here on.
    uint32_t bom;
    if (!readExact(&bom, 4)) {
      stop("");
      return Got::End;
    }
    if (bom != kByteOrderMagic && bom != __builtin_bswap32(kByteOrderMagic)) {
      stop("a section header at offset " + std::to_string(at) + " without its byte-order magic");
      return Got::End;
    }
    swapped_ = bom != kByteOrderMagic;
  } else {
    type = u32(head);
  }
  const uint32_t length = u32(head + 4);
  if (length < 12 || length % 4 != 0 || length > kMaxBlock) {
    stop("block length " + std::to_string(length) + " at offset " + std::to_string(at));
    return Got::End;
  }
  const size_t already = type == kSectionHeader ? 4 : 0;  // the byte-order magic
  if (length < 12 + already) {
    stop("block length " + std::to_string(length) + " at offset " + std::to_string(at));
    return Got::End;
  }
  body_.resize(length - 8);
  if (already) std::memcpy(body_.data(), &kByteOrderMagic, 4);
  if (!readExact(body_.data() + already, body_.size() - already)) {
    stop("");
    return Got::End;
  }
  pos_ += length;
  if (u32(body_.data() + body_.size() - 4) != length) {
    stop("block at offset " + std::to_string(at) + " ends with a different length than it starts with");
    return Got::End;
  }
  switch (type) {
    case kSectionHeader: sectionHeader(); return Got::Other;
    case kInterfaceDescription: interfaceDescription(); return Got::Other;
    case kEnhancedPacket:
    case kSimplePacket:
    case kObsoletePacket:
      if (!packet(type, out)) return Got::End;
      out.file_offset = at;
      return Got::Packet;
    case kCustomCopy:
    case kCustomNoCopy:
      // Wireshark (4.0) shows a custom block as a frame of its own: count it,
      // so that frame numbers stay Wireshark's. It holds no packet.
      ++frame_;
      return Got::Other;
    case kDecryptionSecrets: decryptionSecrets(); return Got::Other;
    default: return Got::Other;  // name resolution, statistics
  }
}

void PcapngCaptureReader::sectionHeader() {
  if (body_.size() < 20 || u16(body_.data() + 4) != 1)
    return stop("a section header this reader does not understand (version " +
                std::to_string(u16(body_.data() + 4)) + ")");
  interfaces_.clear();
}

void PcapngCaptureReader::interfaceDescription() {
  if (body_.size() < 12) return stop("an interface description block too short to hold one");
  Interface i;
  i.dlt = dltOfLinkType(u16(body_.data()));
  i.snaplen = u32(body_.data() + 4);
  // Options: code, length, value padded to 4 bytes; the block's last 4 bytes are its length.
  const size_t end = body_.size() - 4;
  for (size_t o = 8; o + 4 <= end;) {
    const uint16_t code = u16(body_.data() + o), len = u16(body_.data() + o + 2);
    const uint8_t* value = body_.data() + o + 4;
    if (code == kOptEnd || o + 4 + len > end) break;
    if (code == kIfName) {
      i.name.assign(reinterpret_cast<const char*>(value), strnlen(reinterpret_cast<const char*>(value), len));
    } else if (code == kIfTsresol && len >= 1) {
      i.binary = (value[0] & 0x80) != 0;
      i.exponent = value[0] & 0x7f;
    } else if (code == kIfTsoffset && len >= 8) {
      uint64_t v;
      std::memcpy(&v, value, 8);
      i.offset_s = int64_t(swapped_ ? __builtin_bswap64(v) : v);
    }
    o += 4 + pad4(len);
  }
  if (interfaces_.empty() && dlts_seen_.empty()) first_dlt_ = i.dlt;
  if (std::find(dlts_seen_.begin(), dlts_seen_.end(), i.dlt) == dlts_seen_.end()) dlts_seen_.push_back(i.dlt);
  interfaces_.push_back(i);
}

// A decryption secrets block: its type, its length, the secrets. A TLS key
// log's text is kept; other kinds (WireGuard, ZigBee, ...) are not read.
void PcapngCaptureReader::decryptionSecrets() {
  const size_t room = body_.size() - 4;  // without the trailing length
  if (room < 8) return stop("a decryption secrets block too short to hold one");
  const uint32_t type = u32(body_.data()), length = u32(body_.data() + 4);
  if (length > room - 8)
    return stop("a decryption secrets block claims " + std::to_string(length) + " bytes in a block of " +
                std::to_string(body_.size() + 8));
  if (type != kSecretsTlsKeyLog) return;
  if (frame_ > 0) ++late_secrets_;
  tls_secrets_.append(reinterpret_cast<const char*>(body_.data() + 8), length);
  if (!tls_secrets_.empty() && tls_secrets_.back() != '\n') tls_secrets_ += '\n';
}

// Fills `out` from an enhanced, simple or obsolete packet block.
bool PcapngCaptureReader::packet(uint32_t type, RawPacket& out) {
  const uint8_t* b = body_.data();
  const size_t room = body_.size() - 4;  // without the trailing length
  uint32_t iface = 0, caplen = 0, origlen = 0, header = 0;
  uint64_t ticks = 0;
  if (type == kSimplePacket) {
    if (room < 4) return stop("a simple packet block too short to hold one"), false;
    header = 4;
    origlen = u32(b);
    caplen = uint32_t(std::min<uint64_t>(origlen, room - header));
    if (!interfaces_.empty() && interfaces_[0].snaplen) caplen = std::min(caplen, interfaces_[0].snaplen);
  } else {
    header = 20;
    if (room < header) return stop("a packet block too short to hold one"), false;
    iface = type == kEnhancedPacket ? u32(b) : u16(b);
    ticks = uint64_t(u32(b + 4)) << 32 | u32(b + 8);
    caplen = u32(b + 12);
    origlen = u32(b + 16);
    if (caplen > room - header)
      return stop("a packet block at offset " + std::to_string(pos_ - body_.size() - 8) + " claims " +
                  std::to_string(caplen) + " captured bytes in a block of " +
                  std::to_string(body_.size() + 8)),
             false;
  }
  if (iface >= interfaces_.size())
    return stop("a packet names interface " + std::to_string(iface) + ", but the section describes " +
                std::to_string(interfaces_.size())),
           false;
  const Interface& i = interfaces_[iface];
  ++frame_;
  out.frame = frame_;
  out.ts_ns = type == kSimplePacket ? 0 : nanoseconds(i, ticks);
  out.caplen = caplen;
  out.origlen = origlen;
  out.data = b + header;
  out.link_type = i.dlt;
  out.interface_id = int(iface);
  out.interface_name = i.name.empty() ? nullptr : i.name.c_str();
  out.comments.clear();
  if (type == kEnhancedPacket) readComments(header + pad4(caplen), out.comments);
  return true;
}

// The opt_comment texts among the options from `optionsAt` in the block's body.
void PcapngCaptureReader::readComments(size_t optionsAt, std::vector<std::string>& comments) const {
  const size_t end = body_.size() - 4;
  for (size_t o = optionsAt; o + 4 <= end;) {
    const uint16_t code = u16(body_.data() + o), len = u16(body_.data() + o + 2);
    if (code == kOptEnd || o + 4 + len > end) return;
    if (code == kOptComment) comments.emplace_back(reinterpret_cast<const char*>(body_.data() + o + 4), len);
    o += 4 + pad4(len);
  }
}

int64_t PcapngCaptureReader::nanoseconds(const Interface& i, uint64_t ticks) const {
  unsigned __int128 ns = ticks;
  if (i.binary) {
    ns = ns * 1000000000u;
    ns = i.exponent >= 127 ? 0 : ns >> i.exponent;
  } else if (i.exponent <= 9) {
    for (int e = i.exponent; e < 9; ++e) ns *= 10;
  } else {
    for (int e = 9; e < i.exponent && ns; ++e) ns /= 10;
  }
  const int64_t capped = ns > uint64_t(INT64_MAX) ? INT64_MAX : int64_t(ns);
  int64_t offset;
  if (__builtin_mul_overflow(i.offset_s, int64_t(1000000000), &offset))
    offset = i.offset_s < 0 ? INT64_MIN : INT64_MAX;
  return saturatingAdd(capped, offset);
}

// Ends reading: `why` empty means the file is cut off; otherwise the data is
// damaged. A decompressor's own finding is the better reason.
void PcapngCaptureReader::stop(const std::string& why) {
  done_ = true;
  if (decompress_ && !decompress_->problem.empty() && !decompress_->cut_off) {
    damaged_ = true;
    warning_ = damagedWarning(path_, frame_, decompress_->problem);
  } else if (why.empty() && !std::ferror(f_)) {
    truncated_ = true;
    warning_ = cutOffWarning(path_, frame_);
  } else {
    damaged_ = true;
    warning_ = damagedWarning(path_, frame_, why.empty() ? "read error" : why);
  }
}

}  // namespace rudp
