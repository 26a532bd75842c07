// Percentiles, jitter and tick detection, genre presets, vantage rule.
#include <catch2/catch.hpp>

#include "analyzers/genre.h"
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

TEST_CASE("jitter pairs each packet's capture time with its own timestamp, past packets without one") {
  // A steady 30 Hz sender whose every datagram is followed 10 ms later by one
  // without a timestamp (an ENet ack-only datagram): transit never varies.
  JitterTracker j;
  for (int i = 0; i < 100; ++i) {
    j.add(int64_t(i) * 33'000'000, true, uint32_t(i * 33), 1.0, 16);
    j.add(int64_t(i) * 33'000'000 + 10'000'000, false, 0, 1.0, 16);
  }
  CHECK(j.jitterMs() == 0);
}

TEST_CASE("a 64 Hz tick read as 16 ms gaps is 64 Hz, the nearest usual rate, not 60") {
  JitterTracker j;
  int64_t t = 0;
  for (int i = 0; i < 200; ++i) j.add(t += i == 100 ? 30'000'000 : 15'900'000, false, 0, 1.0, 32);
  GapStats g;
  j.fill(g);
  CHECK(g.p50 == 16);  // the 0.5 ms bin's upper edge: 62.5 Hz, 4 % off 60 and 2.3 % off 64
  CHECK(g.tick_hz == 64);
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
