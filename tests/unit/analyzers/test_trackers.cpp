// Percentiles, jitter and tick detection, genre presets, vantage rule.
#include <catch2/catch.hpp>

#include "analyzers/jitter.h"
#include "analyzers/percentiles.h"
#include "analyzers/vantage.h"

using namespace rudp;
using namespace rudp::ana;

TEST_CASE("percentiles are exact nearest-rank below the cap") {
  Percentiles p(1000);
  for (int i = 100; i >= 1; --i) p.add(double(i));
  CHECK(p.exact());
  CHECK(p.quantile(0.5) == 50);
  CHECK(p.quantile(0.95) == 95);
  CHECK(p.quantile(0.99) == 99);
  CHECK(p.quantile(1.0) == 100);
  CHECK(p.min() == 1);
  CHECK(p.shareAbove(90) == Approx(0.10));
}

TEST_CASE("past the cap percentiles come from 0.1 ms bins") {
  Percentiles p(10);
  for (int i = 1; i <= 1000; ++i) p.add(i * 0.37);
  CHECK_FALSE(p.exact());
  CHECK(p.count() == 1000);
  CHECK(p.quantile(0.5) == Approx(500 * 0.37).margin(0.1));
  CHECK(p.quantile(0.99) == Approx(990 * 0.37).margin(0.1));
  CHECK(p.max() == Approx(370));
  CHECK(p.shareAbove(185.0) == Approx(0.5).margin(0.002));
}

TEST_CASE("jitter of a steady 30 Hz sender is zero and the tick rate is found") {
  JitterTracker j;
  for (int i = 0; i < 100; ++i) j.add(int64_t(i) * 33333333, true, uint32_t(i * 100 / 3), 1.0, 32);
  GapStats g;
  j.fill(g);
  CHECK(g.tick_hz == 30);
  CHECK(j.jitterMs() < 1.0);
  JitterTracker k;
  for (int i = 0; i < 100; ++i)
    k.add(int64_t(i) * 16666667 + (i % 2) * 1000000, true, uint32_t(i * 50 / 3), 1.0, 32);
  GapStats h;
  k.fill(h);
  CHECK(h.tick_hz == 60);
  CHECK(k.jitterMs() == Approx(1.0).margin(0.2));  // transit alternates by 1 ms
}

TEST_CASE("genre presets and the vantage rule") {
  CHECK(genreStallMs("fighting") == 30);
  CHECK(genreStallMs("fps") == 50);
  CHECK(genreStallMs("racing") == 50);
  CHECK(genreStallMs("moba") == 150);
  CHECK(genreStallMs("mmo") == 300);
  CHECK(genreStallMs("turn-based") == 1000);
  CHECK(genreStallMs("chess") < 0);
  CHECK(detectVantage(true, 80, true, 0.4) == Vantage::Client);
  CHECK(detectVantage(true, 0.3, true, 80) == Vantage::Server);
  CHECK(detectVantage(true, 45, true, 40) == Vantage::Middle);
  CHECK(detectVantage(true, 45, false, 0) == Vantage::Unknown);
  CHECK(detectVantage(true, 0.5, true, 0.4) == Vantage::Unknown);
}
