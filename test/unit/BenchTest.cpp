// collc-bench's statistics and plot (tools/bench): the numbers a benchmark
// report is made of, checked on values whose answers are known.

#include "bench_stats.hpp"
#include "bench_svg.hpp"

#include <doctest/doctest.h>

#include <sstream>
#include <string>

using collc_bench::summarize;

TEST_CASE("bench: median, MAD and nearest-rank percentiles of known values") {
  // 1..10 shuffled: median 5.5, |x - 5.5| = 0.5 0.5 1.5 1.5 ... 4.5 4.5 -> MAD 2.5;
  // nearest rank: p10 = 1st value, p90 = 9th.
  const collc_bench::Summary s = summarize({7, 3, 10, 1, 5, 9, 2, 8, 4, 6});
  CHECK(s.trials == 10);
  CHECK(s.median == 5.5);
  CHECK(s.mad == 2.5);
  CHECK(s.p10 == 1);
  CHECK(s.p90 == 9);
  CHECK(s.min == 1);
  CHECK(s.max == 10);
}

TEST_CASE("bench: 31 trials, one outlier moves the mean but not the median or MAD") {
  std::vector<double> v;
  for (int i = 0; i < 30; ++i) v.push_back(10 + (i % 3));  // 10, 11, 12 ten times each
  v.push_back(1000);
  const collc_bench::Summary s = summarize(v);
  CHECK(s.median == 11);
  CHECK(s.mad == 1);
  CHECK(s.p10 == 10);   // rank ceil(3.1) = 4
  CHECK(s.p90 == 12);   // rank ceil(27.9) = 28
  CHECK(s.max == 1000);
  CHECK_THROWS_WITH(summarize({}), "summarize: no values");
}

TEST_CASE("bench: the SVG puts points on log-log axes") {
  collc_bench::SvgPanel panel{"allreduce <P = 2>", {}};
  panel.series.push_back({"collc ring", false, {{8, 1, 1, 1}, {1024, 100, 90, 110}}});
  panel.series.push_back({"mpi default", true, {{8, 10, 10, 10}, {1024, 10, 10, 10}}});
  std::ostringstream out;
  collc_bench::writeSvg(out, {panel});
  const std::string svg = out.str();
  CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"900.0\" height=\"420.0\"", 0) == 0);
  CHECK(svg.find("allreduce &lt;P = 2&gt;") != std::string::npos);  // escaped
  // x: 8 B .. 1 KiB is 2^3 .. 2^10 over 570 px from x = 80; y: 1 us .. 1 ms
  // (decades 0 .. 3 over 330 px, bottom at 370): (8, 1 us) at (80, 370),
  // (1024, 100 us) at (650, 150).
  CHECK(svg.find("<path d=\"M80.0 370.0 L650.0 150.0\" fill=\"none\" stroke=\"#1f77b4\"") != std::string::npos);
  // The library is dashed, at 10 us: y = 370 - 110 = 260.
  CHECK(svg.find("<path d=\"M80.0 260.0 L650.0 260.0\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"1.6\" "
                 "stroke-dasharray=\"5,3\"/>") != std::string::npos);
  CHECK(svg.find(">1 KiB</text>") != std::string::npos);
  CHECK(svg.find(">1 ms</text>") != std::string::npos);
  CHECK(svg.substr(svg.size() - 7) == "</svg>\n");
}
