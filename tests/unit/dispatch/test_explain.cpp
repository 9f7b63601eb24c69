// :explain: the notes the algebra layer and the interpreter record for a statement
// (algebra/dispatch/engine.hpp) and the sentences made from them (algebra/dispatch/explain.hpp,
// interpreter/explain.hpp).
#include "algebra/dispatch/dispatch.hpp"
#include "algebra/dispatch/engine.hpp"
#include "algebra/dispatch/explain.hpp"
#include "gpu/ntt.hpp"
#include "interpreter/explain.hpp"
#include "interpreter_support.hpp"

#include <catch2/catch.hpp>

namespace {

using cas::test::Session;

// The :explain lines for `text`, run as one statement in `s`.
std::string explained(Session& s, const std::string& text) {
  cas::engine_reset();
  s.eval(text);
  std::string all;
  for (const auto& line : cas::explain_statement(text)) all += line + "\n";
  return all;
}

}  // namespace

TEST_CASE("engine notes: equal consecutive notes are counted, the buffer is bounded", "[explain]") {
  cas::engine_reset();
  cas::OperationDetail d;
  d.length1 = 8;
  cas::engine_note("cpu ntt", 8, d);
  cas::engine_note("cpu ntt", 8, d);
  d.length1 = 16;
  cas::engine_note("cpu ntt", 16, d);
  auto notes = cas::engine_notes();
  REQUIRE(notes.size() == 2);
  CHECK(notes[0].count == 2);
  CHECK(notes[1].detail.length1 == 16);
  CHECK(cas::engine_last() == "cpu ntt 2^4");
  for (size_t i = 0; i < cas::engine_note_capacity + 3; i++) cas::engine_explain("crt", static_cast<double>(i));
  CHECK(cas::engine_notes().size() == cas::engine_note_capacity);
  CHECK(cas::engine_notes_dropped() == 5);
  CHECK(cas::engine_last() == "cpu ntt 2^4");  // explanation-only notes name no engine
  cas::engine_reset();
  CHECK(cas::engine_notes().empty());
  CHECK(cas::engine_last().empty());
}

TEST_CASE("explain: the FFT of the lecture, with the counts of its butterflies", "[explain]") {
  Session s;
  const std::string text = explained(s, "fft([1, 2, 1, 2, 1, 2, 1, 2], 2 mod 17)");
  CHECK_THAT(text, Catch::Contains("the last statement: fft([1, 2, 1, 2, 1, 2, 1, 2], 2 mod 17)"));
  CHECK_THAT(text, Catch::Contains("radix-2 FFT of length 8 over Z/17Z at w = 2"));
  CHECK_THAT(text, Catch::Contains("3 stages of 4 butterflies: 12 multiplications by powers of w and 24 additions"));
  CHECK_THAT(text, Catch::Contains("engine: the CPU"));
}

TEST_CASE("explain: evaluation at many points and interpolation name the subproduct tree", "[explain]") {
  Session s;
  s.eval("p = 998244353; xs = vector(600); for i in 0..599 { xs[i] = i }; f = randpoly(700, p)");
  CHECK_THAT(explained(s, "eval(f, xs)"), Catch::Contains("evaluation at 600 points over Z/998244353Z by the subproduct tree"));
  CHECK_THAT(explained(s, "interpolate(xs, xs mod p)"),
             Catch::Contains("interpolation at 600 points over Z/998244353Z by the subproduct tree"));
  CHECK_THAT(explained(s, "eval(f, [1, 2, 3])"), !Catch::Contains("subproduct tree"));
}

TEST_CASE("explain: gcd, xgcd and resultant of long operands name the half-gcd", "[explain]") {
  Session s;
  s.eval("p = 998244353; f = randpoly(2500, p); g = randpoly(2400, p)");
  CHECK_THAT(explained(s, "gcd(f, g)"), Catch::Contains("gcd in Z/998244353Z[x] of lengths 2500 and 2400 by the half-gcd"));
  CHECK_THAT(explained(s, "xgcd(f, g)"), Catch::Contains("xgcd (with the cofactors) in Z/998244353Z[x]"));
  CHECK_THAT(explained(s, "resultant(f, g)"), Catch::Contains("the resultant from every step's quotient degree"));
  CHECK_THAT(explained(s, "gcd(f + x^3000, x^4 + 1)"), !Catch::Contains("half-gcd"));
}

