#include "algebra/teaching/teaching_svg.hpp"

#include "algebra/teaching/teaching_html.hpp"

#include "algebra/support/error.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace cas::teaching {

namespace {

const char* const font = "DejaVu Sans, Verdana, Arial, sans-serif";

std::string number(double v) {
  std::ostringstream s;
  s.setf(std::ios::fixed);
  s.precision(1);
  s << v;
  return s.str();
}

// A document under construction: elements appended in painting order.
class Svg {
 public:
  Svg(double width, double height) : width_(width), height_(height) {}
  void rect(double x, double y, double w, double h, const std::string& fill, const std::string& stroke) {
    body_ << "<rect x=\"" << number(x) << "\" y=\"" << number(y) << "\" width=\"" << number(w) << "\" height=\""
          << number(h) << "\" rx=\"3\" fill=\"" << fill << "\" stroke=\"" << stroke << "\"/>\n";
  }
  void line(double x1, double y1, double x2, double y2, const std::string& colour, double width) {
    body_ << "<line x1=\"" << number(x1) << "\" y1=\"" << number(y1) << "\" x2=\"" << number(x2) << "\" y2=\""
          << number(y2) << "\" stroke=\"" << colour << "\" stroke-width=\"" << number(width) << "\"/>\n";
  }
  // Text centred (anchor "middle"), or "start"/"end"; `inner` is raw SVG content (escaped by the caller).
  void text(double x, double y, double size, const std::string& anchor, const std::string& inner,
            const std::string& extra = "") {
    body_ << "<text x=\"" << number(x) << "\" y=\"" << number(y) << "\" font-size=\"" << number(size)
          << "\" text-anchor=\"" << anchor << "\"" << extra << ">" << inner << "</text>\n";
  }
  std::string str() const {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
           number(width_) + "\" height=\"" + number(height_) + "\" viewBox=\"0 0 " + number(width_) + " " +
           number(height_) + "\" font-family=\"" + font + "\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n" +
           body_.str() + "</svg>\n";
  }

