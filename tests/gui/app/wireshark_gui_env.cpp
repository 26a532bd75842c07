#include "wireshark_gui_env.h"

#include <sys/stat.h>

#include <QFile>
#include <catch2/catch.hpp>
#include <fstream>

#include "lua/dissector_files.h"

namespace rudp::test {

ScopedEnv::ScopedEnv(const char* name, const QByteArray& value)
    : m_name(name), m_old(qgetenv(name)), m_had(qEnvironmentVariableIsSet(name)) {
  qputenv(name, value);
}

ScopedEnv::~ScopedEnv() {
  if (m_had)
    qputenv(m_name, m_old);
  else
    qunsetenv(m_name);
}

void writeFakeWireshark(const TempDir& bin, const std::string& argsFile) {
  const std::string path = bin / "wireshark";
  std::ofstream(path) << "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > '" << argsFile
                      << ".part' && mv '" << argsFile << ".part' '" << argsFile << "'\n";
  ::chmod(path.c_str(), 0755);
}

QStringList recordedArguments(const std::string& argsFile) {
  QFile f(QString::fromStdString(argsFile));
  if (!f.open(QIODevice::ReadOnly)) return {};
  QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
  if (!lines.isEmpty() && lines.last().isEmpty()) lines.removeLast();
  return lines;
}

QByteArray pathWith(const TempDir& bin) {
  return QByteArray::fromStdString(bin.path.string()) + ":" + qgetenv("PATH");
}

QStringList expectedArguments(const QString& pcapng) {
  QStringList args = {"-r", pcapng, "--disable-protocol", "raknet", "--disable-protocol", "udt"};
  for (const char* name : {"enet.lua", "grudp.lua", "kcp.lua", "raknet.lua", "udt.lua"})
    args << "-X" << QString::fromStdString("lua_script:" + defaultDissectorDir() + "/" + name);
  return args;
}

std::string addressFilter(const ConnectionSummary& c) {
  auto split = [](const std::string& hostPort) {
    const auto colon = hostPort.rfind(':');
    return std::make_pair(hostPort.substr(0, colon), hostPort.substr(colon + 1));
  };
  const auto [ch, cp] = split(c.client);
  const auto [sh, sp] = split(c.server);
  return "ip.addr==" + ch + " && udp.port==" + cp + " && ip.addr==" + sh + " && udp.port==" + sp;
}

uint64_t packetCount(const ConnectionSummary& c) { return c.dir[0].packets + c.dir[1].packets; }

const std::vector<std::string>& frameFacts() {
  static const std::vector<std::string> facts = {"frame.time_epoch", "frame.len", "ip.src",
                                                 "udp.srcport",      "ip.dst",    "udp.dstport"};
  return facts;
}

std::vector<std::string> tsharkFields(const std::string& capture, const std::vector<std::string>& fields,
                                      const std::string& filter) {
  TempDir home("tshark-home");
  std::vector<std::string> argv = {
      "env", "HOME=" + home.path.string(), TSHARK_EXECUTABLE, "-r", capture, "-T", "fields"};
  for (const auto& f : fields) argv.insert(argv.end(), {"-e", f});
  if (!filter.empty()) argv.insert(argv.end(), {"-Y", filter});
  const ProcessResult r = run(argv);
  INFO(r.err);
  REQUIRE(r.status == 0);
  return splitLines(r.out);
}

}  // namespace rudp::test
