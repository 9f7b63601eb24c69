#include "explain.hpp"

#include "algebra/dispatch/explain.hpp"

#include <cstring>

namespace cas {

namespace {

// What each stdlib function computes, by name, for `:explain`.
struct StdlibAlgorithm {
  const char* name;
  const char* algorithm;
};
constexpr StdlibAlgorithm stdlib_algorithms[] = {
    {"dft", "the DFT by its definition, X_k = sum_j v_j w^(jk): n^2 products in Z/pZ, O(n^2)"},
    {"idft", "the inverse DFT by its definition: the DFT at w^-1, then times n^-1, O(n^2)"},
    {"recursive_fft", "the radix-2 Cooley-Tukey FFT as a recursion: even and odd halves at w^2, then butterflies"},
    {"dftmatrix", "the matrix (w^(ij)), entry by entry"},
    {"bitreverse", "the bit-reversal permutation, index by index"},
    {"cyclic_polymul_dft", "a product modulo x^n - 1 as DFT^-1(DFT(a) .* DFT(b)), with dft and idft"},
    {"polymul_dft", "a product through the DFT, with dft and idft (n larger than deg f + deg g)"},
    {"rns", "the residues modulo each modulus: the residue number system"},
    {"crt_formula", "the CRT by the lecture's formula, sum_i r_i N_i M_i mod N"},
    {"padded", "the vector followed by zeros"},
};

const char* stdlib_algorithm(const char* name) {
  for (const auto& s : stdlib_algorithms)
    if (std::strcmp(s.name, name) == 0) return s.algorithm;
  return nullptr;
}

std::string explain_stdlib_call(const EngineNote& n) {
  const OperationDetail& d = n.detail;
  std::string text = std::string(n.function) + " (stdlib, written in cas; source(" + n.function + ") shows it)";
  if (d.length1) text += " on a vector of length " + std::to_string(d.length1);
  if (d.modulus) text += " over Z/" + std::to_string(d.modulus) + "Z";
  if (const char* algorithm = stdlib_algorithm(n.function)) text += ": " + std::string(algorithm);
  text += ", run by the interpreter one element at a time";
  if (n.count > 1) text += " (" + std::to_string(n.count) + " calls)";
  return text;
}

}  // namespace

void note_stdlib_call(const Function& fn, const std::vector<Value>& args) {
  OperationDetail detail;
  detail.function = fn.name.c_str();
  for (const Value& a : args) {
    if (!detail.length1 && a.is(Kind::Vec)) detail.length1 = a.vec_size();
    if (!detail.modulus && a.is(Kind::Mod) && a.modulus_raw()->word_size()) detail.modulus = a.modulus_raw()->word();
  }
  engine_explain("cas function", static_cast<double>(detail.length1), detail);
}

std::vector<std::string> explain_statement(const std::string& text) {
  std::vector<std::string> lines;
  if (text.empty()) return {"nothing to explain yet: run a statement first"};
  lines.push_back("the last statement: " + text);
  const std::vector<EngineNote> notes = engine_notes();
  for (const EngineNote& n : notes) {
    std::string sentence = n.function[0] ? explain_stdlib_call(n) : explain_note(n);
    if (!sentence.empty()) lines.push_back("  " + sentence);
  }
  if (size_t more = engine_notes_dropped()) lines.push_back("  ... and " + std::to_string(more) + " more operations");
  if (notes.empty())
    lines.push_back("  no product, power, transform or CRT: only arithmetic on single integers and elements of Z/pZ");
  lines.push_back("  " + explain_engine(notes));
  return lines;
}

}  // namespace cas
