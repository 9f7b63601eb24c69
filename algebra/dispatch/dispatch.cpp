#include "algebra/dispatch/dispatch.hpp"

#include "algebra/dispatch/resident.hpp"
#include "algebra/support/error.hpp"
#include "algebra/fourier/ntt_cpu_lanes.hpp"
#include "algebra/support/parallel.hpp"

#include "gpu/ntt.hpp"
#include "gpu/ranks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <utility>

namespace cas {

namespace {
GpuMode current_mode = GpuMode::Auto;
Crossovers current_crossovers;
bool crossovers_loaded = false;
std::vector<std::string> pending_notices;

void ensure_loaded() {
  if (!crossovers_loaded) load_crossovers();
}
}  // namespace

const char* gpu_operation_key(GpuOperation op) {
  switch (op) {
    case GpuOperation::ProductNttPrime: return "product.ntt_prime";
    case GpuOperation::ProductCrt: return "product.crt";
    case GpuOperation::Transform: return "transform";
    case GpuOperation::ProductZ: return "product.z";
    case GpuOperation::ProductInteger: return "product.integer";
    case GpuOperation::ProductNttPrime32: return "product.ntt_prime.32bit";
    case GpuOperation::ProductCrt32: return "product.crt.32bit";
    case GpuOperation::Transform32: return "transform.32bit";
    case GpuOperation::ProductNttPrime17: return "product.ntt_prime.17bit";
    case GpuOperation::ProductCrt17: return "product.crt.17bit";
    case GpuOperation::Transform17: return "transform.17bit";
    case GpuOperation::TransformBigPrime: return "transform.big_prime";
    case GpuOperation::ProductBigPrime: return "product.big_prime";
  }
  return "?";
}

GpuOperation for_modulus(GpuOperation op, std::uint64_t p) {
  if (p >= (std::uint64_t{1} << 32)) return op;
  const bool tiny = p < (std::uint64_t{1} << 17);
  switch (op) {
    case GpuOperation::ProductNttPrime: return tiny ? GpuOperation::ProductNttPrime17 : GpuOperation::ProductNttPrime32;
    case GpuOperation::ProductCrt: return tiny ? GpuOperation::ProductCrt17 : GpuOperation::ProductCrt32;
    case GpuOperation::Transform: return tiny ? GpuOperation::Transform17 : GpuOperation::Transform32;
    default: return op;
  }
}

GpuMode gpu_mode() { return current_mode; }
void set_gpu_mode(GpuMode mode) {
  current_mode = mode;
  if (mode == GpuMode::Off) move_resident_to_host();  // values kept on the GPU come home
}

const char* gpu_mode_name(GpuMode mode) {
  switch (mode) {
    case GpuMode::Auto: return "auto";
    case GpuMode::On: return "on";
    case GpuMode::Off: return "off";
  }
  return "?";
}

bool parse_gpu_mode(const std::string& text, GpuMode& out) {
  for (GpuMode m : {GpuMode::Auto, GpuMode::On, GpuMode::Off})
    if (text == gpu_mode_name(m)) {
      out = m;
      return true;
    }
  return false;
}

bool gpu_usable() {
  static const bool usable = gpu::available();
  return usable;
}

std::string gpu_mode_caveat(GpuMode mode) {
  if (mode != GpuMode::On || gpu_usable()) return "";
  return "no usable GPU here (" + gpu::describe() + "): everything runs on the CPU";
}

int gpus_in_use() { return gpu_usable() ? gpu::device_count() : 0; }

int set_gpus_used(int n) { return gpu::set_devices_used(n); }

const Crossovers& crossovers() {
  ensure_loaded();
  return current_crossovers;
}

void set_crossovers(const Crossovers& c) {
  crossovers_loaded = true;
  current_crossovers = c;
}

const char* algorithm_crossover_key(AlgorithmCrossover a) {
  switch (a) {
    case AlgorithmCrossover::MultipointTree: return "algorithm.multipoint_tree";
    case AlgorithmCrossover::HalfGcd: return "algorithm.half_gcd";
    case AlgorithmCrossover::HalfGcdResultant: return "algorithm.half_gcd_resultant";
    case AlgorithmCrossover::Roots: return "algorithm.roots";
    case AlgorithmCrossover::ZResultantPrimes: return "algorithm.zresultant_primes";
    case AlgorithmCrossover::Factor: return "algorithm.factor";
    case AlgorithmCrossover::FactorSmallP: return "algorithm.factor.small_p";
  }
  return "?";
}

size_t algorithm_crossover(AlgorithmCrossover a) { return crossovers().algorithm_from[static_cast<size_t>(a)]; }

bool use_gpu(GpuOperation op, size_t length) {
  if (current_mode == GpuMode::Off || !gpu_usable()) return false;
  if (current_mode == GpuMode::On) return length >= 2;
  return length >= crossovers().length[static_cast<size_t>(op)];
}

size_t z_product_weight(size_t length, unsigned long bits_a, unsigned long bits_b, double exponent) {
  const double size = static_cast<double>(bits_a + bits_b) / 128.0;
  if (size <= 1.0) return length;
  const double weight = static_cast<double>(length) * std::pow(size, exponent) + 0.5;
  return weight >= static_cast<double>(SIZE_MAX) ? SIZE_MAX : std::max(length, static_cast<size_t>(weight));
}

size_t z_product_weight(size_t length, unsigned long bits_a, unsigned long bits_b) {
  return z_product_weight(length, bits_a, bits_b, crossovers().z_weight_exponent);
}

size_t cpu_ntt_crossover(bool one_transform, std::uint64_t p) {
  // Product lengths 2^k - 1 from which the transforms are at least as fast as FLINT on a 2-core and
  // a 16-core machine, mostly 1.1-1.5x (at 2^(k-1) - 1 FLINT is faster on one of them at least):
  // FLINT packs several small coefficients into a word, so small p move the crossover up, and CRT
  // products take two or three transforms per operand (side by side on the cores). The AVX-512
  // butterflies (ntt_cpu_lanes.hpp) run one transform modulo p < 2^32 nearly twice as fast as the
  // scalar ones (2^20 words modulo 998244353: 2.9 against 5.4 ms; docs/measurements.md, "The CPU
  // transform's butterflies and passes"), hence the lower crossovers with them. cas-bench-cpu:
  // docs/measurements.md, "CPU transform products against FLINT by class of prime".
  const bool vectors = lanes::enabled();
  if (p < (std::uint64_t{1} << 17)) return one_transform ? (vectors ? 2047 : 8191) : 16383;
  if (p < (std::uint64_t{1} << 32)) return one_transform ? (vectors ? 511 : 1023) : 8191;
  return one_transform ? 511 : 4095;
}

namespace {
// The cores from which the primes' wider limits hold (measured on 16: docs/measurements.md, "Z[x]
// products and powers through primes on the CPU").
constexpr size_t many_cores = 8;
}  // namespace

size_t cpu_crt_most_primes_z(size_t length) {
  const bool many = core_count() >= many_cores;
  if (length >= 65535) return many ? 256 : 128;
  if (length >= 16383) return many ? 96 : 64;
  return 40;
}

size_t cpu_crt_most_primes_power_z(size_t length) {
  if (core_count() < many_cores) return cpu_crt_most_primes_z(length);
  if (length >= 32767) return 256;
  return length >= 8191 ? 128 : 64;
}

size_t cpu_crt_convolution_from_z(size_t primes) {
  if (primes <= 16) return 1024;
  return primes <= 24 ? 2048 : 8192;
}

bool use_cpu_ntt(bool one_transform, std::uint64_t p, size_t length) {
  return length >= cpu_ntt_crossover(one_transform, p);
}

ShortOperandClass short_operand_class(bool one_transform, std::uint64_t p) {
  if (!one_transform) return ShortOperandClass::Crt;
  if (p < (std::uint64_t{1} << 17)) return ShortOperandClass::NttPrime17;
  if (p < (std::uint64_t{1} << 32)) return ShortOperandClass::NttPrime32;
  return p < (std::uint64_t{1} << 62) ? ShortOperandClass::NttPrime62 : ShortOperandClass::NttPrime64;
}

const char* short_operand_key(ShortOperandClass c) {
  switch (c) {
    case ShortOperandClass::NttPrime64: return "cpu.short_operand.ntt_prime.64bit";
    case ShortOperandClass::NttPrime62: return "cpu.short_operand.ntt_prime.62bit";
    case ShortOperandClass::NttPrime32: return "cpu.short_operand.ntt_prime.32bit";
    case ShortOperandClass::NttPrime17: return "cpu.short_operand.ntt_prime.17bit";
    case ShortOperandClass::Crt: return "cpu.short_operand.crt";
    case ShortOperandClass::Z: return "cpu.short_operand.z";
  }
  return "?";
}

size_t short_operand_default(ShortOperandClass c) {
  size_t limit = 0;  // shorter length x cores
  switch (c) {
    case ShortOperandClass::NttPrime64: limit = 256; break;
    case ShortOperandClass::NttPrime62: limit = 32; break;
    case ShortOperandClass::NttPrime32: limit = 128; break;
    case ShortOperandClass::NttPrime17:
    case ShortOperandClass::Crt: limit = 512; break;
    case ShortOperandClass::Z: limit = 31; break;
  }
  return limit / core_count();
}

bool short_operand_stays_with_flint(ShortOperandClass c, size_t shorter_length) {
  return shorter_length <= crossovers().flint_short_operand[static_cast<size_t>(c)];
}

std::string crossover_config_path() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  if (xdg && *xdg) return std::string(xdg) + "/cas/crossover.conf";
  const char* home = std::getenv("HOME");
  if (home && *home) return std::string(home) + "/.config/cas/crossover.conf";
  return "";
}

