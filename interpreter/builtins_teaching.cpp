// fftsteps, sixstep, evaltable, butterfly and the extra modes of dftmatrix: the finite-field
// Fourier transforms shown step by step, for teaching. The traces are computed in
// algebra/teaching/teaching.hpp, printed by algebra/teaching/teaching_text.hpp, drawn by algebra/teaching/teaching_svg.hpp.
#include "algebra/dispatch/engine.hpp"
#include "algebra/fourier/fourier.hpp"
#include "algebra/support/guards.hpp"
#include "algebra/dispatch/dispatch.hpp"
#include "algebra/teaching/teaching.hpp"
#include "algebra/teaching/teaching_html.hpp"
#include "algebra/teaching/teaching_svg.hpp"
#include "algebra/teaching/teaching_text.hpp"
#include "interpreter.hpp"
#include "poly_args.hpp"

#include <functional>
#include <sstream>

namespace cas {

namespace {

using teaching::FftOrdering;

// "cooley-tukey" or "stockham" as an ordering; false for any other text.
bool is_ordering(const std::string& mode, FftOrdering& ordering) {
  if (mode == "cooley-tukey") ordering = FftOrdering::CooleyTukey;
  else if (mode == "stockham") ordering = FftOrdering::Stockham;
  else return false;
  return true;
}

// The optional ordering argument of butterfly: "cooley-tukey" (the default) or "stockham".
FftOrdering ordering_arg(const CallContext& c, size_t i, const char* fn) {
  FftOrdering ordering = FftOrdering::CooleyTukey;
  if (c.args.size() <= i || is_ordering(str_arg(c, i, fn), ordering)) return ordering;
  throw DomainError(std::string(fn) + ": the ordering must be \"cooley-tukey\" or \"stockham\", not " +
                    format(c.args[i]));
}

// What :explain says about a traced transform of length n at w (a word-size root, or only its size).
void explain_trace(const char* what, size_t n, size_t second, const Value& w) {
  const Modulus& m = w.mod_context();
  OperationDetail d;
  d.length1 = n;
  d.length2 = second;
  d.modulus = m.word_size() ? m.word() : 0;
  d.modulus_bits = static_cast<unsigned>(fmpz_bits(m.value()));
  d.root = m.word_size() ? fmpz_get_ui(w.as_int()) : 0;
  engine_explain(what, static_cast<double>(n), d);
}

const char* trace_note(FftOrdering ordering) {
  return ordering == FftOrdering::Stockham ? "traced stockham fft" : "traced fft";
}

// A table: text on the interpreter's output, or in a notebook the HTML form with the text beside it.
template <class WriteText>
void show_table(CallContext& c, WriteText&& write_text, const std::function<std::string()>& html) {
  if (!c.interp.display) {
    write_text(c.interp.out());
    return;
  }
  std::ostringstream text;
  write_text(text);
  c.interp.display->show(MimeBundle{{{"text/plain", text.str()}, {"text/html", html()}}});
}

// A picture: written to `path`, or with no path shown in the notebook. Outside a notebook a
// picture without a file name is drawn nowhere, and a notice says how to keep it.
void show_picture(CallContext& c, const std::string& path, const std::string& svg, const std::string& caption,
                  const char* fn) {
  if (!path.empty()) {
    teaching::write_file(path, svg, fn);
  } else if (c.interp.display) {
    c.interp.display->show(MimeBundle{{{"text/plain", caption}, {"image/svg+xml", svg}}});
  } else {
    post_notice(std::string(fn) + ": pictures show in a notebook (cas --install-kernel); here, give the name "
                "of an SVG file to write it, as " + fn + "(..., \"" + fn + ".svg\")");
  }
}

// The optional mode of fftsteps: an ordering, or "shifts" (the Cooley-Tukey FFT with each product
// shown as a digit shift, for p = w^k + 1).
struct StepsMode {
  FftOrdering ordering = FftOrdering::CooleyTukey;
  bool shifts = false;
};

StepsMode steps_mode_arg(const CallContext& c) {
  StepsMode mode;
  if (c.args.size() <= 2) return mode;
  const std::string& text = str_arg(c, 2, "fftsteps");
  if (text == "shifts")
    mode.shifts = true;
  else if (!is_ordering(text, mode.ordering))
    throw DomainError("fftsteps: the mode must be \"cooley-tukey\", \"stockham\" or \"shifts\", not " +
                      format(c.args[2]));
  return mode;
}

Value fftsteps_shifts(CallContext& c) {
  const teaching::ShiftTrace trace = teaching::trace_shift_fft(c.args[0], c.args[1], "fftsteps");
  explain_trace(trace_note(FftOrdering::CooleyTukey), trace.fft.result().size(), 0, c.args[1]);
  show_table(
      c, [&](std::ostream& out) { teaching::write_shift_trace(out, trace); },
      [&] { return teaching::shift_trace_html(trace); });
  return residue_vector(trace.fft.result(), trace.fft.modulus);
}

Value fftsteps(CallContext& c) {
  const StepsMode mode = steps_mode_arg(c);
  if (mode.shifts) return fftsteps_shifts(c);
  const FftOrdering ordering = mode.ordering;
  const teaching::FftTrace trace = teaching::trace_fft(c.args[0], c.args[1], ordering, "fftsteps");
  explain_trace(trace_note(ordering), trace.result().size(), 0, c.args[1]);
  show_table(
      c, [&](std::ostream& out) { teaching::write_fft_trace(out, trace); },
      [&] { return teaching::fft_trace_html(trace); });
  return residue_vector(trace.result(), trace.modulus);
}

// butterfly(v, w), butterfly(v, w, ordering), butterfly(v, w, "file.svg"), butterfly(v, w, "file.svg", ordering).
Value butterfly(CallContext& c) {
  std::string path;
  FftOrdering ordering = FftOrdering::CooleyTukey;
  if (c.args.size() > 2) {
    const std::string& third = str_arg(c, 2, "butterfly");
    if (teaching::is_svg_path(third))
      path = third;
    else if (c.args.size() > 3 || !is_ordering(third, ordering))
      throw DomainError(arg_name("butterfly", 2) +
                        " must be the name of an SVG file, ending in .svg, or an ordering (\"cooley-tukey\" or "
                        "\"stockham\"), not " + format(c.args[2]));
  }
  if (c.args.size() > 3) ordering = ordering_arg(c, 3, "butterfly");
  const teaching::FftTrace trace = teaching::trace_fft(c.args[0], c.args[1], ordering, "butterfly");
  explain_trace(trace_note(ordering), trace.result().size(), 0, c.args[1]);
  show_picture(c, path, teaching::butterfly_svg(trace),
               "butterfly diagram of the " + std::string(ordering == FftOrdering::Stockham ? "Stockham" : "Cooley-Tukey") +
                   " FFT of length " + std::to_string(trace.result().size()),
               "butterfly");
  return residue_vector(trace.result(), trace.modulus);
}

Value sixstep(CallContext& c) {
  const ulong J = count_arg(c, 2, "sixstep"), K = count_arg(c, 3, "sixstep");
  const teaching::SixStepTrace trace = teaching::trace_six_step(c.args[0], c.args[1], J, K, "sixstep");
  explain_trace("traced six-step", J * K, J, c.args[1]);
  show_table(
      c, [&](std::ostream& out) { teaching::write_six_step(out, trace); },
      [&] { return teaching::six_step_html(trace); });
  return residue_vector(trace.result, trace.modulus);
}

// f as a polynomial over the Z/pZ of w: a polynomial, a constant, or a vector of coefficients.
ModPoly polynomial_over(const CallContext& c, size_t i, const ModulusPtr& m, const char* fn) {
  const Value& f = c.args[i];
  if (f.is(Kind::Vec)) {
    ModPoly out(m);
    const std::vector<Fmpz> coefficients = residues_at_root(f, c.args[1], fn);
    for (size_t k = 0; k < coefficients.size(); k++) out.set_coeff(static_cast<slong>(k), coefficients[k].get());
    return out;
  }
  require_poly_arg(c, i, fn);
  if (ModulusPtr fm = f.modulus(); fm && !same_modulus(fm, m))
    throw DomainError(std::string(fn) + ": f is over Z/" + fm->to_string() + "Z but w is in Z/" + m->to_string() + "Z");
  return to_modpoly(f, m);
}

Value evaltable(CallContext& c) {
  const ModulusPtr m = modulus_of_root(c.args[1], "evaltable");
  const ModPoly f = polynomial_over(c, 0, m, "evaltable");
  const ulong n = count_arg(c, 2, "evaltable");
  if (n == 0) throw DomainError("evaltable: n must be at least 1");
  const teaching::EvaluationTable table = teaching::evaluation_table(f, c.args[1], n, "evaltable");
  explain_trace("evaluation table", n, 0, c.args[1]);
  const std::string f_text = format(Value::modpoly(f));
  show_table(
      c, [&](std::ostream& out) { teaching::write_evaluation_table(out, table, f_text); },
      [&] { return teaching::evaluation_table_html(table, f_text); });
  return residue_vector(table.values, m);
}

Value matrix_value(const teaching::Matrix& a, const ModulusPtr& m) {
  std::vector<Value> rows;
  for (size_t r = 0; r < a.rows; r++)
    rows.push_back(residue_vector(
        teaching::Residues(a.entries.begin() + static_cast<long>(r * a.cols),
                           a.entries.begin() + static_cast<long>((r + 1) * a.cols)),
        m));
  return Value::vec(std::move(rows));
}

Value exponents_value(size_t n) {
  std::vector<Value> rows;
  for (const auto& exponents : teaching::dft_exponents(n)) {
    std::vector<Value> row;
    for (ulong e : exponents) row.push_back(Value::integer(static_cast<slong>(e)));
    rows.push_back(Value::vec(std::move(row)));
  }
  return Value::vec(std::move(rows));
}

// dftmatrix(n, w) is written in cas (stdlib/fourier.cas); this builtin adds its third argument.
Value dftmatrix_mode(CallContext& c) {
  const ulong n = count_arg(c, 0, "dftmatrix");
  const ModulusPtr m = modulus_of_root(c.args[1], "dftmatrix");
  const std::string& mode = str_arg(c, 2, "dftmatrix");
  if (mode != "powers" && mode != "svg" && !teaching::is_svg_path(mode))
    throw DomainError("dftmatrix: the mode must be \"powers\", \"svg\" or the name of an SVG file (ending in .svg), not " +
                      format(c.args[2]));
  if (n == 0) throw DomainError("dftmatrix: n must be at least 1");
  guard_allocation(static_cast<double>(n) * static_cast<double>(n) * 64, "dftmatrix");
  const teaching::Matrix omega = teaching::dft_matrix(c.args[1], n, "dftmatrix");
  if (mode == "powers") return exponents_value(n);
  show_picture(c, mode == "svg" ? "" : mode, teaching::dft_matrix_svg(omega, Fmpz(c.args[1].as_int()), m),
               "the " + std::to_string(n) + " x " + std::to_string(n) + " DFT matrix at " + format(c.args[1]),
               "dftmatrix");
  return matrix_value(omega, m);
}

}  // namespace

void register_teaching_builtins(Registry& r) {
  r.reg("fftsteps", 2, 3, fftsteps,
        "fftsteps(v, w): fft(v, w), printing every step of the radix-2 Cooley-Tukey FFT as a table: the "
        "bit-reversal permutation, then for each of the log2(n) stages the pairs (i, j) combined, the twiddle "
        "factor w^k, the values a, b before and a + w^k*b, a - w^k*b after, and the whole vector after the stage. "
        "fftsteps(v, w, \"stockham\"): the same for the Stockham FFT (Moreno Maza & Pan 2010, formula (12)), which "
        "needs no bit reversal: each stage reads through a stride permutation and writes the pairs (j, j + n/2), so "
        "that the two orderings can be compared; \"cooley-tukey\" names the default. "
        "fftsteps(v, w, \"shifts\"): for p = w^k + 1 (a generalized Fermat number, w its base r, of order 2k) and "
        "len(v) = 2k, the Cooley-Tukey stages with every product w^j*b shown in base-w digits: b's k digits moved up "
        "j places, the j that pass the top coming back at the bottom negated (w^k = -1), so that no multiplication "
        "happens (Fuerer's trick). Returns the DFT. "
        "Examples: fftsteps([1, 2, 1, 2, 1, 2, 1, 2], 2 mod 17), fftsteps([1, 2, 3, 4, 5, 6, 7, 8], 16 mod 65537, "
        "\"shifts\").");
  r.reg("sixstep", 4, sixstep,
        "sixstep(v, w, J, K): the DFT of v at w (= dft(v, w)) by the six-step algorithm for n = len(v) = J*K, "
        "printing the matrices: 1. v reshaped into J rows of K, 2. a DFT of length J at w^K down each column, "
        "3. entry (r, c) times the twiddle factor w^(r*c), 4. a DFT of length K at w^J along each row, "
        "5. the transpose (K rows of J), 6. read row by row. w must be a primitive n-th root of unity; n need not "
        "be a power of two. Example: sixstep([1, 2, 1, 2, 1, 2, 1, 2], 2 mod 17, 2, 4).");
  r.reg("evaltable", 3, evaltable,
        "evaltable(f, w, n): the table i, w^i, f(w^i) for i = 0..n-1 that the DFT of the coefficients of f "
        "computes, followed by the way back: interpolate(points, values), the inverse DFT, gives f again, and "
        "its coefficients are idft(values, w). f is a polynomial (over Z or the Z/pZ of w) or a vector of "
        "coefficients with deg f < n; w a primitive n-th root of unity. Returns the values f(w^i). "
        "Example: evaltable(1 + 2*x + 3*x^2 + 4*x^3 + 5*x^4 + 6*x^5 + 7*x^6 + 8*x^7, 2 mod 17, 8).");
  r.reg("butterfly", 2, 4, butterfly,
        "butterfly(v, w): the butterfly diagram of the radix-2 Cooley-Tukey FFT of v at w as a picture: the "
        "bit-reversed input, the value on every wire after every stage, and the twiddle power w^k on the edge that "
        "multiplies b by it; readable for n up to 32. In a notebook it shows in the page; elsewhere give a file: "
        "butterfly(v, w, \"fft8.svg\") writes the SVG there. butterfly(v, w, \"stockham\") and "
        "butterfly(v, w, \"file.svg\", \"stockham\") draw the Stockham FFT. Returns fft(v, w).");
  r.reg_extension("dftmatrix", 3, 3, dftmatrix_mode,
        "dftmatrix(n, w): the DFT matrix (w^(i*j)) for 0 <= i, j < n as a vector of rows, written in cas "
        "(source(dftmatrix)); the REPL shows it as an aligned grid, and it stays valid input. "
        "dftmatrix(n, w, \"powers\"): the grid of exponents i*j mod n instead (w^(i*j) = w^(i*j mod n)). "
        "dftmatrix(n, w, \"svg\"): the matrix as a picture, a grid coloured by exponent, shown in a notebook; "
        "dftmatrix(n, w, \"omega.svg\") writes that picture to an SVG file. Both return the matrix. With a mode, w must be a primitive n-th root of unity.");
}

}  // namespace cas
