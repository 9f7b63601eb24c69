// The steps of the multi-modular pipeline (gpu/crt.hpp) on one device, for gpu/crt.cu and the
// split of that pipeline among several devices (gpu/crt_split.cu). Internal to gpu/.
#pragma once

#include "gpu/crt.hpp"
#include "gpu/detail.cuh"
#include "gpu/devices.cuh"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace cas::gpu::detail {

// The primes' reduction constants on the device (crt::ReductionPrime, four words each), in stream
// order: the reductions read prime r of a row range from here.
class DeviceReductionPrimes {
public:
    explicit DeviceReductionPrimes(const std::vector<std::uint64_t>& primes);
    // Primes first, first + 1, ...
    const crt::ReductionPrime* from(std::size_t first) const
    {
        return reinterpret_cast<const crt::ReductionPrime*>(words_.data()) + first;
    }

private:
    DeviceWords words_;
};

// reduce(primes, first, rows, out): an operand's residues modulo primes first .. first + rows - 1
// of the operation's list (their constants at `primes`) into `rows` consecutive rows of out.
using ReduceRows =
    std::function<void(const crt::ReductionPrime* primes, std::size_t first, std::size_t rows, std::uint64_t* out)>;

// Row j (count_a + count_b - 1 words) = the product of the operands' residues modulo primes[j].
DeviceWords residue_products(std::size_t count_a, std::size_t count_b, const std::vector<std::uint64_t>& primes,
                             const ReduceRows& reduce_a, const ReduceRows& reduce_b);
// Row j (e (count - 1) + 1 words) = the e-th power of the operand's residues modulo primes[j];
// every prime satisfies power_in_one_transform(count, e, p).
DeviceWords residue_powers(std::size_t count, std::uint64_t e, const std::vector<std::uint64_t>& primes,
                           const ReduceRows& reduce);
// Rows of `length` words folded modulo x^n -+ 1, row j modulo primes[j].
DeviceWords fold_residue_rows(const DeviceWords& rows, std::size_t length, std::size_t n, bool negacyclic,
                              const std::vector<std::uint64_t>& primes);
// Garner on the device: the limb matrix of the symmetric residues (products is overwritten).
void reconstruct_on_device(DeviceWords& products, std::size_t length, const std::vector<std::uint64_t>& primes,
                           DeviceWords& limbs, DeviceWords32& negative, std::size_t& width);
// The source's whole matrix on the device (limb-major, width rows of count words).
void upload_source(const LimbSource& source, DeviceWords& limbs, DeviceWords32& negative);
// The device matrix (count coefficients of `width` limbs) handed to `sink` block by block.
void download_to_sink(const DeviceWords& limbs, const DeviceWords32& negative, std::size_t count, std::size_t width,
                      const LimbSink& sink);
// Rows [0, rows) of out (count words each) = the entries of a device limb matrix modulo
// primes[0, rows).
void launch_reduce_matrix(const DeviceWords& limbs, const DeviceWords32& negative, std::size_t count, std::size_t width,
                          const crt::ReductionPrime* primes, std::size_t rows, std::uint64_t* out);
// Rows [0, rows) of out (chunks words each) = the chunk_bits-bit chunks of the magnitude `limbs`
// modulo primes[0, rows).
void launch_reduce_chunks(const DeviceWords& limbs, std::size_t chunks, unsigned chunk_bits,
                          const crt::ReductionPrime* primes, std::size_t rows, std::uint64_t* out);
// The product's value at 2^chunk_bits from the limb matrix of its `length` coefficients: `words`
// sums and crt::summed_groups(words) carry words, downloaded to summed_out.
void sum_words_to_host(const DeviceWords& limbs, std::size_t length, std::size_t width, unsigned chunk_bits,
                       std::size_t words, std::uint64_t* summed_out);
void require_primes(const std::vector<std::uint64_t>& primes);

// ---------------------------------------------------------------- the split (gpu/crt_split.cu)
// The GPUs an operation of k primes whose residue products hold `words` words in all takes (a
// team of one unless k >= 2, `words` reaches the split's threshold (set_split_threshold), and
// several devices can exchange data (devices_can_exchange) or several MPI ranks share work).
Team split_team(std::size_t words, std::size_t k);
// Each operation's steps on the members of `team` driven here. On ranks other than 0 the
// operands' shapes alone are given (no data: rank 0 sends each member its share) and the result
// goes to rank 0.
void multiply_split(const Team& team, const LimbSource& a, const LimbSource& b, const std::vector<std::uint64_t>& primes,
                    const LimbSink& result);
void convolve_split(const Team& team, const LimbSource& a, const LimbSource& b, std::size_t n, bool negacyclic,
                    const std::vector<std::uint64_t>& primes, const LimbSink& result);
void power_split(const Team& team, const LimbSource& f, std::uint64_t e, const std::vector<std::uint64_t>& primes,
                 const LimbSink& result);
void magnitudes_split(const Team& team, const std::uint64_t* a, std::size_t limbs_a, std::size_t chunks_a,
                      const std::uint64_t* b, std::size_t limbs_b, std::size_t chunks_b, unsigned chunk_bits,
                      const std::vector<std::uint64_t>& primes, std::size_t words, std::uint64_t* summed_out);
// res(a, b) modulo each prime, into *out on rank 0 (gpu/crt.cu).
void resultants_split(const Team& team, const LimbSource& a, const LimbSource& b,
                      const std::vector<std::uint64_t>& primes, std::vector<std::uint64_t>* out);

}  // namespace cas::gpu::detail