namespace {

// Every key a crossover file may set, with the entry of `c` it sets and the least length it takes:
// the GPU crossovers, the CPU's short-operand limits, then the algorithms' crossovers (C: Crossovers
// or const Crossovers).
template <class C>
struct CrossoverEntry {
  std::string key;
  decltype(&std::declval<C&>().length[0]) entry;
  size_t least;
};

template <class C>
std::vector<CrossoverEntry<C>> crossover_entries(C& c) {
  std::vector<CrossoverEntry<C>> entries;
  for (size_t i = 0; i < gpu_operation_count; i++)
    entries.push_back({gpu_operation_key(static_cast<GpuOperation>(i)), &c.length[i], 0});
  for (size_t i = 0; i < short_operand_class_count; i++)
    entries.push_back({short_operand_key(static_cast<ShortOperandClass>(i)), &c.flint_short_operand[i], 0});
  for (size_t i = 0; i < algorithm_crossover_count; i++)
    entries.push_back({algorithm_crossover_key(static_cast<AlgorithmCrossover>(i)), &c.algorithm_from[i],
                       least_algorithm_crossover});
  return entries;
}

// The keys a crossover file may set, for the message about one it does not know.
std::string known_keys() {
  const Crossovers c;
  std::string keys;
  for (const auto& e : crossover_entries(c)) keys += (keys.empty() ? "" : ", ") + e.key;
  return keys + ", " + z_weight_exponent_key;
}

// The weight exponent's value into `c`; what is wrong with it otherwise.
std::string read_z_weight_exponent(const std::string& text, Crossovers& c) {
  std::istringstream value_stream(text);
  double value = 0;
  std::string rest;
  if (!(value_stream >> value) || (value_stream >> rest) || !(value >= least_z_weight_exponent) ||
      !(value <= largest_z_weight_exponent))
    return std::string(z_weight_exponent_key) + ": expected a number from 0 to 2, found '" + text + "'";
  c.z_weight_exponent = value;
  return "";
}

// One `key = length` line of the file into `c`; what is wrong with it otherwise.
std::string read_crossover_line(const std::string& line, Crossovers& c) {
  const size_t eq = line.find('=');
  if (eq == std::string::npos) return "expected `key = length`, found '" + line + "'";
  const std::string text = line.substr(eq + 1);
  std::istringstream key_stream(line.substr(0, eq)), value_stream(text);
  std::string key, rest;
  if (!(key_stream >> key)) return "a length without a key";
  if (key == z_weight_exponent_key) return read_z_weight_exponent(text, c);
  const auto entries = crossover_entries(c);
  const auto entry = std::find_if(entries.begin(), entries.end(), [&](const auto& e) { return e.key == key; });
  if (entry == entries.end()) return "unknown key '" + key + "' (known: " + known_keys() + ")";
  unsigned long long value = 0;
  if (text.find('-') != std::string::npos || !(value_stream >> value) || (value_stream >> rest))
    return key + ": expected a length (a whole number), found '" + text + "'";
  if (value < entry->least)
    return key + ": expected a length of at least " + std::to_string(entry->least) + ", found '" + text + "'";
  *entry->entry = static_cast<size_t>(value);
  return "";
}

}  // namespace

