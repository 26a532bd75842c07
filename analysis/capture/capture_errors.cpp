#include "capture/capture_errors.h"

#include <unistd.h>

#include "core/privileges.h"

namespace rudp {

namespace {

std::string inQuotes(const std::string& s) { return "'" + s + "'"; }

std::string joinGroup() {
  const std::string user = userName(::getuid());
  return "sudo usermod -aG wireshark " + (user.empty() ? "$USER" : user) + ", then log in again";
}

}  // namespace

std::string captureSetupHint() {
  return "let dumpcap capture for the wireshark group once with: sudo dpkg-reconfigure wireshark-common "
         "(answer Yes), and join it: " +
         joinGroup();
}

std::string noPermissionError(const std::string& iface) {
  return "no permission to capture on " + inQuotes(iface) + ": " + captureSetupHint();
}

std::string dumpcapNotAllowedError(const std::string& dumpcap) {
  return "no permission to run " + dumpcap +
         " (it captures for members of the wireshark group): " + joinGroup();
}

std::string noDumpcapError() {
  return "capturing without root needs dumpcap, which is not installed: sudo apt install wireshark-common, "
         "then " +
         captureSetupHint();
}

std::string noInterfaceError(const std::string& iface) {
  return "no interface " + inQuotes(iface) + " to capture on (rudpscope-cli interfaces lists them)";
}

std::string badFilterError(const std::string& filter, const std::string& iface, const std::string& detail) {
  return "bad capture filter " + inQuotes(filter) + " on " + inQuotes(iface) + ": " + detail;
}

std::string captureFailedError(const std::string& iface, const std::string& detail) {
  return "cannot capture on " + inQuotes(iface) + ": " + detail;
}

}  // namespace rudp