 private:
  double width_, height_;
  std::ostringstream body_;
};

std::string superscript(const std::string& text, double size) {
  return "<tspan baseline-shift=\"super\" font-size=\"" + number(size) + "\">" + text + "</tspan>";
}

// "w" with a raised exponent.
std::string power_markup(ulong e, double size) {
  std::string out = "w";  // appended, not "w" + ...: GCC 12 warns (-Wrestrict) on that falsely
  return out += superscript(std::to_string(e), 0.75 * size);
}

// The width of a line of digits in the sans font, a little generous.
double text_width(size_t characters, double size) { return static_cast<double>(characters) * 0.62 * size; }

size_t widest(const Residues& values) {
  size_t out = 1;
  for (const Fmpz& v : values) out = std::max(out, v.to_string().size());
  return out;
}

// ---- the butterfly diagram --------------------------------------------------

struct ButterflyLayout {
  size_t n, stages;
  double value_size, label_size, row_gap, box_width, box_height, column_gap, left, top;
  double column_x(size_t c) const { return left + static_cast<double>(c) * column_gap; }  // left edge of the boxes
  double row_y(size_t r) const { return top + static_cast<double>(r) * row_gap; }       // centre line of a row
  double width() const { return column_x(stages) + box_width + 70; }
  double height() const { return row_y(n - 1) + box_height / 2 + 58; }
};

ButterflyLayout butterfly_layout(const FftTrace& t) {
  ButterflyLayout l{};
  l.n = t.input.size();
  l.stages = t.stages.size();
  l.value_size = l.n <= 16 ? 13 : 12;
  l.label_size = 11;
  l.row_gap = l.n <= 8 ? 48 : l.n <= 16 ? 36 : 30;
  size_t digits = widest(t.input);
  for (const FftStage& s : t.stages) digits = std::max(digits, widest(s.after));
  l.box_width = std::max(30.0, text_width(digits, l.value_size) + 12);
  l.box_height = l.value_size + 9;
  l.column_gap = l.box_width + std::max(150.0, 5 * l.label_size + 2 * text_width(4, l.label_size));
  l.left = 64;
  l.top = 96;
  return l;
}

std::string fft_title(const FftTrace& t) {
  const std::string name = t.ordering == FftOrdering::CooleyTukey ? "Cooley\u2013Tukey" : "Stockham";
  return name + " FFT, n = " + std::to_string(t.input.size()) + ", over Z/" + t.modulus->to_string() +
         "Z, w = " + t.w.to_string();
}

void draw_headings(Svg& svg, const FftTrace& t, const ButterflyLayout& l) {
  svg.text(l.left - 40, 28, 17, "start", escape_html(fft_title(t)), " font-weight=\"bold\"");
  std::string wk = "w";
  wk += superscript("k", 9);
  svg.text(l.left - 40, 52, 12, "start",
           "butterfly: (a, b) \u2192 (a + " + wk + "\u00b7b, a \u2212 " + wk + "\u00b7b); " + wk +
               " is written on the edge from b to the upper output",
           " fill=\"#334155\"");
  for (size_t c = 0; c <= l.stages; c++) {
    std::string heading = c == 0 ? (t.ordering == FftOrdering::CooleyTukey && l.stages ? "input, bit-reversed" : "input")
                                 : "after stage " + std::to_string(c);
    svg.text(l.column_x(c) + l.box_width / 2, l.top - l.box_height / 2 - 12, 12, "middle", escape_html(heading),
             " font-weight=\"bold\" fill=\"#334155\"");
  }
}

void draw_edges(Svg& svg, const FftTrace& t, const ButterflyLayout& l) {
  const std::string plain = "#94a3b8", twiddled = "#2563eb";
  for (size_t s = 0; s < l.stages; s++) {
    const double x0 = l.column_x(s) + l.box_width, x1 = l.column_x(s + 1);
    for (const Butterfly& b : t.stages[s].butterflies) {
      svg.line(x0, l.row_y(b.read_top), x1, l.row_y(b.write_top), plain, 1.2);
      svg.line(x0, l.row_y(b.read_top), x1, l.row_y(b.write_bottom), plain, 1.2);
      svg.line(x0, l.row_y(b.read_bottom), x1, l.row_y(b.write_bottom), plain, 1.2);
      svg.line(x0, l.row_y(b.read_bottom), x1, l.row_y(b.write_top), twiddled, 1.4);
    }
  }
}

// Where along the edge from b to the upper output its label goes: about a quarter of the
// way, moved to lie halfway between two wires (for pairs 1 apart, a quarter of a gap above
// b's wire, as halfway is where the two crossing edges meet).
double label_fraction(size_t span) {
  if (span == 1) return 0.27;
  const double rows_up = std::floor(0.27 * static_cast<double>(span)) + 0.5;
  return rows_up / static_cast<double>(span);
}

void draw_twiddle_labels(Svg& svg, const FftTrace& t, const ButterflyLayout& l) {
  for (size_t s = 0; s < l.stages; s++) {
    const double x0 = l.column_x(s) + l.box_width, x1 = l.column_x(s + 1);
    for (const Butterfly& b : t.stages[s].butterflies) {
      const double y0 = l.row_y(b.read_bottom), y1 = l.row_y(b.write_top);
      const size_t span = static_cast<size_t>(std::lround(std::fabs(y1 - y0) / l.row_gap));
      const double fraction = label_fraction(std::max<size_t>(span, 1));
      const double x = x0 + fraction * (x1 - x0), y = y0 + fraction * (y1 - y0);
      svg.text(x, y + l.label_size * 0.35, l.label_size, "middle", power_markup(b.twiddle_exponent, l.label_size),
               " fill=\"#1d4ed8\" font-weight=\"bold\" stroke=\"white\" stroke-width=\"3.5\" "
               "paint-order=\"stroke\" stroke-linejoin=\"round\"");
    }
  }
}

void draw_column(Svg& svg, const Residues& values, size_t c, const std::string& fill, const ButterflyLayout& l) {
  for (size_t r = 0; r < values.size(); r++) {
    const double y = l.row_y(r);
    svg.rect(l.column_x(c), y - l.box_height / 2, l.box_width, l.box_height, fill, "#475569");
    svg.text(l.column_x(c) + l.box_width / 2, y + l.value_size * 0.36, l.value_size, "middle",
             values[r].to_string(), " fill=\"#0f172a\"");
  }
}

void draw_wire_names(Svg& svg, const FftTrace& t, const ButterflyLayout& l) {
  for (size_t r = 0; r < l.n; r++) {
    const size_t source = t.bit_reversal.empty() ? r : t.bit_reversal[r];
    svg.text(l.column_x(0) - 8, l.row_y(r) + 4, 12, "end", "v[" + std::to_string(source) + "]", " fill=\"#92400e\"");
    svg.text(l.column_x(l.stages) + l.box_width + 8, l.row_y(r) + 4, 12, "start", "X[" + std::to_string(r) + "]",
             " fill=\"#166534\"");
  }
}

// ---- the coloured DFT matrix --------------------------------------------------

// A light colour for exponent e of n: the hue goes once round the colour wheel.
std::string exponent_colour(ulong e, size_t n) {
  const double hue = 360.0 * static_cast<double>(e) / static_cast<double>(n), s = 0.62, l = 0.80;
  const double chroma = (1 - std::fabs(2 * l - 1)) * s, h = hue / 60;
  const double second = chroma * (1 - std::fabs(std::fmod(h, 2) - 1)), base = l - chroma / 2;
  double r = 0, g = 0, b = 0;
  if (h < 1) r = chroma, g = second;
  else if (h < 2) r = second, g = chroma;
  else if (h < 3) g = chroma, b = second;
  else if (h < 4) g = second, b = chroma;
  else if (h < 5) r = second, b = chroma;
  else r = chroma, b = second;
  char out[8];
  std::snprintf(out, sizeof out, "#%02x%02x%02x", static_cast<int>(std::lround((r + base) * 255)),
                static_cast<int>(std::lround((g + base) * 255)), static_cast<int>(std::lround((b + base) * 255)));
  return out;
}

struct MatrixLayout {
  size_t n;
  double cell, value_size, power_size, left, top;
  double x(size_t j) const { return left + static_cast<double>(j) * cell; }
  double y(size_t i) const { return top + static_cast<double>(i) * cell; }
  double legend_top() const { return y(n) + 44; }
  double width() const { return std::max(x(n) + 24, 560.0); }
  double height() const { return legend_top() + cell + 36; }
};

MatrixLayout matrix_layout(const Matrix& omega) {
  MatrixLayout l{};
  l.n = omega.rows;
  const double base = l.n <= 8 ? 56 : l.n <= 16 ? 44 : 36;
  l.value_size = l.n <= 8 ? 16 : l.n <= 16 ? 13 : 11;
  l.power_size = l.n <= 16 ? 10 : 8.5;
  l.cell = std::max(base, text_width(widest(omega.entries), l.value_size) + 10);
  l.left = 44;
  l.top = 92;
  return l;
}

void draw_cell(Svg& svg, double x, double y, const MatrixLayout& l, ulong exponent, const std::string& value) {
  svg.rect(x + 1, y + 1, l.cell - 2, l.cell - 2, exponent_colour(exponent, l.n), "#ffffff");
  svg.text(x + l.cell / 2, y + l.cell * 0.42, l.value_size, "middle", value,
           " font-weight=\"bold\" fill=\"#0f172a\"");
  svg.text(x + l.cell / 2, y + l.cell * 0.42 + l.power_size + 5, l.power_size, "middle",
           power_markup(exponent, l.power_size), " fill=\"#334155\"");
}

}  // namespace