// The file holds lines `key = length`; `#` starts a comment. A line it cannot read is skipped
// with a notice naming the file and line, so that a hand edit gone wrong is not silent.
void load_crossovers() {
  crossovers_loaded = true;
  const std::string path = crossover_config_path();
  std::ifstream file(path);
  if (!file) return;
  Crossovers c;
  std::string line;
  for (size_t number = 1; std::getline(file, line); number++) {
    line = line.substr(0, line.find('#'));
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (std::string problem = read_crossover_line(line, c); !problem.empty())
      post_notice(path + ":" + std::to_string(number) + ": " + problem + "; the line is ignored");
  }
  c.origin = path;
  current_crossovers = c;
}

void save_crossovers(const Crossovers& c) {
  const std::string path = crossover_config_path();
  if (path.empty()) throw DomainError("cannot save the crossovers: neither XDG_CONFIG_HOME nor HOME is set");
  std::string dir = path.substr(0, path.rfind('/'));
  std::string parent = dir.substr(0, dir.rfind('/'));
  mkdir(parent.c_str(), 0755);
  mkdir(dir.c_str(), 0755);
  std::ofstream file(path);
  if (!file) throw DomainError("cannot write " + path);
  file << "# cas crossovers, measured by `cas --calibrate` on " << gpu::describe() << " and " << core_count()
       << " cores\n"
       << "# product.*, transform*: the smallest length (coefficients of a product, or transform length) run on\n"
       << "# the GPU; cpu.short_operand.*: the longest shorter operand whose CPU product stays with FLINT;\n"
       << "# algorithm.*: the smallest length (points or terms) from which cas's algorithm replaces FLINT's routine\n";
  for (const auto& e : crossover_entries(c)) file << e.key << " = " << *e.entry << "\n";
  char exponent[32];
  std::snprintf(exponent, sizeof exponent, "%.2f", c.z_weight_exponent);
  file << "# a Z[x] product's length counts ((bits_a + bits_b) / 128)^e times against product.z:\n"
       << z_weight_exponent_key << " = " << exponent << "\n";
}

