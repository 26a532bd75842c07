// Fuzz target 1: capture reading. The input is a whole pcap / pcapng file,
// plain or gzip/zstd-compressed; every record is read and every delivered
// byte touched.
#include "capture/capture_reader.h"
#include "core/error.h"
#include "fuzz_common.h"

using namespace rudp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static fuzz::MemFile file;
  const std::string& path = file.write(data, size);
  std::unique_ptr<CaptureReader> reader;
  try {
    reader = CaptureReader::open(path);
  } catch (const CaptureError&) {
    return 0;  // not a capture: the expected, clean refusal
  }
  (void)reader->linkType();
  (void)reader->linkTypeName();
  (void)reader->format();
  // Offsets and lengths of a compressed file are those of its decompressed bytes.
  const bool plain = reader->format().find(',') == std::string::npos;
  RawPacket raw;
  uint64_t last = 0;
  while (reader->next(raw)) {
    // pcapng custom blocks take a frame number (as in Wireshark) without a packet.
    if (raw.frame <= last) fuzz::fail("frame numbers not increasing");
    last = raw.frame;
    if (raw.caplen && !raw.data) fuzz::fail("caplen > 0 without data");
    if (plain && raw.file_offset >= size) fuzz::fail("record offset past the end of the file");
    if (plain && raw.caplen > size) fuzz::fail("record longer than the whole file");
    fuzz::touch(raw.data, raw.caplen);
    (void)reader->bytesRead();
  }
  // The decryption secrets blocks' TLS key logs, joined: each one ends a line.
  const std::string& secrets = reader->tlsSecrets();
  fuzz::touch(reinterpret_cast<const uint8_t*>(secrets.data()), secrets.size());
  if (!secrets.empty() && secrets.back() != '\n') fuzz::fail("secrets not ending a line");
  if (reader->lateSecretsBlocks() < 0) fuzz::fail("a negative count of late secrets blocks");
  (void)reader->truncated();
  if ((reader->truncated() || reader->damaged()) == reader->warning().empty())
    fuzz::fail("a warning without a cut or damage, or the reverse");
  if (reader->bytesRead() > reader->fileSize()) fuzz::fail("bytesRead past fileSize");
  return 0;
}
