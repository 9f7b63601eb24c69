#pragma once
// Which engine runs a large operation: FLINT on the CPU or the CUDA engine.
// `auto` uses the GPU from a crossover length measured by `cas --calibrate`
// (saved in $XDG_CONFIG_HOME/cas/crossover.conf or ~/.config/cas/crossover.conf),
// per operation and kind of prime; `on` uses it for every size it supports;
// `off` never. Without a usable GPU every mode runs on FLINT.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cas {

enum class GpuMode { Auto, On, Off };

// The operations with a crossover of their own.
enum class GpuOperation {
  ProductNttPrime,  // product in Z/pZ[x], p prime with enough 2-adic roots: one NTT prime
  ProductCrt,       // product in Z/pZ[x] for any other word-size p: several primes and CRT
  Transform,        // fft/ifft of one vector
  ProductZ,         // product in Z[x] (and Z/pZ[x] for p above 64 bits): primes, CRT (multimodular.hpp)
  ProductInteger,   // product of two integers as polynomials in 2^b; length: bits of the smaller factor
};
constexpr size_t gpu_operation_count = 5;
const char* gpu_operation_key(GpuOperation op);  // "product.ntt_prime", ...

// A crossover that keeps an operation on FLINT in `auto` mode.
constexpr size_t never_on_gpu = SIZE_MAX;

struct Crossovers {
  // Smallest length (coefficients of the product, transform length, or bits of the smaller
  // integer factor) sent to the GPU. The defaults are the crossovers `cas --calibrate` measured on
  // an H100. Three calibrations of 2026-11-23: products over an NTT prime 1023 each time; CRT
  // products 8191, then 2047 (1.11x at 2047, 1.31x at 4095) after the transforms got faster, so
  // 2^12; the transform 1024 on the final code (1.11x at 1024, 1.55x at 2048). Z[x] and integer
  // products: the GPU ties FLINT at 1023 coefficients of 64 bits (1.8-2.4x faster at 2047) and is
  // 0.83-1.4x as fast at 2^17-bit integers (1.7-2.9x at 2^18).
  size_t length[gpu_operation_count] = {size_t{1} << 10, size_t{1} << 12, size_t{1} << 10, size_t{1} << 10,
                                        size_t{1} << 17};
  std::string origin = "defaults";  // or the config file it was read from
};

GpuMode gpu_mode();
void set_gpu_mode(GpuMode mode);
const char* gpu_mode_name(GpuMode mode);
bool parse_gpu_mode(const std::string& text, GpuMode& out);

bool gpu_usable();  // built with CUDA and a device answers (asked once)
// What a user who asks for `mode` should be told: for "on" where no GPU answers, that everything
// will run on FLINT; empty otherwise ("auto" without a GPU is the usual state, not news).
std::string gpu_mode_caveat(GpuMode mode);
const Crossovers& crossovers();
void set_crossovers(const Crossovers& c);

// Whether `op` of this length goes to the GPU under the current mode and crossovers.
bool use_gpu(GpuOperation op, size_t length);

std::string crossover_config_path();
// Reads the config file when present (silently keeps the defaults otherwise).
void load_crossovers();
void save_crossovers(const Crossovers& c);  // throws DomainError when it cannot write

// One line per fact, for gpuinfo() and `cas --calibrate`.
std::vector<std::string> gpu_report();

// Notices for the user (e.g. the GPU ran out of memory and FLINT took over); the REPL prints
// and clears them after each statement.
void post_notice(std::string text);
std::vector<std::string> take_notices();

}  // namespace cas