namespace {
std::string mebibytes(size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  return text;
}

// Under mpirun: the ranks, and whether their GPUs share work (gpu/ranks.hpp).
void report_ranks(std::vector<std::string>& lines) {
  const int ranks = gpu::ranks();
  if (ranks <= 1) return;
  std::string why;
  const int sharing = gpu::sharing_ranks(&why);
  lines.push_back("MPI: " + std::to_string(ranks) + " ranks" +
                  (sharing > 1 ? ", a GPU each; large multi-modular products, powers and resultants are shared among "
                                 "their GPUs through NCCL"
                               : "; work is not shared among them (" + why + "): rank 0 works alone"));
}

// The report's first lines: the device as gpu::describe() gives it when one GPU is in use; with
// several, how many, whether multi-modular work is shared among them, and one line each.
void report_devices(std::vector<std::string>& lines) {
  report_ranks(lines);
  const int used = gpus_in_use();
  const int visible = used > 0 ? gpu::visible_devices() : 0;
  const std::string limited = " visible: CAS_GPU_DEVICES or gpus(n) limits them";
  if (used <= 1) {
    lines.push_back("device: " + gpu::describe() +
                    (visible > used ? " (1 GPU in use of " + std::to_string(visible) + limited + ")" : ""));
    return;
  }
  std::string why;
  const bool shared = gpu::devices_share_work(&why);
  lines.push_back("device: " + std::to_string(used) + " GPUs in use" +
                  (visible > used ? " (of " + std::to_string(visible) + limited + ")" : "") + "; " +
                  (shared ? "large multi-modular products, powers and resultants are shared among them through NCCL"
                          : "multi-modular work is not shared among them (" + why + "): each operation runs on GPU 0"));
  for (int d = 0; d < used; d++) lines.push_back("  GPU " + std::to_string(d) + ": " + gpu::describe(d));
}
}  // namespace