TEST_CASE("explain: resultants in Z[x] past the crossover name the primes and Hadamard's bound", "[explain]") {
  Session s;
  s.eval("f = poly([3, -1, 4, 1, -5, 9, 2, -6] * 1000); g = poly([2, 7, -1, 8, 2, 8, 1, -8] * 10^30)");
  s.eval("F = f^5 + x^39; G = g^5 - 1");
  const std::string text = explained(s, "resultant(F, G)");
  CHECK_THAT(text, Catch::Contains("resultant in Z[x] of lengths 40 and 36 through"));
  CHECK_THAT(text, Catch::Contains("Hadamard's bound"));
  CHECK_THAT(text, Catch::Contains(cas::gpu_usable() ? "thousands at once" : "nmod_poly_resultant each"));
  CHECK_THAT(explained(s, "resultant(f, g)"), !Catch::Contains("Hadamard"));
}

TEST_CASE("explain: the inverse FFT names w^-1 and n^-1", "[explain]") {
  Session s;
  const std::string text = explained(s, "ifft([12, 0, 0, 0, 13, 0, 0, 0], 2 mod 17)");
  CHECK_THAT(text, Catch::Contains("(w = 2, w^-1 = 9, n^-1 = 15)"));
  CHECK_THAT(text, Catch::Contains("radix-2 FFT of length 8 over Z/17Z at w = 9"));
}

TEST_CASE("explain: convolutions, cyclic and negacyclic", "[explain]") {
  Session s;
  CHECK_THAT(explained(s, "convolve([1, 2, 3, 4] mod 17, [5, 6, 7, 8] mod 17)"),
             Catch::Contains("cyclic convolution (modulo x^n - 1) of length 4 over Z/17Z through the DFT"));
  const std::string nega17 = explained(s, "negaconvolve([1, 2, 3, 4] mod 17, [5, 6, 7, 8] mod 17)");
  CHECK_THAT(nega17, Catch::Contains("psi = 9 of order 2n"));
  // without a GPU (or below its crossover) the CPU's fused pipeline: no bit reversal, one set of tables
  if (!cas::use_gpu(cas::GpuOperation::Transform17, 4))
    CHECK_THAT(nega17, Catch::Contains("transforms of length 4 over Z/17Z at w = 13 by cas's NTT on the CPU: both "
                                       "vectors by decimation in frequency (no bit reversal)"));
  CHECK_THAT(explained(s, "convolve([1, 2, 3] mod 17, [4, 5, 6] mod 17)"),
             Catch::Contains("by one polynomial product folded modulo x^n - 1"));
  CHECK_THAT(explained(s, "negaconvolve([1, 2, 3], [4, 5, 6])"),
             Catch::Contains("negacyclic convolution of length 3 over Z by one polynomial product folded modulo "
                             "x^n + 1 (a product in Z[x]"));
  // 2^10 entries of 1 bit: one prime of 62 bits with 2^11 | p - 1 for the weights (the GPU off)
  s.eval("gpu(\"off\"); v = vector(1024, 1)");
  const std::string nega = explained(s, "negaconvolve(v, v)");
  CHECK_THAT(nega, Catch::Contains("negacyclic convolution (modulo x^n + 1) of length 1024 over Z through 1 prime "
                                   "of 62 bits with 2^11 | p - 1"));
  CHECK_THAT(nega, Catch::Contains("|c_k| <= min(len a, len b) |a|_inf |b|_inf < 2^12"));
  CHECK_THAT(nega, Catch::Contains("per prime two NTTs of length 1024"));
  CHECK_THAT(explained(s, "convolve(v, v)"), Catch::Contains("with 2^10 | p - 1"));
  // Z/(10^9 + 7)Z has no root of order 2^12: entries below 2^11 (10^9 + 6)^2 < 2^71, two primes
  s.eval("u = vector(2048, 5 mod 1000000007)");
  const std::string crt = explained(s, "negaconvolve(u, u)");
  CHECK_THAT(crt, Catch::Contains("negacyclic convolution (modulo x^n + 1) of length 2048 over Z/1000000007Z through "
                                  "2 primes of 62 bits with 2^12 | p - 1"));
  CHECK_THAT(crt, Catch::Contains("Z/pZ lacks a root of unity of order 2n"));
  CHECK_THAT(crt, Catch::Contains("<= 2^71, shifted by min(len a, len b) p^2 (0 mod p) into [0, 2^72)"));
  CHECK_THAT(crt, Catch::Contains("straight into its residue mod p"));
  s.eval("gpu(\"auto\")");
  // on the GPU a cyclic convolution of power-of-two length wraps in transforms of length n: one
  // prime when n | p - 1 (2n need not divide it), else CRT primes
  cas::EngineNote note;
  note.what = "gpu cyclic product";
  note.size = 8192;
  note.detail.length1 = note.detail.length2 = 8192;
  note.detail.modulus = 998244353;
  CHECK_THAT(cas::explain_note(note), Catch::Contains("cyclic convolution of length 8192 over Z/998244353Z on the GPU: "
                                                      "the product modulo x^n - 1 wraps inside NTTs of length n"));
  CHECK_THAT(cas::explain_note(note), Catch::EndsWith("(transform length 8192, primes 998244353)"));
  note.detail.modulus = 1000000007;
  const std::string primes = cas::explain_note(note);
  CHECK_THAT(primes, Catch::Contains("transform length 8192, primes " +
                                     std::to_string(cas::gpu::plan_cyclic_product(8192, 8192, 8192, 1000000007)
                                                        .primes.at(0))));
}

