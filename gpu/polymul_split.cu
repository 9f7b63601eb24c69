// A product modulo one prime shared between two GPUs: with N the product's transform length and
// M = N / 2, c = a b (of length below N) is fixed by its residues modulo x^M - 1 and x^M + 1:
//   u = a b mod (x^M - 1) on device 0, a cyclic product of length M;
//   v = a b mod (x^M + 1) on device 1, the cyclic product of a(psi x) and b(psi x) with psi a
//       primitive N-th root of unity, unweighted by psi^-i;
//   c_i = (u_i + v_i) / 2 and c_(i+M) = (u_i - v_i) / 2.
// Each device transforms length M instead of N, uploads one operand (the other comes over NVLink
// through NCCL) and downloads half of c: the host transfers, which bound a long product on one
// GPU, split over two PCIe links.
#include "gpu/devices.cuh"
#include "gpu/power_of_two.hpp"

#include <algorithm>

namespace cas::gpu::detail {

namespace {

// psi^i = hi[i >> low_bits] lo[i & (2^low_bits - 1)], both with Shoup companions.
constexpr int low_bits = 14;

struct PowerTables {
    DeviceWords lo, lo_q, hi, hi_q;
};

PowerTables power_tables(std::uint64_t psi, std::uint64_t p, std::size_t count)
{
    const std::size_t low = std::size_t(1) << low_bits, high = (count >> low_bits) + 1;
    std::vector<std::uint64_t> lo(low), lo_q(low), hi(high), hi_q(high);
    std::uint64_t w = 1;
    for (std::size_t i = 0; i < low; ++i, w = gpu::mul_mod(w, psi, p)) {
        lo[i] = w;
        lo_q[i] = shoup_companion(w, p);
    }
    const std::uint64_t step = w;  // psi^(2^low_bits)
    w = 1;
    for (std::size_t i = 0; i < high; ++i, w = gpu::mul_mod(w, step, p)) {
        hi[i] = w;
        hi_q[i] = shoup_companion(w, p);
    }
    return {upload_table(lo), upload_table(lo_q), upload_table(hi), upload_table(hi_q)};
}

// x[i] = x[i] psi^i mod p, i < count (x[i] any word: Shoup's product reduces it).
__global__ void scale_by_powers(std::uint64_t* x, std::size_t count, const std::uint64_t* lo, const std::uint64_t* lo_q,
                                const std::uint64_t* hi, const std::uint64_t* hi_q, Modulus<std::uint64_t> m)
{
    const std::size_t mask = (std::size_t(1) << low_bits) - 1;
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
         i += std::size_t(gridDim.x) * blockDim.x) {
        const std::uint64_t t = mul_twiddle(x[i], lo[i & mask], lo_q[i & mask], m);
        x[i] = mul_twiddle(t, hi[i >> low_bits], hi_q[i >> low_bits], m);
    }
}

// low[i] = (u_i + v_i) / 2 and high[i] = (u_i - v_i) / 2 mod p, i < count; half = 2^-1 mod p.
__global__ void halves(const std::uint64_t* u, const std::uint64_t* v, std::size_t count, std::uint64_t half,
                       std::uint64_t half_q, Modulus<std::uint64_t> m, std::uint64_t* low, std::uint64_t* high)
{
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
         i += std::size_t(gridDim.x) * blockDim.x) {
        low[i] = mul_twiddle(add_mod(u[i], v[i], m.p), half, half_q, m);
        high[i] = mul_twiddle(sub_mod(u[i], v[i], m.p), half, half_q, m);
    }
}

constexpr unsigned block = 256;

void scale(DeviceWords& x, std::size_t count, const PowerTables& t, std::uint64_t p)
{
    if (count == 0) return;
    scale_by_powers<<<unsigned(std::min<std::size_t>(grid_for(count, block), 1u << 16)), block, 0, stream()>>>(
        x.data(), count, t.lo.data(), t.lo_q.data(), t.hi.data(), t.hi_q.data(), make_modulus<std::uint64_t>(p));
    check_launch("scale_by_powers");
}

// out[first, first + count) = words [from, from + count) of a device array, clipped to `length`.
void download_clipped(const std::uint64_t* device, std::size_t first, std::size_t count, std::size_t length,
                      std::uint64_t* out)
{
    if (first >= length) return;
    download_bytes(out + first, device, std::min(count, length - first) * sizeof(std::uint64_t));
}

}  // namespace