std::vector<std::string> gpu_report() {
  std::vector<std::string> lines;
  report_devices(lines);
  lines.push_back(std::string("mode: ") + gpu_mode_name(current_mode) +
                  (gpu_usable() ? "" : " (no usable GPU: everything runs on the CPU)"));
  if (gpu_usable()) {
    const ResidentUse kept = resident_use();
    lines.push_back("values kept on the GPU: " + std::to_string(kept.values) + " (" + mebibytes(kept.bytes) +
                    " of at most " + mebibytes(kept.limit) + "; the least recently used move to the host first)");
  }
  const Crossovers& c = crossovers();
  // cas --calibrate times GPU 0 (the calling thread's device); one table serves every GPU.
  const char* each = c.origin == "defaults" ? "; they apply to each GPU" : "; measured on GPU 0, they apply to each";
  lines.push_back("crossovers (" + c.origin + (gpus_in_use() > 1 ? each : "") + "):");
  for (size_t i = 0; i < gpu_operation_count; i++) {
    const auto op = static_cast<GpuOperation>(i);
    // Products modulo a big prime that do not take its convolution take product.z's route.
    const char* never = op == GpuOperation::ProductBigPrime ? ": never (product.z's route)" : ": never (FLINT)";
    lines.push_back(std::string("  ") + gpu_operation_key(op) +
                    (c.length[i] == never_on_gpu ? never : " >= " + std::to_string(c.length[i])));
  }
  char exponent[160];
  std::snprintf(exponent, sizeof exponent,
                "  a Z[x] product's length counts ((bits_a + bits_b) / 128)^%.2f times against product.z",
                c.z_weight_exponent);
  lines.push_back(exponent);
  lines.push_back("CPU products that stay with FLINT while the shorter operand has at most:");
  for (size_t i = 0; i < short_operand_class_count; i++)
    lines.push_back(std::string("  ") + short_operand_key(static_cast<ShortOperandClass>(i)) + ": " +
                    (c.flint_short_operand[i] == never_on_gpu ? "any length"
                                                              : std::to_string(c.flint_short_operand[i]) + " coefficients"));
  lines.push_back("Algorithms on cas's products instead of FLINT's routines from:");
  for (size_t i = 0; i < algorithm_crossover_count; i++) {
    const auto a = static_cast<AlgorithmCrossover>(i);
    lines.push_back(std::string("  ") + algorithm_crossover_key(a) + ": " + std::to_string(c.algorithm_from[i]) +
                    (a == AlgorithmCrossover::MultipointTree ? " points" : " terms"));
  }
  return lines;
}

void post_notice(std::string text) { pending_notices.push_back(std::move(text)); }

std::vector<std::string> take_notices() {
  std::vector<std::string> out;
  out.swap(pending_notices);
  return out;
}

}  // namespace cas