TEST_CASE("explain: products and powers name FLINT's algorithm and the modulus", "[explain]") {
  Session s;
  CHECK_THAT(explained(s, "(x + 1)^3 mod 17"), Catch::Contains("FLINT fmpz_poly_pow"));
  CHECK_THAT(explained(s, "((x + 1) mod 17)^5"), Catch::Contains("power in Z/17Z[x]"));
  s.eval("a = (x^9 + 2) mod 17; b = (x^9 + 3) mod 17");
  const std::string product = explained(s, "a * b");
  CHECK_THAT(product, Catch::Contains("product in Z/17Z[x] of lengths 10 and 10: FLINT nmod_poly_mul, here Kronecker"));
  CHECK_THAT(explained(s, "3 * a"), Catch::Contains("of lengths 10 and 1 by a constant: each coefficient times it"));
  CHECK_THAT(explained(s, "(x^5 + 2) * -7"), Catch::Contains("by a constant: each coefficient times it"));
  s.eval("q = nextprime(2^100); c = (x + 2) mod q; d = (x + 3) mod q");
  CHECK_THAT(explained(s, "c * d"),
             Catch::Contains("product in Z/pZ with a 101-bit p[x]"));
  // A Z[x] power through the primes on the CPU (GPU off: the GPU would take it in auto).
  s.eval("gpu(\"off\"); f = randzpoly(2000, 64)");
  const std::string power = explained(s, "f^3");
  CHECK_THAT(power, Catch::Contains("on the CPU's cores: the bound |c_k| <= n^(e-1) |f|_inf^e"));
  CHECK_THAT(power, Catch::Contains("engine: the CPU (cas's own transforms"));
  s.eval("gpu(\"auto\")");
}

