// Captures compressed with gzip or zstd, read as they stream: players attach
// `game.pcapng.gz` to bug reports, and Wireshark opens such files directly.
// Nothing is unpacked to disk; the decompressed bytes reach the capture
// reader through a read-only stdio stream (fopencookie), so libpcap and the
// pcapng reader read them as they read a plain file.
//
// Chosen: zlib (zlib licence) and libzstd (BSD), both Debian 12 packages.
// libwiretap would read every format Wireshark reads, but it is GPL-2.0+, which
// this proprietary tool cannot link; see analysis/capture/README.md.
#pragma once
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

namespace rudp {

enum class Compression { None, Gzip, Zstd };

// From a file's first four bytes.
Compression compressionOf(const unsigned char magic[4]);
const char* compressionName(Compression c);  // "gzip", "zstd", "" for None

// What a decompressing stream knows beyond its bytes: how far into the
// compressed file it has read (for progress) and why it stopped early.
struct DecompressState {
  Compression compression = Compression::None;
  uint64_t compressed_read = 0;
  // Set when the compressed data is damaged (the stream then reports a read
  // error) or ends inside a frame (the stream then ends early, as a cut-off
  // plain capture does). One line, e.g. "gzip data is damaged: invalid
  // distance too far back".
  std::string problem;
  bool cut_off = false;
};

// Returns a stdio stream of `raw`'s decompressed bytes; closing it closes
// `raw`. `state` must outlive the stream. ftell works (it counts
// decompressed bytes); seeking does not. Returns nullptr (with `raw` closed)
// only when the decompressor cannot start (out of memory).
std::FILE* openDecompressed(std::FILE* raw, Compression c, DecompressState& state);

}  // namespace rudp
