#include "decode/capture_warnings.h"

#include "capture/link_type.h"

namespace rudp {

std::vector<std::string> captureWarnings(const std::string& path, const CaptureReader& reader,
                                         const Decoder& decoder, uint64_t frames) {
  std::vector<std::string> lines;
  if (!reader.warning().empty()) lines.push_back(reader.warning());
  if (const int late = reader.lateSecretsBlocks(); late > 0)
    lines.push_back("'" + path + "': " + std::to_string(late) +
                    (late == 1 ? " decryption secrets block comes" : " decryption secrets blocks come") +
                    " after the first packet and " + (late == 1 ? "was" : "were") +
                    " not used: put the secrets first (editcap --inject-secrets tls,FILE)");
  for (const Decoder::Unsupported& u : decoder.unsupported())
    lines.push_back("'" + path + "': " + std::to_string(u.frames) + " of " + std::to_string(frames) +
                    " frames are of link type " + dltName(u.dlt) + " (" + std::to_string(u.dlt) +
                    "), which rudpscope does not decode; they are counted, not analysed");
  return lines;
}

void checkDamage(const CaptureReader& reader, uint64_t frames, bool keepDamaged) {
  if (reader.damaged() && !keepDamaged) throw DamagedCaptureError(reader.warning(), frames);
}

}  // namespace rudp