TEST_CASE("explain: division and powmod name Newton's iteration or FLINT", "[explain][division]") {
  Session s;
  s.eval("gpu(\"off\"); p = 998244353; f = randpoly(3000, p); g = randpoly(1000, p) + x^1000");
  const std::string newton = explained(s, "divrem(f, g)");
  CHECK_THAT(newton, Catch::Contains("division with remainder in Z/998244353Z[x] of lengths 3000 by 1001 by Newton's"));
  CHECK_THAT(newton, Catch::Contains("inverted modulo x^2000"));
  CHECK_THAT(newton, Catch::Contains("by cas's NTT on the CPU"));
  CHECK_THAT(explained(s, "f % (x^3 + 2)"), Catch::Contains("FLINT nmod_poly_divrem (schoolbook division"));
  CHECK_THAT(explained(s, "powmod(x, p, g)"), Catch::Contains("m of length 1001, e of 30 bits: square and multiply"));
  CHECK_THAT(explained(s, "powmod(x, p, (x^5 + 3) mod p)"), Catch::Contains("FLINT nmod_poly_powmod"));
  // a multi-word modulus: Newton's iteration on whole products, FLINT's division below its crossover
  s.eval("q = 2^127 - 1; F = randpoly(6000, q); G = randpoly(1500, q) + x^1500");
  const std::string big = explained(s, "divrem(F, G)");
  CHECK_THAT(big, Catch::Contains("division with remainder in Z/pZ with a 127-bit p[x] of lengths 6000 by 1501 by "
                                  "Newton's iteration"));
  CHECK_THAT(big, Catch::Contains("from the low 1500 terms of q and g"));
  CHECK_THAT(explained(s, "F % (x^3 + 2)"),
             Catch::Contains("in Z/pZ with a 127-bit p[x] of lengths 6000 by 4: FLINT fmpz_mod_poly_divrem"));
  CHECK_THAT(explained(s, "powmod(x + 1, q, G)"), Catch::Contains("FLINT fmpz_mod_poly_powmod (square and multiply "
                                                                   "with the inverse of rev(m) computed once)"));
  // from m of 8193 terms the cores' multi-modular products take the squares (no GPU here)
  s.eval("H = randpoly(8200, q) + x^8200");
  CHECK_THAT(explained(s, "powmod(x + 1, 3, H)"), Catch::Contains("products (whole, then cut to the terms needed)"));
  s.eval("gpu(\"auto\")");
}

TEST_CASE("explain: FLINT's cutoffs for nmod_poly_mul", "[explain]") {
  CHECK_THAT(cas::flint_nmod_poly_mul_algorithm(3, 3, 5), Catch::Contains("schoolbook"));
  CHECK_THAT(cas::flint_nmod_poly_mul_algorithm(10, 10, 5), Catch::Contains("(KS)"));
  CHECK_THAT(cas::flint_nmod_poly_mul_algorithm(300, 200, 5), Catch::Contains("KS2"));
  CHECK_THAT(cas::flint_nmod_poly_mul_algorithm(5000, 5000, 60), Catch::Contains("KS4"));
  CHECK_THAT(cas::flint_nmod_poly_mul_algorithm(0, 4, 5), Catch::Contains("zero operand"));
}

TEST_CASE("explain: the CRT and the stdlib functions written in cas", "[explain]") {
  Session s;
  CHECK_THAT(explained(s, "crt([2, 0, 8], [3, 7, 11])"), Catch::Contains("Chinese remaindering over 3 moduli"));
  const std::string dft = explained(s, "dft([1, 2, 1, 2, 1, 2, 1, 2], 2 mod 17)");
  CHECK_THAT(dft, Catch::Contains("dft (stdlib, written in cas; source(dft) shows it) on a vector of length 8 over Z/17Z"));
  CHECK_THAT(dft, Catch::Contains("the DFT by its definition"));
  // only the call made by the statement is noted, not the stdlib calls inside it
  CHECK_THAT(dft, !Catch::Contains("require_primitive_root"));
}

TEST_CASE("explain: scalar work records nothing", "[explain]") {
  Session s;
  const std::string text = explained(s, "t = 0; for i in 1..200 { t = t + (i mod 1009)^-1 }; t");
  CHECK(cas::engine_notes().empty());
  CHECK_THAT(text, Catch::Contains("no product, power, transform or CRT"));
  CHECK_THAT(text, Catch::Contains("engine: the interpreter"));
}

