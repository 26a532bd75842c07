// Labels from file names, sidecars and the command line.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>

#include "compare/labels.h"
#include "compare/metric_list.h"
#include "process.h"

using namespace rudp::cmp;

TEST_CASE("labels from file names") {
  CHECK(labelsFromFileName("/x/tcp-cubic_loss5_delay50.pcap") ==
        Labels{{"stack", "tcp-cubic"}, {"loss", "5"}, {"delay", "50"}});
  CHECK(labelsFromFileName("enet_loss2.5_delay30.pcapng") ==
        Labels{{"stack", "enet"}, {"loss", "2.5"}, {"delay", "30"}});
  CHECK(labelsFromFileName("run_stack=kcp_loss=7.pcap") == Labels{{"stack", "kcp"}, {"loss", "7"}});
  CHECK(labelsFromFileName("game.pcapng") == Labels{{"stack", "game"}});
  // Only the first free token is the stack; a number alone is no label.
  CHECK(labelsFromFileName("grudp_tuned_7_loss3.cap") == Labels{{"stack", "grudp"}, {"loss", "3"}});
}

TEST_CASE("a sidecar and the command line win over the file name") {
  rudp::test::TempDir dir("labels");
  const std::string cap = dir / "tcp_loss5.pcap";
  std::ofstream(cap) << "";
  std::ofstream(cap + ".labels") << "stack=tcp-bbr  # measured on 2026-11-20\ndelay=70\n";
  CHECK(captureLabels(cap) == Labels{{"stack", "tcp-bbr"}, {"loss", "5"}, {"delay", "70"}});
  CHECK(captureLabels(cap, {{"loss", "6"}}) == Labels{{"stack", "tcp-bbr"}, {"loss", "6"}, {"delay", "70"}});
  CHECK(labelText(captureLabels(cap)) == "delay=70 loss=5 stack=tcp-bbr");
}

TEST_CASE("a folder is its captures, sorted, and nothing else") {
  rudp::test::TempDir dir("set");
  for (const char* name : {"b_loss10.pcapng", "b_loss5.pcap", "a.pcap", "c.cap", "notes.txt", "a.pcap.labels",
                           "d_loss1.pcapng.gz", "e.snoop.zst", "f.snoop", "g.gz", "h.txt.zst"})
    std::ofstream(dir / name) << "";
  CHECK(expandCaptureSet({dir.path.string()}) ==
        std::vector<std::string>{dir / "a.pcap", dir / "b_loss5.pcap", dir / "b_loss10.pcapng", dir / "c.cap",
                                 dir / "d_loss1.pcapng.gz", dir / "e.snoop.zst", dir / "f.snoop"});
  CHECK(captureLabels(dir / "d_loss1.pcapng.gz") == Labels{{"stack", "d"}, {"loss", "1"}});
}

TEST_CASE("metric names") {
  CHECK(metric("share_over_300").unit == "%");
  CHECK(metric("share_over_120").title == "Responses over 120 ms");
  CHECK_THROWS_WITH(metric("fastness"), Catch::StartsWith("no metric 'fastness'; the metrics are: "));
  DirectionComparison d;
  d.response.count = 4;
  d.response_share = {{150, 0.5}, {250, 0.25}, {300, 0.0}};
  CHECK(metricValue(d, "share_over_250") == 25.0);
  CHECK(std::isnan(metricValue(d, "share_over_120")));  // not one of the analysis' limits
  CHECK(std::isnan(metricValue(d, "fast_share")));      // no retransmission to share
}
