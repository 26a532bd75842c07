// The report's building blocks on their own: escaping, the plot scale, the
// decimation and timeout runs.
#include <catch2/catch.hpp>

#include "report/decimate.h"
#include "report/markup.h"
#include "report/plot_scale.h"
#include "report/retransmission_runs.h"
#include "report/time_spans.h"
#include "report/wording.h"

using namespace rudp;
using namespace rudp::report;

TEST_CASE("escapeXml escapes markup and replaces bytes XML cannot carry") {
  CHECK(escapeXml("<a href=\"x\">T&amp;C's</a>") ==
        "&lt;a href=&quot;x&quot;&gt;T&amp;amp;C&#39;s&lt;/a&gt;");
  CHECK(escapeXml("client\u2192server") == "client\u2192server");  // valid UTF-8 stays
  CHECK(escapeXml(std::string("a\x01"
                              "b",
                              3)) == "a\uFFFDb");  // control character
  CHECK(escapeXml("\xC3(") == "\uFFFD(");          // cut sequence
  CHECK(escapeXml("\xC0\xAF") == "\uFFFD\uFFFD");  // overlong '/'
  CHECK(escapeXml("tab\there\nnew") == "tab\there\nnew");
}

TEST_CASE("coordinates have one decimal at most") {
  CHECK(coord(12) == "12");
  CHECK(coord(12.04) == "12");
  CHECK(coord(12.06) == "12.1");
  CHECK(coord(-0.01) == "0");
  CHECK(coord(-3.24) == "-3.2");
  CHECK(coord(-3.26) == "-3.3");
}

TEST_CASE("the plot scale maps linearly and picks 1-2-5 ticks") {
  const PlotScale x(0.03, 20.1, 56, 946);
  CHECK(x.px(0.03) == Approx(56));
  CHECK(x.px(20.1) == Approx(946));
  CHECK(x.ticks(12) == std::vector<double>{2, 4, 6, 8, 10, 12, 14, 16, 18, 20});
  CHECK(x.tickLabel(8, 12) == "8");
  const PlotScale small(0, 0.9, 0, 100);
  CHECK(small.ticks(5) == std::vector<double>{0, 0.2, 0.4, 0.6000000000000001, 0.8});
  CHECK(small.tickLabel(0.4, 5) == "0.4");
  const PlotScale y(0, 345, 200, 50);  // upwards
  CHECK(y.px(0) == Approx(200));
  CHECK(y.px(345) == Approx(50));
}

TEST_CASE("decimation keeps the extremes of each pixel column, in order") {
  std::vector<Point> pts;
  for (int i = 0; i < 1000; ++i) pts.push_back({i / 100.0, double((i * 37) % 101)});  // 10 columns
  const auto lines = minMaxPerColumn(pts, true);
  const auto dots = minMaxPerColumn(pts, false);
  CHECK(lines.size() <= 40);
  CHECK(dots.size() <= 20);
  for (int col = 0; col < 10; ++col) {
    double lo = 1e9, hi = -1e9;
    for (int i = col * 100; i < col * 100 + 100; ++i)
      lo = std::min(lo, pts[i].y), hi = std::max(hi, pts[i].y);
    size_t found = 0;
    for (const auto& p : dots)
      if (std::floor(p.x) == col && (p.y == lo || p.y == hi)) ++found;
    CHECK(found == 2);
  }
  for (size_t i = 1; i < lines.size(); ++i) CHECK(lines[i - 1].x <= lines[i].x);
  CHECK(lines.front().x == pts.front().x);
  CHECK(lines.back().x == pts.back().x);
}

TEST_CASE("timeout runs follow attempt numbers of one seq and stop at other copies") {
  auto retx = [](int64_t ms, uint32_t seq, uint32_t attempt, ana::RetxCause cause, double sincePrev) {
    ana::RetransmissionEvent e;
    e.ts_ns = ms * 1'000'000;
    e.frame = static_cast<uint64_t>(ms);
    e.seq = seq;
    e.attempt = attempt;
    e.cause = cause;
    e.since_previous_ms = sincePrev;
    return e;
  };
  using C = ana::RetxCause;
  const std::vector<ana::RetransmissionEvent> events = {
      retx(200, 7, 2, C::Timeout, 200),   retx(250, 9, 2, C::Fast, 30),
      retx(600, 7, 3, C::Timeout, 400),   retx(1400, 7, 4, C::Timeout, 800),
      retx(1500, 9, 3, C::Timeout, 1250), retx(3000, 7, 6, C::Timeout, 1600)};
  const auto runs = timeoutRuns(events, 2);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].seq == 7);
  CHECK(runs[0].count == 3);
  CHECK(runs[0].first_attempt == 2);
  CHECK(runs[0].last_attempt == 4);
  CHECK(runs[0].waitedMs() == Approx(1400));  // from the original at 0 ms
  CHECK(timeoutRuns(events, 1).size() == 3);  // 7: 2-4, 9: 3, 7: 6 (attempt 5 missing)
  CHECK(longestRunWithin(timeoutRuns(events, 1), 1450 * 1'000'000LL, 3100 * 1'000'000LL).seq == 9);
}

TEST_CASE("durations read like a person writes them") {
  CHECK(durationText(4.25) == "4.2 ms");
  CHECK(durationText(233.4) == "233 ms");
  CHECK(durationText(1564.39) == "1.56 s");
  CHECK(durationText(15643.9) == "15.6 s");
  CHECK(durationText(125000) == "2 min 5 s");
  CHECK(percentText(0.0044) == "0.44 %");
  CHECK(percentText(0.044) == "4.4 %");
  CHECK(secondsAt(8'051'560'000, 23'985'000) == "8.028 s");
}

TEST_CASE("time spans tell whether an interval touches any of them") {
  const std::vector<std::pair<int64_t, int64_t>> raw = {{50, 60}, {10, 40}, {20, 25}};
  const TimeSpans spans(raw, [](const auto& p) { return p; });
  CHECK(spans.touches(30, 35));  // inside the long one, past the short one's end
  CHECK(spans.touches(0, 10));   // inclusive start
  CHECK(spans.touches(60, 70));  // inclusive end
  CHECK_FALSE(spans.touches(41, 49));
  CHECK_FALSE(spans.touches(61, 100));
  CHECK_FALSE(spans.touches(0, 9));
  CHECK_FALSE(TimeSpans().touches(0, 100));
}
