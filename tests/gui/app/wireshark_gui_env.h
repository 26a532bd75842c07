// What the GUI's Wireshark tests share: HOME and PATH changed for this test
// process and put back afterwards, a fake `wireshark` that records its
// arguments, what it should be given, and tshark's view of a capture.
#pragma once
#include <QByteArray>
#include <QStringList>
#include <string>

#include "process.h"
#include "store/records.h"

namespace rudp::test {

// Sets an environment variable until destroyed.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const QByteArray& value);
  ~ScopedEnv();
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* m_name;
  QByteArray m_old;
  bool m_had;
};

// bin/wireshark: writes its arguments, one a line, to `argsFile` (whole,
// renamed into place).
void writeFakeWireshark(const TempDir& bin, const std::string& argsFile);
// The lines of a file written by the fake; empty until it exists.
QStringList recordedArguments(const std::string& argsFile);
// `bin` first on PATH.
QByteArray pathWith(const TempDir& bin);
// -r FILE, then our three dissectors (none is installed in a fresh HOME).
QStringList expectedArguments(const QString& pcapng);

// A display filter for a UDP connection's packets (both directions).
std::string addressFilter(const ConnectionSummary& c);
uint64_t packetCount(const ConnectionSummary& c);
// The fields the tests compare frame by frame.
const std::vector<std::string>& frameFacts();

// tshark -T fields with `fields` over `capture` (HOME without plugins).
std::vector<std::string> tsharkFields(const std::string& capture, const std::vector<std::string>& fields,
                                      const std::string& filter = {});

}  // namespace rudp::test
