// The HTML forms of the teaching traces (algebra/teaching/teaching_html.hpp): the lecture's DFT_8
// over Z/17Z table by table, the six steps, the evaluation table, escaping, well-formed markup;
// and on random traces, the same words and numbers in the same order as the plain-text tables.
#include "algebra/teaching/teaching.hpp"
#include "algebra/teaching/teaching_html.hpp"
#include "algebra/teaching/teaching_text.hpp"
#include "flint_support.hpp"
#include "interpreter_support.hpp"

#include <sstream>
#include <string>
#include <vector>

using cas::Fmpz;
using cas::ModulusPtr;
using cas::Value;
using cas::teaching::FftOrdering;
using cas::teaching::Residues;
using cas::test::Random;

namespace {

// Why `html` is not well formed (every element closed in order, <br> excepted; & only in
// character references; < and > only around tags), or empty when it is.
std::string markup_problem(const std::string& html) {
  std::vector<std::string> open;
  for (size_t i = 0; i < html.size(); i++) {
    if (html[i] == '>') return "a stray > at " + std::to_string(i);
    if (html[i] == '&') {
      bool known = false;
      for (const char* entity : {"&amp;", "&lt;", "&gt;", "&quot;"})
        known = known || html.compare(i, std::string(entity).size(), entity) == 0;
      if (!known) return "a stray & at " + std::to_string(i);
      continue;
    }
    if (html[i] != '<') continue;
    const size_t end = html.find('>', i);
    if (end == std::string::npos) return "an unclosed tag at " + std::to_string(i);
    const bool closing = html[i + 1] == '/';
    const size_t name_at = i + (closing ? 2 : 1);
    const size_t name_end = html.find_first_of(" >", name_at);
    const std::string name = html.substr(name_at, name_end - name_at);
    if (name.empty() || name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789") != std::string::npos)
      return "a bad tag name '" + name + "' at " + std::to_string(i);
    if (closing) {
      if (open.empty() || open.back() != name) return "</" + name + "> closes nothing open at " + std::to_string(i);
      open.pop_back();
    } else if (name != "br") {
      open.push_back(name);
    }
    i = end;
  }
  return open.empty() ? "" : "<" + open.back() + "> is never closed";
}

size_t count(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) n++;
  return n;
}

// The words of the HTML's text: tags dropped, character references read.
std::vector<std::string> words_of_html(const std::string& html) {
  std::string text;
  for (size_t i = 0; i < html.size(); i++) {
    if (html[i] == '<') {
      i = html.find('>', i);
      text += ' ';
    } else if (html[i] == '&') {
      const size_t end = html.find(';', i);
      const std::string entity = html.substr(i, end - i + 1);
      text += entity == "&amp;" ? "&" : entity == "&lt;" ? "<" : entity == "&gt;" ? ">" : "\"";
      i = end;
    } else {
      text += html[i];
    }
  }
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

std::vector<std::string> words_of_text(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

Value ints_mod(std::initializer_list<slong> values, const ModulusPtr& m) {
  Residues out;
  for (slong v : values) out.emplace_back(v);
  return cas::test::to_value(out, m);
}

// Whether w has order n in Z/pZ, n a power of two: w^n = 1 and, for n > 1, w^(n/2) != 1.
bool has_order(const Fmpz& w, ulong n, const ModulusPtr& m) {
  Fmpz power;
  fmpz_powm_ui(power.get(), w.get(), n, m->value());
  if (!fmpz_is_one(power.get())) return false;
  if (n == 1) return true;
  fmpz_powm_ui(power.get(), w.get(), n / 2, m->value());
  return !fmpz_is_one(power.get());
}

// The part of `html` from its last <table> on.
std::string last_table(const std::string& html) { return html.substr(html.rfind("<table")); }

}  // namespace

TEST_CASE("the checker of the tests finds badly formed markup", "[teaching_html]") {
  CHECK(markup_problem("<div><p>a &amp; b<br></p></div>").empty());
  CHECK_FALSE(markup_problem("<table><tr></table>").empty());
  CHECK_FALSE(markup_problem("<p>a & b</p>").empty());
  CHECK_FALSE(markup_problem("<p>a -> b</p>").empty());
  CHECK_FALSE(markup_problem("<div>").empty());
}

TEST_CASE("the lecture's DFT_8 over Z/17Z as HTML: bit reversal and 3 stage tables", "[teaching_html]") {
  const ModulusPtr m = cas::make_modulus(17);
  const Value w = Value::mod(Fmpz(slong{2}).get(), m);
  const auto t = cas::teaching::trace_fft(ints_mod({1, 2, 1, 2, 1, 2, 1, 2}, m), w, FftOrdering::CooleyTukey, "t");
  const std::string html = cas::teaching::fft_trace_html(t);
  INFO(html);
  CHECK(markup_problem(html).empty());
  CHECK(html.rfind("<div>", 0) == 0);
  CHECK(html.find("<style") == std::string::npos);
  CHECK(count(html, "<table") == 1 + 3);  // the bit reversal, then log2(8) stages
  CHECK(count(html, "</table>") == 1 + 3);
  CHECK(html.find("<p><b>radix-2 Cooley-Tukey FFT of length 8 over Z/17Z at w = 2</b></p>") != std::string::npos);
  CHECK(html.find("<p>input: [1, 2, 1, 2, 1, 2, 1, 2]</p>") != std::string::npos);
  CHECK(html.find("<tr><th>i</th><th>binary</th><th>rev(i)</th><th>v[rev(i)]</th></tr>") != std::string::npos);
  CHECK(html.find("<tr><td>3</td><td>011</td><td>6</td><td>1</td></tr>") != std::string::npos);
  CHECK(html.find("<p>after: [1, 1, 1, 1, 2, 2, 2, 2]</p>") != std::string::npos);
  for (const char* stage : {"stage 1 of 3: ", "stage 2 of 3: ", "stage 3 of 3: "})
    CHECK(html.find(std::string("<p><b>") + stage) != std::string::npos);
  CHECK(html.find("stage 4 of") == std::string::npos);
  // The arrow column, escaped; a header row and 4 butterflies a stage.
  CHECK(count(html, "<tr><th>pair</th><th>w^k</th><th>a</th><th>b</th><th>-&gt;</th><th>a + w^k*b</th>"
                    "<th>a - w^k*b</th></tr>") == 3);
  CHECK(count(last_table(html), "<tr>") == 1 + 4);
  // The result in the last table and the whole vector after it.
  const std::string last = last_table(html);
  CHECK(last.find("<tr><td>0, 4</td><td>w^0 = 1</td><td>4</td><td>8</td><td>-&gt;</td><td>12</td><td>13</td></tr>") !=
        std::string::npos);
  CHECK(last.find("<p>after: [12, 0, 0, 0, 13, 0, 0, 0]</p>") != std::string::npos);
  CHECK(html.find("<p>after: [4, 0, 0, 0, 8, 0, 0, 0]</p>") < html.rfind("<table"));
  // Numbers right-aligned, as in the text tables.
  CHECK(count(html, "<table style=\"text-align: right\">") == 4);
}

TEST_CASE("Stockham and length-1 traces as HTML", "[teaching_html]") {
  const ModulusPtr m = cas::make_modulus(17);
  const Value w = Value::mod(Fmpz(slong{2}).get(), m);
  const auto st = cas::teaching::trace_fft(ints_mod({1, 2, 1, 2, 1, 2, 1, 2}, m), w, FftOrdering::Stockham, "t");
  const std::string html = cas::teaching::fft_trace_html(st);
  INFO(html);
  CHECK(markup_problem(html).empty());
  CHECK(count(html, "<table") == 3);  // no bit reversal
  CHECK(html.find("bit reversal:") == std::string::npos);
  CHECK(html.find("(Moreno Maza &amp; Pan 2010, formula (12))") != std::string::npos);
  CHECK(html.find("<th>reads</th><th>writes</th>") != std::string::npos);
  CHECK(last_table(html).find("<p>after: [12, 0, 0, 0, 13, 0, 0, 0]</p>") != std::string::npos);

  const auto one = cas::teaching::trace_fft(ints_mod({7}, m), Value::mod(Fmpz(slong{1}).get(), m),
                                            FftOrdering::CooleyTukey, "t");
  const std::string single = cas::teaching::fft_trace_html(one);
  CHECK(markup_problem(single).empty());
  CHECK(count(single, "<table") == 0);
  CHECK(single.find("<p>(a DFT of length 1 is the identity: no stages)</p>") != std::string::npos);
}

TEST_CASE("the six steps as HTML: a table per matrix, rows and columns numbered", "[teaching_html]") {
  const ModulusPtr m = cas::make_modulus(17);
  const Value w = Value::mod(Fmpz(slong{2}).get(), m);
  const auto t = cas::teaching::trace_six_step(ints_mod({1, 2, 1, 2, 1, 2, 1, 2}, m), w, 2, 4, "t");
  const std::string html = cas::teaching::six_step_html(t);
  INFO(html);
  CHECK(markup_problem(html).empty());
  CHECK(count(html, "<table") == 6);  // steps 1, 2, 3 (factors and products), 4, 5
  CHECK(html.find("<p><b>six-step DFT of length 8 = 2 x 4 over Z/17Z at w = 2</b></p>") != std::string::npos);
  CHECK(html.find("<p><b>1. reshape v into 2 rows of 4: A[r][c] = v[4*r + c]</b></p>") != std::string::npos);
  CHECK(html.find("<p>the products:</p>") != std::string::npos);
  CHECK(html.find("<tr><th>r \\ c</th><th>0</th><th>1</th><th>2</th><th>3</th></tr>") != std::string::npos);
  CHECK(html.find("<tr><th>0</th><td>12</td><td>0</td><td>13</td><td>0</td></tr>") != std::string::npos);
  CHECK(html.find("<p><b>6. read row by row: [12, 0, 0, 0, 13, 0, 0, 0] = the DFT of v at w</b></p>") !=
        std::string::npos);
  CHECK(count(last_table(html), "<tr>") == 1 + 4);  // the transposed 4 x 2 matrix
}

TEST_CASE("the evaluation table as HTML, with f's text escaped", "[teaching_html]") {
  const ModulusPtr m = cas::make_modulus(17);
  cas::ModPoly f(m);
  for (slong j = 0; j < 8; j++) f.set_coeff(j, Fmpz(j + 1).get());
  const auto t = cas::teaching::evaluation_table(f, Value::mod(Fmpz(slong{2}).get(), m), 8, "t");
  const std::string html = cas::teaching::evaluation_table_html(t, "<f & \"g\">");
  INFO(html);
  CHECK(markup_problem(html).empty());
  CHECK(html.find("f = &lt;f &amp; &quot;g&quot;&gt;</b></p>") != std::string::npos);
  CHECK(count(html, "<table") == 1);
  CHECK(html.find("<tr><th>i</th><th>w^i</th><th>f(w^i)</th></tr>") != std::string::npos);
  CHECK(count(html, "<tr>") == 1 + 8);
  CHECK(html.find("<tr><td>4</td><td>16</td><td>13</td></tr>") != std::string::npos);
  CHECK(html.find("<p>idft(values, w) = [1, 2, 3, 4, 5, 6, 7, 8], the coefficients of f</p>") != std::string::npos);
  CHECK(cas::teaching::escape_html("a<b>&\"c\"") == "a&lt;b&gt;&amp;&quot;c&quot;");
}

TEST_CASE("random traces: the HTML holds the text tables' words in their order", "[teaching_html]") {
  Random r;
  for (int trial = 0; trial < cas::test::trials(10); trial++)
    for (ulong n : {1ul, 2ul, 4ul, 16ul}) {
      const ModulusPtr m = cas::make_modulus(cas::test::random_prime_for_order(r, 2 + n_randint(r.state, 80), n).get());
      // (p-1)/n-th powers of random elements until one has order n exactly.
      Fmpz e, g, root;
      fmpz_sub_ui(e.get(), m->value(), 1);
      fmpz_divexact_ui(e.get(), e.get(), n);
      do {
        fmpz_randm(g.get(), r.state, m->value());
        fmpz_powm(root.get(), g.get(), e.get(), m->value());
      } while (!has_order(root, n, m));
      const Value w = Value::mod(root.get(), m);
      const Value v = cas::test::to_value(cas::test::random_residues(r, m, n), m);
      for (FftOrdering ordering : {FftOrdering::CooleyTukey, FftOrdering::Stockham}) {
        const auto t = cas::teaching::trace_fft(v, w, ordering, "t");
        std::ostringstream text;
        cas::teaching::write_fft_trace(text, t);
        const std::string html = cas::teaching::fft_trace_html(t);
        INFO(html);
        CHECK(markup_problem(html).empty());
        CHECK(words_of_html(html) == words_of_text(text.str()));
      }
      cas::ModPoly f(m);
      for (size_t j = 0; j < n; j++) f.set_coeff(static_cast<slong>(j), cas::test::residues_of(v)[j].get());
      const auto table = cas::teaching::evaluation_table(f, w, n, "t");
      std::ostringstream text;
      cas::teaching::write_evaluation_table(text, table, "f");
      const std::string html = cas::teaching::evaluation_table_html(table, "f");
      CHECK(markup_problem(html).empty());
      CHECK(words_of_html(html) == words_of_text(text.str()));
    }
}

TEST_CASE("the shift trace as HTML: 8 points modulo 65537 at w = 16, the text's words", "[teaching_html][shifts]") {
  const ModulusPtr m = cas::make_modulus(65537);
  const Value w = Value::mod(Fmpz(slong{16}).get(), m);
  // 61440 = 0xF000 enters stage 1 at a twiddle 16^0; -8 = 65529 makes negative shifted values later.
  const auto t = cas::teaching::trace_shift_fft(ints_mod({1, 61440, 3, 4, 65536, 6, 7, 65529}, m), w, "t");
  const std::string html = cas::teaching::shift_trace_html(t);
  INFO(html);
  CHECK(markup_problem(html).empty());
  CHECK(html.rfind("<div>", 0) == 0);
  CHECK(count(html, "<table") == 1 + 3);  // the bit reversal, then log2(8) stages
  CHECK(html.find("<p><b>radix-2 Cooley-Tukey FFT of length 8 over Z/65537Z at w = 16, where 65537 = 16^4 + 1</b></p>") !=
        std::string::npos);
  CHECK(count(html, "<tr><th>pair</th><th>j</th><th>a</th><th>b</th><th>b in base 16</th><th>shifted j places</th>"
                    "<th>w^j*b</th><th>-&gt;</th><th>a + w^j*b</th><th>a - w^j*b</th></tr>") == 3);
  CHECK(count(last_table(html), "<tr>") == 1 + 4);
  CHECK(html.find(" | -") != std::string::npos);
  CHECK(html.find(" + 65537 = ") != std::string::npos);  // a negative shifted value made a residue
  std::ostringstream text;
  cas::teaching::write_shift_trace(text, t);
  CHECK(words_of_html(html) == words_of_text(text.str()));
}
