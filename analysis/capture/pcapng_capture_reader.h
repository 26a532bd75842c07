// pcapng read block by block, as Wireshark reads it: every interface keeps
// its own link type, snap length and timestamp resolution. libpcap 1.10
// refuses a second interface whose link type or snap length differs from the
// first (what Wireshark writes when capturing on several interfaces, and what
// mergecap makes of an Ethernet and a Linux-cooked capture), so this reader
// replaces it for pcapng. No pcapng library in Debian 12 has a licence this
// tool can link and reads multi-interface files (see analysis/capture/README.md).
#pragma once
#include <cstdio>
#include <string>
#include <vector>

#include "capture/capture_reader.h"
#include "capture/compressed_stream.h"

namespace rudp {

class PcapngCaptureReader final : public CaptureReader {
 public:
  // Takes ownership of `file`, positioned at its section header block.
  // `decompress` is the state of a decompressing `file`, or nullptr.
  // Throws CaptureError when the first section header is unusable.
  PcapngCaptureReader(const std::string& path, std::FILE* file, uint64_t fileSize,
                      std::unique_ptr<DecompressState> decompress);
  ~PcapngCaptureReader() override;

  // out.link_type is the frame's interface's DLT_*; out.file_offset is its
  // block's offset in the (decompressed) file.
  bool next(RawPacket& out) override;

  int linkType() const override { return interfaces_.empty() ? first_dlt_ : interfaces_.front().dlt; }
  // Every link type seen, in order: "EN10MB" or "EN10MB, LINUX_SLL".
  std::string linkTypeName() const override;
  std::string format() const override;
  uint64_t fileSize() const override { return file_size_; }
  uint64_t bytesRead() const override;
  bool truncated() const override { return truncated_; }
  bool damaged() const override { return damaged_; }
  std::string warning() const override { return warning_; }
  bool seekTo(uint64_t file_offset, uint64_t frame) override;
  int timestampDigits() const override;
  const std::string& tlsSecrets() const override { return tls_secrets_; }
  int lateSecretsBlocks() const override { return late_secrets_; }

 private:
  struct Interface {
    int dlt = 0;
    uint32_t snaplen = 0;
    // Timestamp units: 10^-exponent seconds, or 2^-exponent when binary.
    uint8_t exponent = 6;
    bool binary = false;
    int64_t offset_s = 0;  // if_tsoffset
    std::string name;      // if_name
  };
  enum class Got { Packet, Other, End };

  Got readBlock(RawPacket& out);
  bool readExact(void* p, size_t n);
  uint32_t u32(const uint8_t* p) const;
  uint16_t u16(const uint8_t* p) const;
  void sectionHeader();
  void interfaceDescription();
  void decryptionSecrets();
  bool packet(uint32_t type, RawPacket& out);
  void readComments(size_t optionsAt, std::vector<std::string>& comments) const;
  int64_t nanoseconds(const Interface& i, uint64_t ticks) const;
  void stop(const std::string& why);

  std::string path_;
  std::FILE* f_;
  uint64_t file_size_;
  std::unique_ptr<DecompressState> decompress_;
  std::vector<uint8_t> body_;          // the current block after its type and length
  std::vector<Interface> interfaces_;  // of the current section
  std::vector<int> dlts_seen_;
  int first_dlt_ = 0;
  bool swapped_ = false;
  uint64_t pos_ = 0;  // offset of the next block
  uint64_t frame_ = 0;
  bool done_ = false, truncated_ = false, damaged_ = false;
  std::string warning_;
  std::string tls_secrets_;  // the decryption secrets blocks' TLS key logs read so far
  int late_secrets_ = 0;
};

}  // namespace rudp