TEST_CASE("explain: before any statement", "[explain]") {
  CHECK(cas::explain_statement("") == std::vector<std::string>{"nothing to explain yet: run a statement first"});
}

// The big-prime routes' notes (algebra/fourier/fourier.cpp, algebra/poly/multiply.cpp), made here:
// without a device they are never noted.
TEST_CASE(":explain describes the GPU's big-prime transforms, convolutions and products", "[explain]") {
  cas::EngineNote note;
  note.detail.length1 = 1024;
  note.detail.modulus_bits = 505;
  note.what = "gpu big-prime ntt";
  CHECK_THAT(cas::explain_note(note), Catch::StartsWith("NTT of length 1024 over Z/pZ with a 505-bit p on the GPU's "
                                                        "big-prime kernels, modulo p itself"));
  CHECK_THAT(cas::explain_note(note), Catch::Contains("every element 8-word"));
  note.what = "gpu generalized-fermat ntt";
  CHECK_THAT(cas::explain_note(note), Catch::StartsWith("NTT of length 1024 over Z/pZ with a 505-bit p on the GPU, "
                                                        "p = r^k + 1 a generalized Fermat prime"));
  CHECK_THAT(cas::explain_note(note), Catch::Contains("shifts of base-r digits"));
  note.what = "gpu big-prime convolution";
  CHECK_THAT(cas::explain_note(note), Catch::StartsWith("its transforms of length 1024 over Z/pZ with a 505-bit p on "
                                                        "the GPU's big-prime kernels in one call"));
  note.what = "gpu big-prime product";
  note.detail.length1 = 600;
  note.detail.length2 = 500;
  note.detail.modulus_bits = 993;
  CHECK_THAT(cas::explain_note(note), Catch::StartsWith("product in Z/pZ with a 993-bit p[x] of lengths 600 and 500 on "
                                                        "the GPU's big-prime kernels: the cyclic convolution of length "
                                                        "2048"));
  CHECK_THAT(cas::explain_note(note), Catch::Contains("every element 16-word"));
}

// What :explain adds for operands the GPU held and a result it keeps (algebra/dispatch/resident.hpp).
TEST_CASE(":explain says which operands the GPU held and whether the result stays there", "[explain]") {
  cas::EngineNote note;
  note.what = "gpu ntt product";
  note.detail.length1 = note.detail.length2 = 4096;
  note.detail.modulus = 4611685941117976577ULL;
  note.detail.modulus_bits = 62;
  CHECK_THAT(cas::explain_note(note), !Catch::Contains("on the GPU already"));
  note.detail.operands_on_gpu = 2;
  note.detail.result_kept_on_gpu = true;
  CHECK_THAT(cas::explain_note(note), Catch::Contains("both operands were on the GPU already (nothing uploaded)"));
  CHECK_THAT(cas::explain_note(note), Catch::Contains("the result stays on the GPU until something on the host reads it"));
  note.detail.operands_on_gpu = 1;
  note.detail.result_kept_on_gpu = false;
  CHECK_THAT(cas::explain_note(note), Catch::Contains("one operand was on the GPU already (only the other uploaded)"));
  CHECK_THAT(cas::explain_note(note), !Catch::Contains("the result stays"));
}

