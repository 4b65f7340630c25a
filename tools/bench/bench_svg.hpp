#pragma once
// collc-bench's --svg: one log-log panel per collective kind, time (median,
// with a p10..p90 bar) over message size, one line per algorithm. Plain
// C++17, no MPI, so the unit tests check it.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

namespace collc_bench {

struct SvgPoint {
  double bytes = 0, median = 0, p10 = 0, p90 = 0;  // microseconds
};

struct SvgSeries {
  std::string name;
  bool library = false;  // the MPI library's own calls are drawn dashed
  std::vector<SvgPoint> points;
};

struct SvgPanel {
  std::string title;
  std::vector<SvgSeries> series;
};

namespace detail {

inline std::string escapeXml(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

inline std::string number(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", v);
  return buffer;
}

inline std::string bytesLabel(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB"};
  int u = 0;
  while (bytes >= 1024 && u < 3) {
    bytes /= 1024;
    ++u;
  }
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g %s", bytes, units[u]);
  return buffer;
}

inline std::string timeLabel(double us) {
  char buffer[32];
  if (us >= 1000)
    std::snprintf(buffer, sizeof buffer, "%g ms", us / 1000);
  else
    std::snprintf(buffer, sizeof buffer, "%g us", us);
  return buffer;
}

// A colour per series, distinct for the first dozen.
inline const char* colour(std::size_t i) {
  static const char* palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
                                  "#e377c2", "#17becf", "#bcbd22", "#7f7f7f", "#393b79", "#637939"};
  return palette[i % (sizeof palette / sizeof palette[0])];
}

}  // namespace detail

// Writes the panels as one SVG document, stacked top to bottom.
inline void writeSvg(std::ostream& out, const std::vector<SvgPanel>& panels) {
  using detail::number;
  const double width = 900, panelHeight = 420, left = 80, right = 250, top = 40, bottom = 50;
  const double plotW = width - left - right, plotH = panelHeight - top - bottom;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << number(width) << "\" height=\""
      << number(panelHeight * static_cast<double>(panels.size())) << "\" font-family=\"sans-serif\" "
      << "font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  for (std::size_t k = 0; k < panels.size(); ++k) {
    const SvgPanel& panel = panels[k];
    double xMin = std::numeric_limits<double>::max(), xMax = 0;
    double yMin = std::numeric_limits<double>::max(), yMax = 0;
    for (const SvgSeries& s : panel.series)
      for (const SvgPoint& p : s.points) {
        if (p.bytes <= 0 || p.median <= 0) continue;
        xMin = std::min(xMin, p.bytes);
        xMax = std::max(xMax, p.bytes);
        yMin = std::min(yMin, std::max(p.p10, p.median * 1e-3));
        yMax = std::max(yMax, std::max(p.p90, p.median));
      }
    if (xMax <= 0) continue;  // nothing positive to draw on log axes
    // Axes span whole decades of time and powers of two of bytes.
    const double lx0 = std::floor(std::log2(xMin)), lx1 = std::max(lx0 + 1, std::ceil(std::log2(xMax)));
    const double ly0 = std::floor(std::log10(yMin)), ly1 = std::max(ly0 + 1, std::ceil(std::log10(yMax)));
    const double y0 = panelHeight * static_cast<double>(k);
    auto X = [&](double bytes) { return left + (std::log2(bytes) - lx0) / (lx1 - lx0) * plotW; };
    auto Y = [&](double us) {
      return y0 + top + plotH - (std::log10(std::max(us, 1e-300)) - ly0) / (ly1 - ly0) * plotH;
    };
    out << "<g>\n<text x=\"" << number(left) << "\" y=\"" << number(y0 + 24)
        << "\" font-size=\"15\" font-weight=\"bold\">" << detail::escapeXml(panel.title) << "</text>\n";
    out << "<rect x=\"" << number(left) << "\" y=\"" << number(y0 + top) << "\" width=\"" << number(plotW)
        << "\" height=\"" << number(plotH) << "\" fill=\"none\" stroke=\"#444\"/>\n";
    const double xStep = lx1 - lx0 > 12 ? 3 : 1;
    for (double lx = lx0; lx <= lx1; lx += xStep) {
      const double x = X(std::exp2(lx));
      out << "<line x1=\"" << number(x) << "\" y1=\"" << number(y0 + top) << "\" x2=\"" << number(x)
          << "\" y2=\"" << number(y0 + top + plotH) << "\" stroke=\"#ddd\"/>\n";
      out << "<text x=\"" << number(x) << "\" y=\"" << number(y0 + top + plotH + 16)
          << "\" text-anchor=\"middle\">" << detail::bytesLabel(std::exp2(lx)) << "</text>\n";
    }
    for (double ly = ly0; ly <= ly1; ++ly) {
      const double y = Y(std::pow(10, ly));
      out << "<line x1=\"" << number(left) << "\" y1=\"" << number(y) << "\" x2=\"" << number(left + plotW)
          << "\" y2=\"" << number(y) << "\" stroke=\"#ddd\"/>\n";
      out << "<text x=\"" << number(left - 6) << "\" y=\"" << number(y + 4) << "\" text-anchor=\"end\">"
          << detail::timeLabel(std::pow(10, ly)) << "</text>\n";
    }
    out << "<text x=\"" << number(left + plotW / 2) << "\" y=\"" << number(y0 + panelHeight - 12)
        << "\" text-anchor=\"middle\">message size (bytes per rank)</text>\n";
    for (std::size_t i = 0; i < panel.series.size(); ++i) {
      const SvgSeries& s = panel.series[i];
      const char* c = detail::colour(i);
      std::string path;
      for (const SvgPoint& p : s.points) {
        if (p.bytes <= 0 || p.median <= 0) continue;
        path += (path.empty() ? "M" : " L") + number(X(p.bytes)) + " " + number(Y(p.median));
        out << "<line x1=\"" << number(X(p.bytes)) << "\" y1=\"" << number(Y(p.p10)) << "\" x2=\""
            << number(X(p.bytes)) << "\" y2=\"" << number(Y(p.p90)) << "\" stroke=\"" << c
            << "\" stroke-opacity=\"0.5\"/>\n";
      }
      out << "<path d=\"" << path << "\" fill=\"none\" stroke=\"" << c << "\" stroke-width=\"1.6\""
          << (s.library ? " stroke-dasharray=\"5,3\"" : "") << "/>\n";
      const double ly = y0 + top + 14 + 16 * static_cast<double>(i);
      out << "<line x1=\"" << number(left + plotW + 12) << "\" y1=\"" << number(ly - 4) << "\" x2=\""
          << number(left + plotW + 36) << "\" y2=\"" << number(ly - 4) << "\" stroke=\"" << c
          << "\" stroke-width=\"2\"" << (s.library ? " stroke-dasharray=\"5,3\"" : "") << "/>\n";
      out << "<text x=\"" << number(left + plotW + 42) << "\" y=\"" << number(ly) << "\">"
          << detail::escapeXml(s.name) << "</text>\n";
    }
    out << "</g>\n";
  }
  out << "</svg>\n";
}

}  // namespace collc_bench