bool multiplies_on_two_devices(std::size_t na, std::size_t nb, std::uint64_t p, std::size_t threshold)
{
    if (na == 0 || nb == 0) return false;
    // the transform length, at least 4 (a quarter of it is a device's share)
    const std::size_t n = std::max<std::size_t>(4, next_power_of_two(na + nb - 1));
    if (n < threshold || na > n / 2 || nb > n / 2 || device_count() < 2 || !devices_can_exchange()) return false;
    const ProductPlan plan = plan_product(na, nb, p);  // tests p: only for the long products that get here
    return plan.single_prime && plan.transform_length == n;
}

void multiply_on_two_devices(const std::uint64_t* a, std::size_t na, const std::uint64_t* b, std::size_t nb,
                             std::uint64_t p, std::uint64_t* out)
{
    const std::size_t length = na + nb - 1, m = plan_product(na, nb, p).transform_length / 2, quarter = m / 2;
    const std::uint64_t psi = root_of_unity(p, 2 * m), half = p - (p - 1) / 2;  // 2^-1 = (p + 1) / 2
    std::vector<DeviceWords> mine(2), theirs(2);
    on_each_device(2, [&](int d) {  // a to device 0, b to device 1, each over its own link
        mine[std::size_t(d)] = d == 0 ? DeviceWords(a, na) : DeviceWords(b, nb);
        theirs[std::size_t(d)] = DeviceWords(d == 0 ? nb : na);
    });
    exchange_blocks({&mine[0], &mine[1]}, {&theirs[0], &theirs[1]}, [&](int from, int to) {
        const std::size_t words = from == 0 ? na : nb;
        return from == to ? split::Block{} : split::Block{0, words, 0, words, 1, words};
    });
    // device 0: u, and the first half of its coefficients stays; device 1: v, likewise
    std::vector<DeviceWords> residue(2), other_half(2);
    on_each_device(2, [&](int d) {
        DeviceWords &x = d == 0 ? mine[0] : theirs[1], &y = d == 0 ? theirs[0] : mine[1];  // a, b
        residue[std::size_t(d)] = DeviceWords(m);
        residue[std::size_t(d)].fill_zero();  // a short product leaves the top words
        if (d == 0) {
            multiply_cyclic_device(x.data(), na, y.data(), nb, m, p, Algorithm::fast, residue[0].data());
        } else {
            const PowerTables forward = power_tables(psi, p, std::max(na, nb));
            scale(x, na, forward, p);
            scale(y, nb, forward, p);
            multiply_cyclic_device(x.data(), na, y.data(), nb, m, p, Algorithm::fast, residue[1].data());
            scale(residue[1], m, power_tables(gpu::pow_mod(psi, 2 * m - 1, p), p, m), p);
        }
        other_half[std::size_t(d)] = DeviceWords(quarter);
        mine[std::size_t(d)] = DeviceWords();
        theirs[std::size_t(d)] = DeviceWords();
    });
    // device 0 combines coefficients [0, m/2), device 1 [m/2, m): each sends the other its half
    exchange_blocks({&residue[0], &residue[1]}, {&other_half[0], &other_half[1]}, [&](int from, int to) {
        if (from == to) return split::Block{};
        const std::size_t offset = from == 0 ? quarter : 0;
        return split::Block{offset, quarter, 0, quarter, 1, quarter};
    });
    on_each_device(2, [&](int d) {
        const std::size_t first = d == 0 ? 0 : quarter;
        const std::uint64_t* u = d == 0 ? residue[0].data() : other_half[1].data();
        const std::uint64_t* v = d == 0 ? other_half[0].data() : residue[1].data() + quarter;
        DeviceWords low(quarter), high(quarter);
        halves<<<unsigned(std::min<std::size_t>(grid_for(quarter, block), 1u << 16)), block, 0, stream()>>>(
            u, v, quarter, half, shoup_companion(half, p), make_modulus<std::uint64_t>(p), low.data(), high.data());
        check_launch("halves");
        download_clipped(low.data(), first, quarter, length, out);
        download_clipped(high.data(), m + first, quarter, length, out);
    });
    record_split({1, 1});
}

}  // namespace cas::gpu::detail
