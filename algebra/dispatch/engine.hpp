#pragma once
// What the current statement did, for `:timer` and `:explain`. The algebra layer
// notes each operation on polynomials and vectors (never on scalars) with a static
// name, a size and a few numbers; the interpreter resets the record before a
// statement and reads it after. Noting is cheap: a fixed buffer, no allocation.
#include <cstddef>
#include <string>
#include <vector>

namespace cas {

// The numbers behind a note, each 0 when it does not apply.
struct OperationDetail {
  size_t length1 = 0, length2 = 0;  // operand lengths (a product; length2 the exponent of a power),
                                    // the transform length, or the number of moduli (crt)
  unsigned long modulus = 0;        // a word-size modulus
  unsigned modulus_bits = 0;        // the size of the modulus (also of a multi-word one; crt: of the lcm)
  unsigned long root = 0;           // the root of unity of a transform (word-size moduli)
  unsigned primes = 0;              // a multi-modular product: how many word-size primes,
  unsigned long bound_bits = 0;     // and the proven bound |c_k| < 2^bound_bits (multimodular.hpp)
  const char* function = nullptr;   // a function written in cas; copied when noted
  unsigned operands_on_gpu = 0;     // operands the GPU held already (dispatch/resident.hpp)
  bool result_kept_on_gpu = false;  // the result stays on the GPU
  // A multi-modular operation on the GPU: its primes on each device (gpu::last_split), the first
  // most_devices_noted of them; 0 devices when the CPU did it.
  static constexpr size_t most_devices_noted = 16;
  unsigned devices = 0;
  unsigned primes_per_device[most_devices_noted] = {};
};

// Notes how a GPU operation's primes were divided among the devices, one entry a device.
void note_primes_per_device(OperationDetail& d, const std::vector<size_t>& primes_per_device);

struct EngineNote {
  const char* what = nullptr;  // static: "flint nmod_poly_mul", "cpu ntt", "crt", ...
  double size = 0;
  OperationDetail detail;
  char function[24] = {};  // the copy of detail.function
  unsigned count = 1;      // consecutive equal notes are counted, not repeated
};

void engine_reset();
// `what` is a static string like "flint nmod_poly_mul" or "gpu ntt"; `size` the length
// that orders the notes and is shown as 2^k.
void engine_note(const char* what, double size, const OperationDetail& detail = {});
// A note for `:explain` only, not a candidate for the engine `:timer` shows: the algorithm
// around the noted operations ("cyclic convolution by fft", "crt") or a call of a
// function written in cas ("cas function", with detail.function).
void engine_explain(const char* what, double size, const OperationDetail& detail = {});
// "flint nmod_poly_mul 2^20", "gpu crt 17 primes 2^20" (a note with detail.primes); empty when
// nothing was noted.
std::string engine_last();

// The notes of the current statement in order (at most engine_note_capacity; later
// ones are only counted, see engine_notes_dropped).
constexpr size_t engine_note_capacity = 8;
std::vector<EngineNote> engine_notes();
size_t engine_notes_dropped();

}  // namespace cas
