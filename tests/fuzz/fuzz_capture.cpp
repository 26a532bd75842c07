// Fuzz target 1: capture reading. The input is a whole pcap / pcapng file;
// every record is read and every delivered byte touched.
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
  RawPacket raw;
  uint64_t expect = 1;
  while (reader->next(raw)) {
    if (raw.frame != expect++) fuzz::fail("frame numbers not consecutive from 1");
    if (raw.caplen && !raw.data) fuzz::fail("caplen > 0 without data");
    if (raw.file_offset >= size) fuzz::fail("record offset past the end of the file");
    if (raw.caplen > size) fuzz::fail("record longer than the whole file");
    fuzz::touch(raw.data, raw.caplen);
    (void)reader->bytesRead();
  }
  (void)reader->truncated();
  (void)reader->warning();
  if (reader->bytesRead() > reader->fileSize()) fuzz::fail("bytesRead past fileSize");
  return 0;
}
