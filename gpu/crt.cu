// Multi-modular products on the device (gpu/crt.hpp). The kernels are grid-stride loops around
// the bodies of gpu/crt_words.hpp, which the unit tests run on the host against FLINT; what is
// new here is only the launch and the buffers:
//   operands (limb-major, uploaded once) -> for each prime: residues of both operands, their
//   product by multiply_device straight into row j of a k x length residue matrix -> Garner's
//   digits in place and the limbs of every coefficient (limb-major, coalesced) -> download
//   (integers: the coefficients evaluated at 2^b word by word, sums and 2-bit carries).
// All on the library's stream, so the steps are ordered without host synchronisation.
#include "gpu/crt.hpp"
#include "gpu/detail.cuh"

namespace cas::gpu {
namespace detail {

namespace {

__device__ inline std::size_t first_index() { return blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; }
__device__ inline std::size_t grid_stride() { return std::size_t(gridDim.x) * blockDim.x; }

__global__ void reduce_matrix(const std::uint64_t* limbs, const std::uint32_t* negative, std::size_t count,
                              std::size_t width, crt::ReductionPrime q, std::uint64_t* out)
{
    for (std::size_t i = first_index(); i < count; i += grid_stride())
        crt::reduce_entry(i, limbs, negative, count, width, q, out);
}

__global__ void reduce_chunks(const std::uint64_t* limbs, std::size_t limb_count, std::size_t chunks, unsigned bits,
                              crt::ReductionPrime q, std::uint64_t* out)
{
    for (std::size_t i = first_index(); i < chunks; i += grid_stride())
        crt::chunk_residue_entry(i, limbs, limb_count, bits, q, out);
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
        : primes(t.primes), inverse(t.inverse), inverse_shoup(t.inverse_shoup), modulus(t.modulus), half(t.half),
          k(t.primes.size()), width(t.width())
    {
    }
    crt::GarnerView view() const
    {
        return {primes.data(), inverse.data(), inverse_shoup.data(), modulus.data(), half.data(), k, width};
    }
};

// Row j of `products` (length words) = the product of the residues of a and b modulo primes[j];
// reduce(q, out) writes an operand's residues.
template <class ReduceA, class ReduceB>
DeviceWords residue_products(std::size_t count_a, std::size_t count_b, const std::vector<std::uint64_t>& primes,
                             ReduceA&& reduce_a, ReduceB&& reduce_b)
{
    const std::size_t length = count_a + count_b - 1;
    DeviceWords ra(count_a), rb(count_b), products(primes.size() * length);
    for (std::size_t j = 0; j < primes.size(); ++j) {
        const crt::ReductionPrime q = crt::reduction_prime(primes[j]);
        reduce_a(q, ra.data());
        reduce_b(q, rb.data());
        multiply_device(ra.data(), count_a, rb.data(), count_b, primes[j], Algorithm::fast,
                        products.data() + j * length);
    }
    return products;
}

// Garner on the device: the limb matrix of the symmetric residues (products is overwritten).
void reconstruct_on_device(DeviceWords& products, std::size_t length, const std::vector<std::uint64_t>& primes,
                           DeviceWords& limbs, DeviceWords32& negative, std::size_t& width)
{
    const crt::GarnerTables host_tables(primes);
    const DeviceGarnerTables tables(host_tables);
    width = tables.width;
    limbs = DeviceWords(width * length);
    negative = DeviceWords32(length);
    reconstruct<<<grid_for(length, block), block, 0, stream()>>>(products.data(), length, tables.view(), limbs.data(),
                                                                 negative.data());
    check_launch("reconstruct");
}

// Garner on the device, then the limb matrix downloaded.
crt::LimbMatrix reconstruct_and_download(DeviceWords& residues, std::size_t length,
                                         const std::vector<std::uint64_t>& primes)
{
    DeviceWords limbs;
    DeviceWords32 negative;
    crt::LimbMatrix c;
    reconstruct_on_device(residues, length, primes, limbs, negative, c.width);
    c.count = length;
    c.limbs = limbs.to_host();
    c.negative = negative.to_host();
    return c;
}

// out[i] = entry i of m (uploaded as limbs, negative) mod q.p.
void launch_reduce_matrix(const DeviceWords& limbs, const DeviceWords32& negative, const crt::LimbMatrix& m,
                          const crt::ReductionPrime& q, std::uint64_t* out)
{
    reduce_matrix<<<grid_for(m.count, block), block, 0, stream()>>>(limbs.data(), negative.data(), m.count, m.width, q,
                                                                    out);
    check_launch("reduce_matrix");
}

void require_primes(const std::vector<std::uint64_t>& primes)
{
    if (primes.empty()) throw Error("multi-modular product: no primes");
    for (std::uint64_t p : primes)
        if (p < 2 || p >= (std::uint64_t(1) << 63)) throw Error("multi-modular product: primes must lie in [2, 2^63)");
}

}  // namespace
}  // namespace detail

crt::LimbMatrix multiply_limb_matrices(const crt::LimbMatrix& a, const crt::LimbMatrix& b,
                                       const std::vector<std::uint64_t>& primes)
{
    using namespace detail;
    require_device();
    require_primes(primes);
    if (a.count == 0 || b.count == 0) throw Error("multiply_limb_matrices: empty operand");
    const DeviceWords limbs_a(a.limbs), limbs_b(b.limbs);
    const DeviceWords32 negative_a(a.negative), negative_b(b.negative);
    auto reducer = [](const DeviceWords& limbs, const DeviceWords32& negative, const crt::LimbMatrix& m) {
        return [&limbs, &negative, &m](const crt::ReductionPrime& q, std::uint64_t* out) {
            launch_reduce_matrix(limbs, negative, m, q, out);
        };
    };
    DeviceWords products = residue_products(a.count, b.count, primes, reducer(limbs_a, negative_a, a),
                                            reducer(limbs_b, negative_b, b));
    return reconstruct_and_download(products, a.count + b.count - 1, primes);
}

crt::LimbMatrix power_limb_matrix(const crt::LimbMatrix& f, std::uint64_t e, const std::vector<std::uint64_t>& primes)
{
    using namespace detail;
    require_device();
    require_primes(primes);
    if (f.count == 0 || e == 0) throw Error("power_limb_matrix: empty operand or zero exponent");
    for (std::uint64_t p : primes)
        if (!power_in_one_transform(f.count, e, p)) throw Error("power_limb_matrix: a prime without the transform length");
    const std::size_t length = std::size_t(e) * (f.count - 1) + 1;
    std::size_t n = 1;
    while (n < length) n <<= 1;
    const DeviceWords limbs_f(f.limbs);
    const DeviceWords32 negative_f(f.negative);
    DeviceWords residues(f.count), powers(primes.size() * length);
    for (std::size_t j = 0; j < primes.size(); ++j) {
        launch_reduce_matrix(limbs_f, negative_f, f, crt::reduction_prime(primes[j]), residues.data());
        power_device(residues.data(), f.count, e, primes[j], n, Algorithm::fast, powers.data() + j * length);
    }
    return reconstruct_and_download(powers, length, primes);
}

std::vector<std::uint64_t> multiply_magnitudes_summed(const std::uint64_t* a, std::size_t limbs_a, std::size_t chunks_a,
                                                      const std::uint64_t* b, std::size_t limbs_b, std::size_t chunks_b,
                                                      unsigned chunk_bits, const std::vector<std::uint64_t>& primes,
                                                      std::size_t words)
{
    using namespace detail;
    require_device();
    require_primes(primes);
    if (chunks_a == 0 || chunks_b == 0 || limbs_a == 0 || limbs_b == 0) throw Error("multiply_magnitudes: zero factor");
    if (chunk_bits == 0 || chunk_bits > 128) throw Error("multiply_magnitudes: chunks of 1 to 128 bits");
    const DeviceWords device_a(a, limbs_a), device_b(b, limbs_b);
    auto reducer = [chunk_bits](const DeviceWords& limbs, std::size_t chunks) {
        return [&limbs, chunks, chunk_bits](const crt::ReductionPrime& q, std::uint64_t* out) {
            reduce_chunks<<<grid_for(chunks, block), block, 0, stream()>>>(limbs.data(), limbs.size(), chunks,
                                                                           chunk_bits, q, out);
            check_launch("reduce_chunks");
        };
    };
    DeviceWords products =
        residue_products(chunks_a, chunks_b, primes, reducer(device_a, chunks_a), reducer(device_b, chunks_b));
    const std::size_t length = chunks_a + chunks_b - 1;
    DeviceWords limbs;
    DeviceWords32 negative;
    std::size_t width = 0;
    reconstruct_on_device(products, length, primes, limbs, negative, width);
    const std::size_t groups = crt::summed_groups(words);
    DeviceWords summed(words + groups);
    sum_words<<<grid_for(groups, block), block, 0, stream()>>>(limbs.data(), length, width, chunk_bits, words,
                                                               summed.data(), summed.data() + words);
    check_launch("sum_words");
    return summed.to_host();
}

}  // namespace cas::gpu
