// Multi-modular products on the device (gpu/crt.hpp). The kernels are grid-stride loops around
// the bodies of gpu/crt_words.hpp, which the unit tests run on the host against FLINT; what is
// new here is only the launch and the buffers:
//   operands (limb-major, uploaded once) -> for each prime: residues of both operands, their
//   product by multiply_device straight into row j of a k x length residue matrix (short
//   products: every prime's residues in one launch, every product in one more, one block a
//   prime, block_products.cuh) -> Garner's (few coefficients: a warp each, garner_warps.cuh)
//   digits in place and the limbs of every coefficient (limb-major, coalesced) -> download
//   (integers: the coefficients evaluated at 2^b word by word, sums and 2-bit carries; cyclic and
//   negacyclic convolutions: each row folded modulo x^n -+ 1 before Garner). Resultants reduce
//   the operands the same way, a group of primes at a time, and take one Euclidean resultant a
//   prime (resultant_blocks.cuh); the CRT of that one number is the host's.
// All on the library's stream, so the steps are ordered without host synchronisation.
#include "gpu/crt.hpp"
#include "gpu/block_products.cuh"
#include "gpu/crt_steps.cuh"
#include "gpu/ranks.cuh"
#include "gpu/devices.cuh"
#include "gpu/detail.cuh"
#include "gpu/garner_warps.cuh"
#include "gpu/power_of_two.hpp"
#include "gpu/recent_tables.hpp"
#include "gpu/resultant_blocks.cuh"

#include <algorithm>

namespace cas::gpu {
namespace detail {

__device__ inline std::size_t first_index() { return blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; }
__device__ inline std::size_t grid_stride() { return std::size_t(gridDim.x) * blockDim.x; }

// Row r of out (count words) = the entries modulo primes[r], for r < gridDim.y.
__global__ void reduce_matrix(const std::uint64_t* limbs, const std::uint32_t* negative, std::size_t count,
                              std::size_t width, const crt::ReductionPrime* primes, std::uint64_t* out)
{
    const crt::ReductionPrime q = primes[blockIdx.y];
    std::uint64_t* row = out + blockIdx.y * count;
    for (std::size_t i = first_index(); i < count; i += grid_stride())
        crt::reduce_entry(i, limbs, negative, count, width, q, row);
}

__global__ void reduce_chunks(const std::uint64_t* limbs, std::size_t limb_count, std::size_t chunks, unsigned bits,
                              const crt::ReductionPrime* primes, std::uint64_t* out)
{
    const crt::ReductionPrime q = primes[blockIdx.y];
    std::uint64_t* row = out + blockIdx.y * chunks;
    for (std::size_t i = first_index(); i < chunks; i += grid_stride())
        crt::chunk_residue_entry(i, limbs, limb_count, bits, q, row);
}

__global__ void fold_row(const std::uint64_t* product, std::size_t length, std::size_t n, bool negacyclic,
                         std::uint64_t p, std::uint64_t* out)
{
    for (std::size_t i = first_index(); i < n; i += grid_stride())
        crt::fold_entry(i, product, length, n, negacyclic, p, out);
}

// Row r of out (n words) = row r of products (length words) folded modulo primes[r].p, r < gridDim.y.
__global__ void fold_rows(const std::uint64_t* products, std::size_t length, std::size_t n, bool negacyclic,
                          const crt::ReductionPrime* primes, std::uint64_t* out)
{
    const std::uint64_t p = primes[blockIdx.y].p;
    for (std::size_t i = first_index(); i < n; i += grid_stride())
        crt::fold_entry(i, products + blockIdx.y * length, length, n, negacyclic, p, out + blockIdx.y * n);
}

__global__ void reconstruct(std::uint64_t* residues, std::size_t count, crt::GarnerView tables, std::uint64_t* limbs,
                            std::uint32_t* negative)
{
    for (std::size_t i = first_index(); i < count; i += grid_stride())
        crt::reconstruct_entry(i, residues, count, tables, limbs, negative);
}

__global__ void sum_words(const std::uint64_t* c, std::size_t count, std::size_t width, unsigned bits,
                          std::size_t words, std::uint64_t* sums, std::uint64_t* carry_bits)
{
    for (std::size_t g = first_index(); g < crt::summed_groups(words); g += grid_stride())
        crt::summed_words_entry(g, c, count, width, bits, words, sums, carry_bits);
}

constexpr unsigned block = 256;

// The Garner tables on the device, and a view of them for the kernel.
struct DeviceGarnerTables {
    DeviceWords primes, inverse, inverse_shoup, modulus, half;
    std::size_t k, width;