std::string butterfly_svg(const FftTrace& t) {
  const ButterflyLayout l = butterfly_layout(t);
  Svg svg(l.width(), l.height());
  draw_headings(svg, t, l);
  draw_edges(svg, t, l);
  draw_twiddle_labels(svg, t, l);
  draw_column(svg, t.first_stage_input, 0, "#fef3c7", l);
  for (size_t s = 0; s < l.stages; s++)
    draw_column(svg, t.stages[s].after, s + 1, s + 1 == l.stages ? "#dcfce7" : "#f8fafc", l);
  draw_wire_names(svg, t, l);
  svg.text(l.left - 40, l.height() - 18, 12, "start",
           escape_html("The values are residues mod " + t.modulus->to_string() + "; X = fft(v, w)."), " fill=\"#334155\"");
  return svg.str();
}

std::string dft_matrix_svg(const Matrix& omega, const Fmpz& w, const ModulusPtr& m) {
  const MatrixLayout l = matrix_layout(omega);
  const auto exponents = dft_exponents(l.n);
  Svg svg(l.width(), l.height());
  svg.text(12, 28, 17, "start",
           escape_html("DFT matrix \u03a9 = (w^(i\u00b7j)), n = " + std::to_string(l.n) + ", w = " + w.to_string() +
                  " in Z/" + m->to_string() + "Z"),
           " font-weight=\"bold\"");
  svg.text(12, 50, 12, "start",
           escape_html("colour = the exponent i\u00b7j mod " + std::to_string(l.n) + "; row i, column j"),
           " fill=\"#334155\"");
  for (size_t j = 0; j < l.n; j++)
    svg.text(l.x(j) + l.cell / 2, l.top - 8, 11, "middle", "j=" + std::to_string(j), " fill=\"#475569\"");
  for (size_t i = 0; i < l.n; i++)
    svg.text(l.left - 6, l.y(i) + l.cell / 2 + 4, 11, "end", "i=" + std::to_string(i), " fill=\"#475569\"");
  for (size_t i = 0; i < l.n; i++)
    for (size_t j = 0; j < l.n; j++) draw_cell(svg, l.x(j), l.y(i), l, exponents[i][j], omega.at(i, j).to_string());
  svg.text(l.left, l.legend_top() - 10, 12, "start", "the colours: w^e for e = 0.." + std::to_string(l.n - 1),
           " fill=\"#334155\"");
  for (size_t e = 0; e < l.n; e++) draw_cell(svg, l.x(e), l.legend_top(), l, e, omega.at(1 % l.n, e).to_string());
  return svg.str();
}

void write_file(const std::string& path, const std::string& text, const char* what) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (file) file << text;
  if (file) file.close();
  if (!file)
    throw DomainError(std::string(what) + ": cannot write '" + path + "' (" + std::strerror(errno) + ")");
}

bool is_svg_path(const std::string& mode) {
  if (mode.size() <= 4) return false;
  std::string ending = mode.substr(mode.size() - 4);
  std::transform(ending.begin(), ending.end(), ending.begin(), [](unsigned char ch) { return std::tolower(ch); });
  return ending == ".svg";
}

}  // namespace cas::teaching
