// grudp-endpoint: GRUDP v1 reference server and client (load generator) over
// real UDP sockets, with in-process impairment on send. See README.md.
#include <cstdio>
#include <fstream>
#include <iostream>

#include "client.hpp"
#include "options.hpp"
#include "server.hpp"

using namespace grudp_ep;

namespace {

constexpr int kUsageExit = 2;

int fail(const std::string& message) {
  std::cerr << "grudp-endpoint: " << message << "\n";
  return kUsageExit;
}

bool write_json(const std::string& path, const nlohmann::json& j) {
  if (path.empty()) return true;
  std::ofstream out(path);
  out << j.dump(1) << "\n";
  return bool(out);
}

template <class Endpoint>
int run(const EndpointOptions& o) {
  Endpoint e(o);
  e.run();
  if (!o.quiet) std::cerr << e.summary_line() << "\n";
  if (!write_json(o.json_path, e.report())) return fail("cannot write " + o.json_path);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::optional<EndpointOptions> o;
  try {
    o = parse_options(argc, argv);
  } catch (const UsageError& e) { return fail(e.what()); }
  if (!o) return 0;  // --help
  try {
    return o->role == EndpointOptions::Role::Server ? run<Server>(*o) : run<Client>(*o);
  } catch (const SocketError& e) { return fail(e.what()); }
}