    explicit DeviceGarnerTables(const crt::GarnerTables& t)
        : primes(upload_table(t.primes)), inverse(upload_table(t.inverse)),
          inverse_shoup(upload_table(t.inverse_shoup)), modulus(upload_table(t.modulus)),
          half(upload_table(t.half)), k(t.primes.size()), width(t.width())
    {
    }
    crt::GarnerView view() const
    {
        return {primes.data(), inverse.data(), inverse_shoup.data(), modulus.data(), half.data(), k, width};
    }
};

DeviceReductionPrimes::DeviceReductionPrimes(const std::vector<std::uint64_t>& primes)
{
    std::vector<crt::ReductionPrime> host;
    for (std::uint64_t p : primes) host.push_back(crt::reduction_prime(p));
    words_ = upload_table(reinterpret_cast<const std::uint64_t*>(host.data()),
                          host.size() * sizeof(crt::ReductionPrime) / sizeof(std::uint64_t));
}

// How many primes' residues of operands of `words` words in all one launch reduces ahead of their
// products through the passes: as many as fit 2^23 words (64 MiB), at least one. One launch a
// prime leaves the GPU nearly idle (operands of 2^14 coefficients of 4000 bits, 130 primes: 260
// reductions of 13 us each, 3.5 ms; docs/measurements.md, "Where a long multi-modular product's
// GPU time goes").
std::size_t primes_reduced_at_once(std::size_t words, std::size_t k)
{
    return std::clamp<std::size_t>((std::size_t(1) << 23) / std::max<std::size_t>(words, 1), 1, k);
}

// Row j of `products` (length words) = the product of the residues of a and b modulo primes[j];
// reduce(primes, rows, out) writes an operand's residues modulo primes[0, rows) of a
// DeviceReductionPrimes into `rows` consecutive rows of out. Short products take every prime in
// one launch (block_products.cuh), whole or, longer ones with many primes, in pieces, with both
// operands' residue matrices reduced in one launch each; the others one prime after the other
// through the fast transforms, the residues of a group of primes (primes_reduced_at_once) reduced
// in one launch per operand.
DeviceWords residue_products(std::size_t count_a, std::size_t count_b, const std::vector<std::uint64_t>& primes,
                             const ReduceRows& reduce_a, const ReduceRows& reduce_b)
{
    const std::size_t length = count_a + count_b - 1, k = primes.size();
    const DeviceReductionPrimes reduction(primes);
    DeviceWords products(k * length);
    const bool whole_in_blocks = block_products_take(length, primes);
    if (whole_in_blocks || piece_products_take(count_a, count_b, primes)) {
        DeviceWords ra(k * count_a), rb(k * count_b);
        reduce_a(reduction.from(0), 0, k, ra.data());
        reduce_b(reduction.from(0), 0, k, rb.data());
        if (whole_in_blocks) multiply_rows_in_blocks(ra.data(), count_a, rb.data(), count_b, primes, products.data());
        else multiply_rows_in_pieces(ra.data(), count_a, rb.data(), count_b, primes, products.data());
        return products;
    }
    const std::size_t group = primes_reduced_at_once(count_a + count_b, k);
    DeviceWords ra(group * count_a), rb(group * count_b);
    for (std::size_t first = 0; first < k; first += group) {
        const std::size_t rows = std::min(group, k - first);
        reduce_a(reduction.from(first), first, rows, ra.data());
        reduce_b(reduction.from(first), first, rows, rb.data());
        for (std::size_t r = 0; r < rows; ++r)
            multiply_device(ra.data() + r * count_a, count_a, rb.data() + r * count_b, count_b, primes[first + r],
                            Algorithm::fast, products.data() + (first + r) * length);
    }
    return products;
}

// Garner on the device: the limb matrix of the symmetric residues (products is overwritten).
void reconstruct_on_device(DeviceWords& products, std::size_t length, const std::vector<std::uint64_t>& primes,
                           DeviceWords& limbs, DeviceWords32& negative, std::size_t& width)
{
    if (warps_reconstruct(length, primes.size()))
        return reconstruct_by_warps(products.data(), length, primes, limbs, negative, width);
    const auto tables = kept_tables<DeviceGarnerTables, crt::GarnerTables>(primes);
    width = tables->width;
    limbs = DeviceWords(width * length);
    negative = DeviceWords32(length);
    reconstruct<<<grid_for(length, block), block, 0, stream()>>>(products.data(), length, tables->view(),
                                                                 limbs.data(), negative.data());
    check_launch("reconstruct");
}

// How many coefficients of `width` limbs (and a sign word) one pinned buffer holds.
std::size_t coefficients_per_block(const PinnedPair& pinned, std::size_t width, std::size_t count)
{
    const std::size_t per = pinned.bytes / (width * sizeof(std::uint64_t) + sizeof(std::uint32_t));
    if (per == 0) throw Error("limb block: a coefficient is larger than the pinned buffer");
    return std::min(per, count);
}

// The block of coefficients [first, first + size) in pinned buffer b: limbs, then the signs.
LimbBlock block_in(const PinnedPair& pinned, int b, std::size_t first, std::size_t size, std::size_t width)
{
    auto* limbs = reinterpret_cast<std::uint64_t*>(pinned.buffer[b]);
    return {first, size, width, limbs, reinterpret_cast<std::uint32_t*>(limbs + size * width)};
}

// The source's whole matrix on the device (limb-major, width rows of count words), written block
// by block into the pinned buffers: the host fills one buffer while the other one's block is
// copied up (one 2-D copy puts a block's width row pieces at their places in the rows).
void upload_source(const LimbSource& source, DeviceWords& limbs, DeviceWords32& negative)
{
    limbs = DeviceWords(source.width * source.count);
    negative = DeviceWords32(source.count);
    const std::size_t row_bytes = source.count * sizeof(std::uint64_t);
    with_block_staging([&](const PinnedPair& pinned) {
        const std::size_t per = coefficients_per_block(pinned, source.width, source.count);
        for (std::size_t first = 0, i = 0; first < source.count; first += per, ++i) {
            const int b = int(i & 1);
            const LimbBlock block = block_in(pinned, b, first, std::min(per, source.count - first), source.width);
            check(cudaEventSynchronize(pinned.done[b]), "cudaEventSynchronize (limb upload)");
            source.write(block);
            const std::size_t block_row_bytes = block.size * sizeof(std::uint64_t);
            check(cudaMemcpy2DAsync(limbs.data() + first, row_bytes, block.limbs, block_row_bytes, block_row_bytes,
                                    block.width, cudaMemcpyHostToDevice, stream()),
                  "cudaMemcpy2DAsync (limb upload)");
            check(cudaMemcpyAsync(negative.data() + first, block.negative, block.size * sizeof(std::uint32_t),
                                  cudaMemcpyHostToDevice, stream()),
                  "cudaMemcpyAsync (sign upload)");
            check(cudaEventRecord(pinned.done[b], stream()), "cudaEventRecord");
        }
    });
}

// The device matrix (count coefficients of `width` limbs) handed to `sink` block by block; the
// next block comes down while the host reads this one.
void download_to_sink(const DeviceWords& limbs, const DeviceWords32& negative, std::size_t count, std::size_t width,
                      const LimbSink& sink)
{
    const std::size_t row_bytes = count * sizeof(std::uint64_t);
    with_block_staging([&](const PinnedPair& pinned) {
        const std::size_t per = coefficients_per_block(pinned, width, count);
        const std::size_t blocks = (count + per - 1) / per;
        auto block_at = [&](std::size_t i) {
            return block_in(pinned, int(i & 1), i * per, std::min(per, count - i * per), width);
        };
        auto issue = [&](std::size_t i) {
            const LimbBlock block = block_at(i);
            const std::size_t block_row_bytes = block.size * sizeof(std::uint64_t);
            check(cudaMemcpy2DAsync(block.limbs, block_row_bytes, limbs.data() + block.first, row_bytes,
                                    block_row_bytes, width, cudaMemcpyDeviceToHost, stream()),
                  "cudaMemcpy2DAsync (limb download)");
            check(cudaMemcpyAsync(block.negative, negative.data() + block.first, block.size * sizeof(std::uint32_t),
                                  cudaMemcpyDeviceToHost, stream()),
                  "cudaMemcpyAsync (sign download)");
            check(cudaEventRecord(pinned.done[i & 1], stream()), "cudaEventRecord");
        };
        issue(0);
        for (std::size_t i = 0; i < blocks; ++i) {
            if (i + 1 < blocks) issue(i + 1);  // into the other buffer, which the host has finished reading
            check(cudaEventSynchronize(pinned.done[i & 1]), "cudaEventSynchronize (limb download)");
            const LimbBlock block = block_at(i);
            sink(ConstLimbBlock{block.first, block.size, block.width, block.limbs, block.negative});
        }
    });
}

// Garner on the device, then the coefficients handed to `sink`.
void reconstruct_to_sink(DeviceWords& residues, std::size_t length, const std::vector<std::uint64_t>& primes,
                         const LimbSink& sink)
{
    DeviceWords limbs;
    DeviceWords32 negative;
    std::size_t width = 0;
    reconstruct_on_device(residues, length, primes, limbs, negative, width);
    download_to_sink(limbs, negative, length, width, sink);
}

// Rows [0, rows) of out (count words each) = the entries of a device matrix of count coefficients
// of `width` limbs modulo primes[0, rows).
void launch_reduce_matrix(const DeviceWords& limbs, const DeviceWords32& negative, std::size_t count, std::size_t width,
                          const crt::ReductionPrime* primes, std::size_t rows, std::uint64_t* out)
{
    const dim3 grid(grid_for(count, block), unsigned(rows));
    reduce_matrix<<<grid, block, 0, stream()>>>(limbs.data(), negative.data(), count, width, primes, out);
    check_launch("reduce_matrix");
}

// The residue products (residue_products) of two sources uploaded as limb matrices, which are
// freed once reduced.
DeviceWords source_products(const LimbSource& a, const LimbSource& b, const std::vector<std::uint64_t>& primes)
{
    DeviceWords limbs_a, limbs_b;
    DeviceWords32 negative_a, negative_b;
    upload_source(a, limbs_a, negative_a);
    upload_source(b, limbs_b, negative_b);
    auto reducer = [](const DeviceWords& limbs, const DeviceWords32& negative, const LimbSource& m) {
        return [&limbs, &negative, &m](const crt::ReductionPrime* primes, std::size_t, std::size_t rows,
                                       std::uint64_t* out) {
            launch_reduce_matrix(limbs, negative, m.count, m.width, primes, rows, out);
        };
    };
    return residue_products(a.count, b.count, primes, reducer(limbs_a, negative_a, a), reducer(limbs_b, negative_b, b));
}

void require_primes(const std::vector<std::uint64_t>& primes)
{
    if (primes.empty()) throw Error("multi-modular product: no primes");
    // a prime a grid row (blockIdx.y) in the reductions and folds
    if (primes.size() > 65535) throw Error("multi-modular product: more than 65535 primes");
    for (std::uint64_t p : primes)
        if (p < 2 || p >= (std::uint64_t(1) << 63)) throw Error("multi-modular product: primes must lie in [2, 2^63)");
}

DeviceWords residue_powers(std::size_t count, std::uint64_t e, const std::vector<std::uint64_t>& primes,
                           const ReduceRows& reduce)
{
    const std::size_t length = std::size_t(e) * (count - 1) + 1, k = primes.size();
    const std::size_t n = next_power_of_two(length);
    const DeviceReductionPrimes reduction(primes);
    DeviceWords powers(k * length);
    if (block_products_take(length, primes)) {
        DeviceWords residues(k * count);
        reduce(reduction.from(0), 0, k, residues.data());
        power_rows_in_blocks(residues.data(), count, e, primes, powers.data());
        return powers;
    }
    const std::size_t group = primes_reduced_at_once(count, k);
    DeviceWords residues(group * count);
    for (std::size_t first = 0; first < k; first += group) {
        const std::size_t rows = std::min(group, k - first);
        reduce(reduction.from(first), first, rows, residues.data());
        for (std::size_t r = 0; r < rows; ++r)
            power_device(residues.data() + r * count, count, e, primes[first + r], n, Algorithm::fast,
                         powers.data() + (first + r) * length);
    }
    return powers;
}

DeviceWords fold_residue_rows(const DeviceWords& rows, std::size_t length, std::size_t n, bool negacyclic,
                              const std::vector<std::uint64_t>& primes)
{
    DeviceWords folded(primes.size() * n);
    const DeviceReductionPrimes reduction(primes);
    fold_rows<<<dim3(grid_for(n, block), unsigned(primes.size())), block, 0, stream()>>>(
        rows.data(), length, n, negacyclic, reduction.from(0), folded.data());
    check_launch("fold_rows");
    return folded;
}

void launch_reduce_chunks(const DeviceWords& limbs, std::size_t chunks, unsigned chunk_bits,
                          const crt::ReductionPrime* primes, std::size_t rows, std::uint64_t* out)
{
    const dim3 grid(grid_for(chunks, block), unsigned(rows));
    reduce_chunks<<<grid, block, 0, stream()>>>(limbs.data(), limbs.size(), chunks, chunk_bits, primes, out);
    check_launch("reduce_chunks");
}

void sum_words_to_host(const DeviceWords& limbs, std::size_t length, std::size_t width, unsigned chunk_bits,
                       std::size_t words, std::uint64_t* summed_out)
{
    const std::size_t groups = crt::summed_groups(words);
    DeviceWords summed(words + groups);
    sum_words<<<grid_for(groups, block), block, 0, stream()>>>(limbs.data(), length, width, chunk_bits, words,
                                                               summed.data(), summed.data() + words);
    check_launch("sum_words");
    summed.download(summed_out, words + groups);
}

void launch_fold(const std::uint64_t* c, std::size_t length, std::size_t n, bool negacyclic, std::uint64_t p,
                 std::uint64_t* out)
{
    fold_row<<<grid_for(n, block), block, 0, stream()>>>(c, length, n, negacyclic, p, out);
    check_launch("fold_row");
}

}  // namespace detail

void multiply_limb_sources(const LimbSource& a, const LimbSource& b, const std::vector<std::uint64_t>& primes,
                           const LimbSink& result)
{
    using namespace detail;
    require_device();
    require_primes(primes);
    if (a.count == 0 || b.count == 0 || a.width == 0 || b.width == 0)
        throw Error("multiply_limb_sources: empty operand");
    const std::size_t length = a.count + b.count - 1;
    if (const Team team = split_team(primes.size() * length, primes.size()); team.size > 1)
        return multiply_split(team, a, b, primes, result);
    record_split({primes.size()});
    DeviceWords products = source_products(a, b, primes);
    reconstruct_to_sink(products, length, primes, result);
}

void convolve_limb_sources(const LimbSource& a, const LimbSource& b, std::size_t n, bool negacyclic,
                           const std::vector<std::uint64_t>& primes, const LimbSink& result)
{
    using namespace detail;
    require_device();
    require_primes(primes);
    if (a.count == 0 || b.count == 0 || a.width == 0 || b.width == 0)
        throw Error("convolve_limb_sources: empty operand");
    if (a.count > n || b.count > n) throw Error("convolve_limb_sources: an operand longer than n");
    const std::size_t length = a.count + b.count - 1;
    if (const Team team = split_team(primes.size() * length, primes.size()); team.size > 1)
        return convolve_split(team, a, b, n, negacyclic, primes, result);
    record_split({primes.size()});
    DeviceWords folded;
    {
        const DeviceWords products = source_products(a, b, primes);
        folded = fold_residue_rows(products, length, n, negacyclic, primes);  // beside the products only
    }
    reconstruct_to_sink(folded, n, primes, result);
}

void power_limb_source(const LimbSource& f, std::uint64_t e, const std::vector<std::uint64_t>& primes,
                       const LimbSink& result)
{
    using namespace detail;
    require_device();
    require_primes(primes);
    if (f.count == 0 || f.width == 0 || e == 0) throw Error("power_limb_source: empty operand or zero exponent");
    for (std::uint64_t p : primes)
        if (!power_in_one_transform(f.count, e, p)) throw Error("power_limb_source: a prime without the transform length");
    const std::size_t length = std::size_t(e) * (f.count - 1) + 1;
    if (const Team team = split_team(primes.size() * length, primes.size()); team.size > 1)
        return power_split(team, f, e, primes, result);
    record_split({primes.size()});
    DeviceWords limbs_f;
    DeviceWords32 negative_f;
    upload_source(f, limbs_f, negative_f);
    DeviceWords powers = residue_powers(f.count, e, primes, [&](const crt::ReductionPrime* reduction, std::size_t,
                                                                 std::size_t rows, std::uint64_t* out) {
        launch_reduce_matrix(limbs_f, negative_f, f.count, f.width, reduction, rows, out);
    });
    reconstruct_to_sink(powers, length, primes, result);
}

void multiply_magnitudes_summed(const std::uint64_t* a, std::size_t limbs_a, std::size_t chunks_a,
                                const std::uint64_t* b, std::size_t limbs_b, std::size_t chunks_b, unsigned chunk_bits,
                                const std::vector<std::uint64_t>& primes, std::size_t words, std::uint64_t* summed_out)
{
    using namespace detail;
    require_device();
    require_primes(primes);
    if (chunks_a == 0 || chunks_b == 0 || limbs_a == 0 || limbs_b == 0) throw Error("multiply_magnitudes: zero factor");
    if (chunk_bits == 0 || chunk_bits > 128) throw Error("multiply_magnitudes: chunks of 1 to 128 bits");
    const std::size_t length = chunks_a + chunks_b - 1;
    if (const Team team = split_team(primes.size() * length, primes.size()); team.size > 1)
        return magnitudes_split(team, a, limbs_a, chunks_a, b, limbs_b, chunks_b, chunk_bits, primes, words,
                                summed_out);
    record_split({primes.size()});
    const DeviceWords device_a(a, limbs_a), device_b(b, limbs_b);
    auto reducer = [chunk_bits](const DeviceWords& limbs, std::size_t chunks) {
        return [&limbs, chunks, chunk_bits](const crt::ReductionPrime* primes, std::size_t, std::size_t rows,
                                            std::uint64_t* out) {
            launch_reduce_chunks(limbs, chunks, chunk_bits, primes, rows, out);
        };
    };
    DeviceWords products =
        residue_products(chunks_a, chunks_b, primes, reducer(device_a, chunks_a), reducer(device_b, chunks_b));
    DeviceWords limbs;
    DeviceWords32 negative;
    std::size_t width = 0;
    reconstruct_on_device(products, length, primes, limbs, negative, width);
    sum_words_to_host(limbs, length, width, chunk_bits, words, summed_out);
}

std::size_t longest_resultant_operand()
{
    detail::require_device();
    return detail::longest_resultant_row();
}

namespace detail {
namespace {
// res(a, b) modulo each of `primes` on the current device.
std::vector<std::uint64_t> resultants_here(const LimbSource& a, const LimbSource& b,
                                           const std::vector<std::uint64_t>& primes)
{
    const std::size_t k = primes.size();
    DeviceWords limbs_a, limbs_b;
    DeviceWords32 negative_a, negative_b;
    upload_source(a, limbs_a, negative_a);
    upload_source(b, limbs_b, negative_b);
    const DeviceReductionPrimes reduction(primes);
    // a prime a grid row (blockIdx.y) in the reductions
    const std::size_t group = std::min<std::size_t>(primes_reduced_at_once(a.count + b.count, k), 65535);
    DeviceWords rows_a(group * a.count), rows_b(group * b.count), resultants(k);
    for (std::size_t first = 0; first < k; first += group) {
        const std::size_t rows = std::min(group, k - first);
        launch_reduce_matrix(limbs_a, negative_a, a.count, a.width, reduction.from(first), rows, rows_a.data());
        launch_reduce_matrix(limbs_b, negative_b, b.count, b.width, reduction.from(first), rows, rows_b.data());
        const std::vector<std::uint64_t> group_primes(primes.begin() + first, primes.begin() + first + rows);
        resultants_of_rows(rows_a.data(), a.count, rows_b.data(), b.count, group_primes, resultants.data() + first);
    }
    return resultants.to_host();
}
}  // namespace
}  // namespace detail

std::vector<std::uint64_t> resultants_of_limb_sources(const LimbSource& a, const LimbSource& b,
                                                      const std::vector<std::uint64_t>& primes)
{
    using namespace detail;
    require_device();
    if (a.count == 0 || b.count == 0 || a.width == 0 || b.width == 0)
        throw Error("resultants_of_limb_sources: empty operand");
    if (std::max(a.count, b.count) > longest_resultant_row())
        throw Error("resultants_of_limb_sources: operands longer than " + std::to_string(longest_resultant_row()));
    for (std::uint64_t p : primes)
        if (p % 2 == 0 || p >= (std::uint64_t(1) << 63))
            throw Error("resultants_of_limb_sources: primes must be odd and below 2^63");
    // The work grows as k n^2 (a Euclidean resultant a prime): shared from n = 2^11 with its
    // 4000 primes (1.2x on two GPUs; 2^10 0.94x: docs/measurements.md, "Multi-modular products on
    // two GPUs").
    const std::size_t n = std::max(a.count, b.count), k = primes.size();
    const Team team = split_team(k * n * n / 256, k);
    if (team.size == 1) {
        record_split({k});
        return resultants_here(a, b, primes);
    }
    std::vector<std::uint64_t> all;
    resultants_split(team, a, b, primes, &all);
    return all;
}

namespace detail {
namespace {
// Rank 0's operand, whole (m on rank 0, pulled from `source`), on every rank: a broadcast.
void broadcast_operand(crt::LimbMatrix& m, const LimbSource& source)
{
    m.count = source.count;
    m.width = source.width;
    m.limbs.resize(m.count * m.width);
    m.negative.resize(m.count);
    broadcast_from_rank0(m.limbs.data(), m.limbs.size() * sizeof(std::uint64_t));
    broadcast_from_rank0(m.negative.data(), m.negative.size() * sizeof(std::uint32_t));
}
}  // namespace

void resultants_split(const Team& team, const LimbSource& a, const LimbSource& b,
                      const std::vector<std::uint64_t>& primes, std::vector<std::uint64_t>* out)
{
    SharedCall call;
    call.kind = SharedKind::resultants;
    call.count_a = a.count;
    call.width_a = a.width;
    call.count_b = b.count;
    call.width_b = b.width;
    run_shared(team, call, primes, [&] {
        // Across ranks every rank takes the operands whole (they are small: a resultant's
        // operands have at most longest_resultant_row() terms).
        crt::LimbMatrix whole_a, whole_b;
        if (team.across_ranks) {
            if (this_rank() == 0) {
                whole_a = pull_matrix(a, a.count);
                whole_b = pull_matrix(b, b.count);
            }
            agree_before_exchange(team);
            broadcast_operand(whole_a, a);
            broadcast_operand(whole_b, b);
        }
        const LimbSource& source_a = team.across_ranks ? source_of(whole_a) : a;
        const LimbSource& source_b = team.across_ranks ? source_of(whole_b) : b;
        const std::vector<split::Range> shares = split::by_weights(primes.size(), team.speeds);
        std::vector<std::vector<std::uint64_t>> parts(std::size_t(team.size));
        on_each_member(team, [&](int d) {
            const split::Range r = shares[std::size_t(d)];
            if (r.size() == 0) return;
            parts[std::size_t(d)] =
                resultants_here(source_a, source_b,
                                std::vector<std::uint64_t>(primes.begin() + std::ptrdiff_t(r.begin),
                                                           primes.begin() + std::ptrdiff_t(r.end)));
        });
        std::vector<std::size_t> counts;
        for (const split::Range& r : shares) counts.push_back(r.size());
        std::vector<std::uint64_t> all;
        if (team.across_ranks) {
            // every rank takes part in the gather; those outside the team give nothing
            std::vector<std::size_t> per_rank(std::size_t(rank_count()), 0);
            std::copy(counts.begin(), counts.end(), per_rank.begin());
            const std::vector<std::uint64_t> none;
            agree_before_exchange(team);
            all = gather_to_rank0(team.local.empty() ? none : parts[std::size_t(this_rank())], per_rank);
        } else {
            for (const std::vector<std::uint64_t>& part : parts) all.insert(all.end(), part.begin(), part.end());
        }
        if (out) *out = std::move(all);
        record_split(counts);
    });
}

}  // namespace detail

}  // namespace cas::gpu
