#include "capture_user.h"

#include <catch2/catch.hpp>

namespace rudp::test {

void requireCaptureSetup() {
  const ProcessResult id = run({"id", "-nG", kCaptureUser});
  INFO("the live tests capture as " << kCaptureUser
                                    << " in the wireshark group: run bash packaging/debian-deps.sh --test");
  REQUIRE(id.status == 0);
  REQUIRE(id.out.find("wireshark") != std::string::npos);
  const ProcessResult caps = run({"getcap", "/usr/bin/dumpcap"});
  REQUIRE(caps.out.find("cap_net_raw") != std::string::npos);
}

}  // namespace rudp::test
