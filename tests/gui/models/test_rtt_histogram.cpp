// planRttHistogram: the range, the bin width, what is left out.
#include "catch_qt.h"

#include "models/rtt_histogram.h"
#include "models/statistics_data.h"
#include "sample_capture.h"
#include "store/store_reader.h"

using namespace rudp;
using namespace rudp::gui;
using namespace rudp::test;

TEST_CASE("nice ceilings are 1, 2 or 5 times a power of ten") {
  CHECK(niceCeiling(0.1) == Approx(0.1));
  CHECK(niceCeiling(0.13) == Approx(0.2));
  CHECK(niceCeiling(2.0) == 2.0);
  CHECK(niceCeiling(2.01) == 5.0);
  CHECK(niceCeiling(7.56) == 10.0);
  CHECK(niceCeiling(11.0) == 20.0);
}

TEST_CASE("an RTT histogram plan of made-up samples") {
  // 1000 samples 80.0, 80.1, ... 179.9 ms and one 1600 ms outage sample.
  std::vector<double> v;
  for (int i = 0; i < 1000; ++i) v.push_back(80.0 + i * 0.1);
  v.push_back(1600);
  const RttHistogramPlan plan = planRttHistogram(v);
  // p99 (nearest rank 991 of 1001) = 179.0 ms; cutoff 1.25 × that.
  CHECK(plan.cutoff == Approx(1.25 * 179.0));
  CHECK(plan.beyond == 1);
  CHECK(plan.shown.size() == 1000);
  // IQR = 155.0 - 105.0 = 50 ms (ranks 750 and 250 of 1000): 2 × 50 / 10 = 10 ms.
  CHECK(plan.width == Approx(10.0));
  CHECK(planRttHistogram({}).width == 0);
  CHECK(planRttHistogram({5.0}).width == Approx(0.1));  // floor of the width
}

TEST_CASE("the outage connection's RTT histogram leaves out exactly the samples above 1.25 × p99") {
  const SampleCapture& s = sampleCapture();
  StoreReader reader(s.db);
  for (const ConnectionRecord& r : reader.connectionRecords()) {
    const StatisticsData data = loadStatistics(reader, r.summary.id);
    for (int d = 0; d < 2; ++d) {
      const std::vector<double>& samples = data.dir[d].rtt_ms;
      const RttHistogramPlan plan = planRttHistogram(samples);
      const size_t above =
          std::count_if(samples.begin(), samples.end(), [&](double v) { return v > plan.cutoff; });
      CHECK(plan.beyond == above);
      CHECK(plan.shown.size() + plan.beyond == samples.size());
      CHECK(plan.beyond <= samples.size() / 100);  // at most 1 %
      CHECK((plan.shown.back() - plan.shown.front()) / plan.width <= kMaxRttBins);
    }
  }
}