// How the GPU engine shared a multi-modular operation among its devices (gpu::last_split), as the
// algebra layer notes it after the call; made here: one GPU or none never notes two devices.
TEST_CASE(":explain names the primes each GPU took when several shared the work", "[explain]") {
  cas::EngineNote note;
  note.what = "gpu crt";
  note.detail.length1 = note.detail.length2 = 4096;
  note.detail.primes = 34;
  note.detail.bound_bits = 2000;
  const std::string alone = cas::explain_note(note);
  REQUIRE_THAT(alone, Catch::Contains("on the GPU"));
  // One device did it all: the sentence is the one-GPU sentence.
  cas::note_primes_per_device(note.detail, {34});
  CHECK(note.detail.devices == 1);
  CHECK(cas::explain_note(note) == alone);
  cas::note_primes_per_device(note.detail, {17, 17});
  CHECK(cas::explain_note(note) ==
        alone + "; shared among 2 GPUs: primes 17 + 17, each reconstructing its range of the coefficients");
  // The clause comes before what the GPU held, and before the count of equal notes.
  note.detail.operands_on_gpu = 2;
  note.count = 3;
  CHECK_THAT(cas::explain_note(note),
             Catch::EndsWith("; shared among 2 GPUs: primes 17 + 17, each reconstructing its range of the coefficients"
                             "; both operands were on the GPU already (nothing uploaded) (3 times)"));
  note.detail.operands_on_gpu = 0;
  note.count = 1;
  // Powers and convolutions likewise; a resultant's primes each give one residue, rebuilt on the host.
  note.what = "gpu crt power";
  note.detail.length2 = 5;
  cas::note_primes_per_device(note.detail, {12, 11, 11});
  CHECK_THAT(cas::explain_note(note), Catch::EndsWith("; shared among 3 GPUs: primes 12 + 11 + 11, each "
                                                      "reconstructing its range of the coefficients"));
  note.what = "gpu crt resultant";
  cas::note_primes_per_device(note.detail, {2190, 2189});
  CHECK_THAT(cas::explain_note(note), Catch::EndsWith("; shared among 2 GPUs: primes 2190 + 2189, each computing "
                                                      "the resultants modulo its own"));
  // More devices than the note holds: the count stays exact, the list is cut.
  note.what = "gpu crt";
  cas::note_primes_per_device(note.detail, std::vector<size_t>(20, 2));
  CHECK(note.detail.devices == 20);
  CHECK_THAT(cas::explain_note(note), Catch::Contains("; shared among 20 GPUs: primes 2 + 2 + 2 + 2 + 2 + 2 + 2 + 2 + "
                                                      "2 + 2 + 2 + 2 + 2 + 2 + 2 + 2 + ..., each reconstructing"));
  // A product modulo one prime shared between two GPUs: by its halves, not by primes.
  note.what = "gpu ntt product";
  cas::note_primes_per_device(note.detail, {1, 1});
  CHECK_THAT(cas::explain_note(note), Catch::EndsWith("; shared between 2 GPUs: one takes the product modulo x^m - 1, "
                                                      "the other modulo x^m + 1 (transforms of length m, half the "
                                                      "product's)"));
  // One transform shared by the four-step decomposition; on one GPU, the one-GPU sentence.
  note.what = "gpu ntt";
  cas::note_primes_per_device(note.detail, {1, 1});
  CHECK_THAT(cas::explain_note(note), Catch::EndsWith("; shared among 2 GPUs by the four-step decomposition (the "
                                                      "transforms of the columns and of the rows of a matrix, an "
                                                      "all-to-all between them)"));
  cas::note_primes_per_device(note.detail, {1});
  CHECK_THAT(cas::explain_note(note), !Catch::Contains("shared"));
  // The CPU's notes hold no devices: their sentences say nothing of GPUs.
  note.what = "cpu crt";
  cas::note_primes_per_device(note.detail, {});
  CHECK(note.detail.devices == 0);
  CHECK_THAT(cas::explain_note(note), !Catch::Contains("shared among"));
}

TEST_CASE("engine notes that differ only in how the GPUs shared them are not counted as one", "[explain]") {
  cas::engine_reset();
  cas::OperationDetail d;
  d.length1 = d.length2 = 4096;
  d.primes = 34;
  cas::note_primes_per_device(d, {17, 17});
  cas::engine_note("gpu crt", 8191, d);
  cas::engine_note("gpu crt", 8191, d);
  cas::note_primes_per_device(d, {18, 16});
  cas::engine_note("gpu crt", 8191, d);
  const auto notes = cas::engine_notes();
  REQUIRE(notes.size() == 2);
  CHECK(notes[0].count == 2);
  CHECK(notes[0].detail.primes_per_device[0] == 17);
  CHECK(notes[1].detail.primes_per_device[0] == 18);
  CHECK(notes[1].detail.devices == 2);
  cas::engine_reset();
}
