// Products in Z/PZ[x] for every word-size modulus P.
//
// When P is a prime and the transform length divides P - 1: forward NTTs of both operands (one
// batched launch of two vectors), pointwise products, inverse NTT, all modulo P.
// Otherwise the integer product (coefficients below min(na, nb) (P-1)^2 < 2^155) is computed
// modulo k NTT-friendly primes q_0..q_{k-1} whose product exceeds that bound (31-bit primes
// where enough exist, since 32-bit Shoup products are 4x faster; 62-bit otherwise), and each
// coefficient is rebuilt exactly with Garner's mixed-radix CRT:
//   X = v_0 + v_1 q_0 + v_2 q_0 q_1 + ...,  v_i = (r_i - (v_0 + ... + v_{i-1} q_0..q_{i-2})) / (q_0..q_{i-1}) mod q_i,
// then X mod P = sum v_i (q_0..q_{i-1} mod P) mod P. Every constant is fixed per product, so
// every product here is a Shoup product.
#include "gpu/detail.cuh"
#include "gpu/devices.cuh"

#include <algorithm>

namespace cas::gpu {
namespace detail {
namespace {

constexpr int max_primes = 8;

// x mod q for any 64-bit x: the Shoup product by 1 (w' = floor(2^b / q)) reduces any b-bit
// word; 32-bit words split x as hi 2^32 + lo.
struct Reducer32 {
    std::uint32_t q, one_q, two32, two32_q;
    __device__ std::uint32_t operator()(std::uint64_t x) const
    {
        std::uint32_t hi = mul_shoup(std::uint32_t(x >> 32), two32, two32_q, q);
        std::uint32_t lo = mul_shoup(std::uint32_t(x), 1u, one_q, q);
        return add_mod(hi, lo, q);
    }
};
struct Reducer64 {
    std::uint64_t q, one_q;
    bool full;
    __device__ std::uint64_t operator()(std::uint64_t x) const
    {
        return full ? mul_shoup_full(x, 1, one_q, q) : mul_shoup(x, std::uint64_t(1), one_q, q);
    }
};
template <class T> struct ReducerFor;
template <> struct ReducerFor<std::uint32_t> { using type = Reducer32; };
template <> struct ReducerFor<std::uint64_t> { using type = Reducer64; };

Reducer32 make_reducer32(std::uint64_t q)
{
    std::uint32_t two32 = std::uint32_t((std::uint64_t(1) << 32) % q);
    return {std::uint32_t(q), shoup_companion(1u, std::uint32_t(q)), two32, shoup_companion(two32, std::uint32_t(q))};
}
Reducer64 make_reducer64(std::uint64_t q)
{
    return {q, shoup_companion(std::uint64_t(1), q), q >= (std::uint64_t(1) << 63)};
}
template <class T>
typename ReducerFor<T>::type make_reducer(std::uint64_t q)
{
    if constexpr (sizeof(T) == 4) return make_reducer32(q);
    else return make_reducer64(q);
}

// out[i] = in[i] mod q for i < count, 0 for count <= i < padded.
template <class T, class Reduce>
__global__ void to_residues(const std::uint64_t* in, std::size_t count, T* out, std::size_t padded, Reduce reduce)
{
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < padded;
         i += std::size_t(gridDim.x) * blockDim.x)
        out[i] = i < count ? T(reduce(in[i])) : T(0);
}

template <class T>
__global__ void pointwise_product(T* a, const T* b, std::size_t count, Modulus<T> m)
{
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
         i += std::size_t(gridDim.x) * blockDim.x)
        a[i] = mul_mod(a[i], b[i], m);
}

// a[i] = a[i]^e mod p (square and multiply, e >= 1).
template <class T>
__global__ void pointwise_power(T* a, std::size_t count, std::uint64_t e, Modulus<T> m)
{
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
         i += std::size_t(gridDim.x) * blockDim.x) {
        T base = a[i], result = base;
        int top = 63;
        while (!((e >> top) & 1)) --top;
        for (int bit = top - 1; bit >= 0; --bit) {
            result = mul_mod(result, result, m);
            if ((e >> bit) & 1) result = mul_mod(result, base, m);
        }
        a[i] = result;
    }
}

// out[i] = in[i] as the other word size (widens, or narrows words known to fit).
template <class From, class To>
__global__ void convert(const From* in, To* out, std::size_t count)
{
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
         i += std::size_t(gridDim.x) * blockDim.x)
        out[i] = To(in[i]);
}
template <class From, class To>
void launch_convert(const From* in, To* out, std::size_t count)
{
    convert<<<grid_for(count, 256), 256, 0, stream()>>>(in, out, count);
    check_launch("convert");
}

template <class T>
struct GarnerConstants {
    int k;
    T q[max_primes];
    T one_q[max_primes];                  // Shoup companion of 1 mod q_i: reduces any word
    T inv[max_primes], inv_q[max_primes];  // (q_0..q_{i-1})^-1 mod q_i
    T qj[max_primes][max_primes], qj_q[max_primes][max_primes];  // q_j mod q_i, j < i
    std::uint64_t radix_mod_p[max_primes], radix_mod_p_q[max_primes];  // q_0..q_{i-1} mod P
    std::uint64_t p;
    bool full;
};

__device__ inline std::uint32_t shoup(std::uint32_t x, std::uint32_t w, std::uint32_t wq, std::uint32_t q)
{
    return mul_shoup(x, w, wq, q);
}
__device__ inline std::uint64_t shoup(std::uint64_t x, std::uint64_t w, std::uint64_t wq, std::uint64_t q)
{
    return mul_shoup(x, w, wq, q);  // CRT primes are below 2^62
}

// residues: k arrays, the i-th at residues + i * pitch.
template <class T>
__global__ void garner(const T* residues, std::size_t pitch, std::size_t count, std::uint64_t* out, GarnerConstants<T> c)
{
    for (std::size_t x = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; x < count;
         x += std::size_t(gridDim.x) * blockDim.x) {
        T v[max_primes];
        std::uint64_t result = 0;
        for (int i = 0; i < c.k; ++i) {
            T q = c.q[i];
            T r = residues[i * pitch + x];
            if (i > 0) {
                // u = v_0 + v_1 q_0 + ... + v_{i-1} q_0..q_{i-2} mod q_i, by Horner
                T u = shoup(v[i - 1], T(1), c.one_q[i], q);
                for (int j = i - 2; j >= 0; --j)
                    u = add_mod(shoup(u, c.qj[i][j], c.qj_q[i][j], q), shoup(v[j], T(1), c.one_q[i], q), q);
                r = shoup(sub_mod(r, u, q), c.inv[i], c.inv_q[i], q);
            }
            v[i] = r;
            std::uint64_t term = c.full ? mul_shoup_full(std::uint64_t(r), c.radix_mod_p[i], c.radix_mod_p_q[i], c.p)
                                        : mul_shoup(std::uint64_t(r), c.radix_mod_p[i], c.radix_mod_p_q[i], c.p);
            result = add_mod(result, term, c.p);
        }
        out[x] = result;
    }
}

template <class T>
GarnerConstants<T> garner_constants(const std::vector<std::uint64_t>& primes, std::uint64_t p)
{
    GarnerConstants<T> c{};
    c.k = int(primes.size());
    c.p = p;
    c.full = p >= (std::uint64_t(1) << 63);
    std::uint64_t radix_mod_p = 1 % p;
    for (int i = 0; i < c.k; ++i) {
        std::uint64_t q = primes[i];
        c.q[i] = T(q);
        c.one_q[i] = shoup_companion(T(1), T(q));
        std::uint64_t prod = 1;
        for (int j = 0; j < i; ++j) {
            c.qj[i][j] = T(primes[j] % q);
            c.qj_q[i][j] = shoup_companion(c.qj[i][j], T(q));
            prod = cas::gpu::mul_mod(prod, primes[j] % q, q);
        }
        c.inv[i] = T(pow_mod(prod, q - 2, q));
        c.inv_q[i] = shoup_companion(c.inv[i], T(q));
        c.radix_mod_p[i] = radix_mod_p;
        c.radix_mod_p_q[i] = shoup_companion(radix_mod_p, p);
        radix_mod_p = cas::gpu::mul_mod(radix_mod_p, q % p, p);
    }
    return c;
}

// Whether the passes of a transform of n words modulo q can take the product's work (fused loads,
// pointwise product, widened stores: four fewer sweeps over the arrays; docs/measurements.md,
// "Fast NTT per-pass twiddle tables and fused products against neither").
template <class T>
bool fuses(Algorithm algorithm, std::size_t n)
{
    int log_n = 0;
    while ((std::size_t(1) << log_n) < n) ++log_n;
    return algorithm == Algorithm::fast && (fast_options() & option_fuse_product) && fast_fusable<T>(log_n);
}

// The fused first pass that reads a[0, na) as 64-bit words, reduces them mod q and zero-pads.
template <class T>
Fusion<T> operand_loads(const std::uint64_t* a, std::size_t na, std::uint64_t q)
{
    auto reduce = make_reducer<T>(q);
    Fusion<T> f{};
    f.first_mode = 1;
    f.src0 = a;
    f.count0 = na;
    f.one_q = reduce.one_q;
    if constexpr (sizeof(T) == 4) {
        f.two32 = reduce.two32;
        f.two32_q = reduce.two32_q;
    }
    return f;
}

// work[0, n) = the transform modulo q of a[0, na) (any 64-bit words, na <= n) zero-padded.
template <class T>
void transform_operand(const std::uint64_t* a, std::size_t na, std::uint64_t q, std::size_t n, Algorithm algorithm,
                       T* work)
{
    const std::uint64_t w = root_of_unity(q, n);
    if (fuses<T>(algorithm, n)) {
        Fusion<T> f = operand_loads<T>(a, na, q);
        transform(work, n, 1, q, w, false, algorithm, &f);
        return;
    }
    to_residues<<<grid_for(n, 256), 256, 0, stream()>>>(a, na, work, n, make_reducer<T>(q));
    check_launch("to_residues");
    transform(work, n, 1, q, w, false, algorithm);
}

// The inverse transform of spectrum[i] second[i] modulo q (second may be spectrum + n, a kept
// spectrum, or spectrum itself: a square). With `out`, where the passes can widen, the result goes
// to out[0, count) as 64-bit words (returns true); otherwise to spectrum[0, n).
template <class T>
bool inverse_of_product(T* spectrum, const T* second, std::uint64_t q, std::size_t n, Algorithm algorithm,
                        std::uint64_t* out, std::size_t count)
{
    const std::uint64_t w = root_of_unity(q, n);
    if (fuses<T>(algorithm, n)) {
        Fusion<T> g{};
        g.first_mode = 2;
        if (second != spectrum + n) g.second = second;  // else vector 1, dropped from L2 once read
        if (out) {
            g.widen_out = true;
            g.out = out;
            g.out_count = count;
        }
        transform(spectrum, n, 1, q, w, true, algorithm, &g);
        return out != nullptr;
    }
    pointwise_product<<<grid_for(n, 256), 256, 0, stream()>>>(spectrum, second, n, make_modulus<T>(q));
    check_launch("pointwise_product");
    transform(spectrum, n, 1, q, w, true, algorithm);
    return false;
}

// work[0, n) = (a b mod q) coefficients 0..n-1 (cyclic, exact when na + nb - 1 <= n);
// work must hold 2n words. With `out` (single-prime products), the result goes to out[0, count)
// as 64-bit words instead, and work[0, n) is left undefined. Returns whether it wrote `out`.
// With bring_second (SecondOperand), b is read only after it ran, and a's work is queued before.
template <class T>
bool residue_product(const std::uint64_t* a, std::size_t na, const std::uint64_t* b, std::size_t nb, std::uint64_t q,
                     std::size_t n, Algorithm algorithm, T* work, std::uint64_t* out, std::size_t count,
                     const SecondOperand& bring_second)
{
    if (bring_second) {  // a's transform runs while b is brought, then b's
        transform_operand(a, na, q, n, algorithm, work);
        bring_second();
        transform_operand(b, nb, q, n, algorithm, work + n);
    } else if (fuses<T>(algorithm, n)) {  // both in one batch: vector 1 reads b
        Fusion<T> f = operand_loads<T>(a, na, q);
        f.src1 = b;
        f.count1 = nb;
        transform(work, n, 2, q, root_of_unity(q, n), false, algorithm, &f);
    } else {
        auto reduce = make_reducer<T>(q);
        to_residues<<<grid_for(n, 256), 256, 0, stream()>>>(a, na, work, n, reduce);
        check_launch("to_residues");
        to_residues<<<grid_for(n, 256), 256, 0, stream()>>>(b, nb, work + n, n, reduce);
        check_launch("to_residues");
        transform(work, n, 2, q, root_of_unity(q, n), false, algorithm);
    }
    return inverse_of_product(work, work + n, q, n, algorithm, out, count);
}

// out[0, count) from the residue rows work[i pitch, i pitch + count) of the plan's primes (row 0
// alone for a single prime), unless the transforms wrote out already.
template <class T>
void gather_product(const T* work, std::size_t pitch, const ProductPlan& plan, std::uint64_t p, std::uint64_t* out,
                    std::size_t count, bool written)
{
    if (written) return;
    if (plan.single_prime) {
        if constexpr (sizeof(T) == 8) {
            check(cudaMemcpyAsync(out, work, count * sizeof(T), cudaMemcpyDeviceToDevice, stream()),
                  "cudaMemcpyAsync (product)");
        } else {
            launch_convert(work, out, count);
        }
        return;
    }
    auto constants = garner_constants<T>(plan.primes, p);
    garner<<<grid_for(count, 256), 256, 0, stream()>>>(work, pitch, count, out, constants);
    check_launch("garner");
}

void require_prime_count(const ProductPlan& plan)
{
    if (plan.primes.size() > std::size_t(max_primes)) throw Error("too many CRT primes");
}

// out[0, min(na + nb - 1, n)) = a b modulo x^n - 1 (n = plan.transform_length) and p.
template <class T>
void product(const std::uint64_t* a, std::size_t na, const std::uint64_t* b, std::size_t nb, const ProductPlan& plan,
             std::uint64_t p, Algorithm algorithm, std::uint64_t* out, const SecondOperand& bring_second)
{
    require_prime_count(plan);
    const std::size_t n = plan.transform_length, count = std::min(na + nb - 1, n), k = plan.primes.size();
    Scratch<T> work(2 * n * k);
    bool written = false;
    for (std::size_t i = 0; i < k; ++i)
        written = residue_product(a, na, b, nb, plan.primes[i], n, algorithm, work.get() + 2 * n * i,
                                  plan.single_prime ? out : nullptr, count, i == 0 ? bring_second : SecondOperand());
    gather_product(work.get(), 2 * n, plan, p, out, count, written);
}

// out[0, min(2 na - 1, n)) = a^2 modulo x^n - 1 and p: one forward transform a prime, not two.
template <class T>
void square(const std::uint64_t* a, std::size_t na, const ProductPlan& plan, std::uint64_t p, Algorithm algorithm,
            std::uint64_t* out)
{
    require_prime_count(plan);
    const std::size_t n = plan.transform_length, count = std::min(2 * na - 1, n), k = plan.primes.size();
    Scratch<T> work(n * k);
    bool written = false;
    for (std::size_t i = 0; i < k; ++i) {
        T* row = work.get() + n * i;
        transform_operand(a, na, plan.primes[i], n, algorithm, row);
        written = inverse_of_product(row, row, plan.primes[i], n, algorithm, plan.single_prime ? out : nullptr, count);
    }
    gather_product(work.get(), n, plan, p, out, count, written);
}

// Products on 32-bit words when every prime of the plan is below 2^31 (half the bytes).
bool narrow_words(const ProductPlan& plan)
{
    return std::all_of(plan.primes.begin(), plan.primes.end(),
                       [](std::uint64_t q) { return q < (std::uint64_t(1) << 31); });
}

// The CRT primes cover coefficients up to min(na, nb) p^2, so operand words >= p must be reduced
// mod p first (a single prime reduces them by itself): one more sweep over the operands, into
// reduced[0, na + nb); a and b then point there. Runs bring_second before it reads b (b may be
// null: a square).
void reduce_operands(const std::uint64_t*& a, std::size_t na, const std::uint64_t*& b, std::size_t nb,
                     std::uint64_t p, std::uint64_t* reduced, const SecondOperand& bring_second)
{
    auto reduce = make_reducer<std::uint64_t>(p);
    to_residues<<<grid_for(na, 256), 256, 0, stream()>>>(a, na, reduced, na, reduce);
    check_launch("to_residues");
    a = reduced;
    if (bring_second) bring_second();
    if (!b) return;
    to_residues<<<grid_for(nb, 256), 256, 0, stream()>>>(b, nb, reduced + na, nb, reduce);
    check_launch("to_residues");
    b = reduced + na;
}

void multiply_planned(const std::uint64_t* a, std::size_t na, const std::uint64_t* b, std::size_t nb,
                      const ProductPlan& plan, std::uint64_t p, Algorithm algorithm, std::uint64_t* out,
                      const SecondOperand& bring_second)
{
    Scratch<std::uint64_t> reduced(plan.single_prime ? 0 : na + nb);
    if (!plan.single_prime) reduce_operands(a, na, b, nb, p, reduced.get(), bring_second);
    // a CRT product brought b before its reduction above
    const SecondOperand& to_transforms = plan.single_prime ? bring_second : SecondOperand();
    if (narrow_words(plan)) product<std::uint32_t>(a, na, b, nb, plan, p, algorithm, out, to_transforms);
    else product<std::uint64_t>(a, na, b, nb, plan, p, algorithm, out, to_transforms);
}

}  // namespace

void multiply_device(const std::uint64_t* a, std::size_t na, const std::uint64_t* b, std::size_t nb, std::uint64_t p,
                     Algorithm algorithm, std::uint64_t* out, const SecondOperand& bring_second)
{
    if (p < 2) throw Error("modulus must be at least 2");
    if (na == 0 || nb == 0) return;
    multiply_planned(a, na, b, nb, plan_product(na, nb, p), p, algorithm, out, bring_second);
}

void multiply_cyclic_device(const std::uint64_t* a, std::size_t na, const std::uint64_t* b, std::size_t nb,
                            std::size_t n, std::uint64_t p, Algorithm algorithm, std::uint64_t* out,
                            const SecondOperand& bring_second)
{
    if (p < 2) throw Error("modulus must be at least 2");
    if (na == 0 || nb == 0) return;
    multiply_planned(a, na, b, nb, plan_cyclic_product(na, nb, n, p), p, algorithm, out, bring_second);
}

void square_device(const std::uint64_t* a, std::size_t na, std::uint64_t p, Algorithm algorithm, std::uint64_t* out)
{
    if (p < 2) throw Error("modulus must be at least 2");
    if (na == 0) return;
    const ProductPlan plan = plan_product(na, na, p);
    Scratch<std::uint64_t> reduced(plan.single_prime ? 0 : na);
    const std::uint64_t* none = nullptr;
    if (!plan.single_prime) reduce_operands(a, na, none, 0, p, reduced.get(), {});
    if (narrow_words(plan)) square<std::uint32_t>(a, na, plan, p, algorithm, out);
    else square<std::uint64_t>(a, na, plan, p, algorithm, out);
}

// ---------------------------------------------------------------- a kept operand
namespace {
std::size_t spectra_words(const ProductPlan& plan)
{
    const std::size_t bytes = plan.primes.size() * plan.transform_length * (narrow_words(plan) ? 4 : 8);
    return (bytes + 7) / 8;
}
}  // namespace

KeptOperand::KeptOperand(const std::uint64_t* b, std::size_t nb, std::size_t partner, std::size_t n, std::uint64_t p,
                         Algorithm algorithm)
    : plan_(plan_cyclic_product(partner, nb, n, p)), p_(p), partner_(partner), algorithm_(algorithm),
      spectra_(spectra_words(plan_))
{
    require_prime_count(plan_);
    if (narrow_words(plan_)) transform_rows<std::uint32_t>(b, nb);
    else transform_rows<std::uint64_t>(b, nb);
}

template <class T>
void KeptOperand::transform_rows(const std::uint64_t* b, std::size_t nb)
{
    const std::size_t n = plan_.transform_length;
    for (std::size_t i = 0; i < plan_.primes.size(); ++i)
        transform_operand(b, nb, plan_.primes[i], n, algorithm_, reinterpret_cast<T*>(spectra_.get()) + n * i);
}

void KeptOperand::multiply(const std::uint64_t* a, std::size_t na, std::uint64_t* out, std::size_t count) const
{
    if (na == 0 || count == 0) return;
    if (na > partner_ || count > plan_.transform_length) throw Error("KeptOperand: operand or result too long");
    if (narrow_words(plan_)) multiply_rows<std::uint32_t>(a, na, out, count);
    else multiply_rows<std::uint64_t>(a, na, out, count);
}

template <class T>
void KeptOperand::multiply_rows(const std::uint64_t* a, std::size_t na, std::uint64_t* out, std::size_t count) const
{
    const std::size_t n = plan_.transform_length, k = plan_.primes.size();
    const T* kept = reinterpret_cast<const T*>(spectra_.get());
    Scratch<T> work(n * k);
    bool written = false;
    for (std::size_t i = 0; i < k; ++i) {
        T* row = work.get() + n * i;
        transform_operand(a, na, plan_.primes[i], n, algorithm_, row);
        written = inverse_of_product(row, kept + n * i, plan_.primes[i], n, algorithm_,
                                     plan_.single_prime ? out : nullptr, count);
    }
    gather_product(work.get(), n, plan_, p_, out, count, written);
}

// out[0, e (na - 1) + 1) = a^e mod p through one transform of length n (power_in_one_transform).
template <class T>
void power_one_transform(const std::uint64_t* a, std::size_t na, std::uint64_t e, std::uint64_t p, std::size_t n,
                         Algorithm algorithm, std::uint64_t* out)
{
    const std::size_t length = std::size_t(e) * (na - 1) + 1;
    const std::uint64_t w = root_of_unity(p, n);
    Scratch<T> work(n);
    to_residues<<<grid_for(n, 256), 256, 0, stream()>>>(a, na, work.get(), n, make_reducer<T>(p));
    check_launch("to_residues");
    transform(work.get(), n, 1, p, w, false, algorithm);
    pointwise_power<<<grid_for(n, 256), 256, 0, stream()>>>(work.get(), n, e, make_modulus<T>(p));
    check_launch("pointwise_power");
    transform(work.get(), n, 1, p, w, true, algorithm);
    launch_convert(work.get(), out, length);
}

void power_device(const std::uint64_t* a, std::size_t na, std::uint64_t e, std::uint64_t p, std::size_t n,
                  Algorithm algorithm, std::uint64_t* out)
{
    if (p < (std::uint64_t(1) << 31)) power_one_transform<std::uint32_t>(a, na, e, p, n, algorithm, out);
    else power_one_transform<std::uint64_t>(a, na, e, p, n, algorithm, out);
}

namespace {
// Host to host modulo p < 2^32, where every coefficient fits 32 bits: the operands a[0, na),
// b[0, nb) cross PCIe as 32-bit words and are widened on the device into one 64-bit array
// (b' = a' + na) for compute(a', result, bring_b), whose 64-bit result[0, length) comes back
// narrowed; compute runs bring_b (which uploads and widens b) before it reads b'. Half the bus
// bytes (2^23 x 2^23: 128 MiB instead of 256, 2.45 ms instead of 4.9 at 54.8 GB/s) and 12 instead
// of 16 bytes per coefficient in the pageable <-> pinned copies, for two conversion sweeps on the
// device (384 MiB at 2^24: about a tenth of a millisecond). False, with nothing written, when an
// operand has a word >= 2^32: the caller then takes the 64-bit path, which reduces any word (words
// in [p, 2^32) do take this path, and the device reduces them as it reduces any word); the work
// queued for a is then wasted.
template <class Compute>
bool through_32_bit_words(const std::uint64_t* a, std::size_t na, const std::uint64_t* b, std::size_t nb,
                          std::size_t length, std::uint64_t* out, Compute compute)
{
    Scratch<std::uint32_t> narrow(std::max(na + nb, length));
    Scratch<std::uint64_t> wide(na + nb + length);
    StreamMark allocated;
    if (!upload_narrowed(narrow.get(), a, na)) return false;
    launch_convert(narrow.get(), wide.get(), na);
    bool b_fits = true;
    compute(wide.get(), wide.get() + na + nb, [&] {
        b_fits = upload_narrowed(narrow.get() + na, b, nb, &allocated);
        if (b_fits) launch_convert(narrow.get() + na, wide.get() + na, nb);
    });
    if (!b_fits) return false;
    launch_convert(wide.get() + na + nb, narrow.get(), length);  // result words are < p < 2^32
    download_widened(out, narrow.get(), length);
    return true;
}
constexpr std::uint64_t two_to_32 = std::uint64_t(1) << 32;

// out[0, length) = what compute(ab, c, bring_b) writes into c from the host operands a and b on
// the device (b follows a there, uploaded by bring_b while a's first work runs): through 32-bit
// words on the bus for p < 2^32 (through_32_bit_words), otherwise 64-bit ones.
template <class Compute>
void from_host_operands(const std::uint64_t* a, std::size_t na, const std::uint64_t* b, std::size_t nb,
                        std::uint64_t p, std::size_t length, std::uint64_t* out, Compute compute)
{
    if (p < two_to_32 && through_32_bit_words(a, na, b, nb, length, out, compute)) return;
    DeviceWords ab(na + nb), c(length);
    StreamMark allocated;
    ab.upload(a, na);
    compute(ab.data(), c.data(), [&] { upload_bytes(ab.data() + na, b, nb * sizeof(std::uint64_t), &allocated); });
    c.download(out, length);
}
}  // namespace

ReducedUpload::ReducedUpload(std::size_t count, std::uint64_t p)
    : words_(count), narrow_(p < two_to_32 ? count : 0), count_(count)
{
}

DeviceWords& ReducedUpload::from(const std::uint64_t* host, bool beside)
{
    const StreamMark* after = beside ? &allocated_ : nullptr;
    if (narrow_.get() && upload_narrowed(narrow_.get(), host, count_, after))
        launch_convert(narrow_.get(), words_.data(), count_);
    else
        upload_bytes(words_.data(), host, count_ * sizeof(std::uint64_t), after);
    return words_;
}

void download_reduced(std::uint64_t* host, const std::uint64_t* device, std::size_t count, std::uint64_t p)
{
    if (p >= two_to_32) {
        download_bytes(host, device, count * sizeof(std::uint64_t));
        return;
    }
    Scratch<std::uint32_t> narrow(count);
    launch_convert(device, narrow.get(), count);
    download_widened(host, narrow.get(), count);
}

}  // namespace detail

void multiply_mod(const DeviceWords& a, const DeviceWords& b, std::uint64_t p, DeviceWords& out, Algorithm algorithm)
{
    detail::require_device();
    if (a.empty() || b.empty()) return;
    if (out.size() < a.size() + b.size() - 1) throw Error("multiply_mod: output array too short");
    if (a.data() == b.data() && a.size() == b.size())
        detail::square_device(a.data(), a.size(), p, algorithm, out.data());
    else
        detail::multiply_device(a.data(), a.size(), b.data(), b.size(), p, algorithm, out.data());
}

DeviceWords multiply_mod(const DeviceWords& a, const DeviceWords& b, std::uint64_t p, Algorithm algorithm)
{
    detail::require_device();
    if (a.empty() || b.empty()) return DeviceWords();
    DeviceWords out(a.size() + b.size() - 1);
    multiply_mod(a, b, p, out, algorithm);
    return out;
}

void multiply_mod(const std::uint64_t* a, std::size_t na, const std::uint64_t* b, std::size_t nb, std::uint64_t p,
                  std::uint64_t* out, Algorithm algorithm)
{
    detail::require_device();
    if (na == 0 || nb == 0) return;
    const bool two_devices_may = algorithm == Algorithm::fast;
    if (two_devices_may && detail::multiplies_on_two_devices(na, nb, p, detail::prime_split_threshold()))
        return detail::multiply_on_two_devices(a, na, b, nb, p, out);
    detail::record_split({1});
    auto product = [&](const std::uint64_t* ab, std::uint64_t* c, const detail::SecondOperand& bring_b) {
        detail::multiply_device(ab, na, ab + na, nb, p, algorithm, c, bring_b);
    };
    try {
        detail::from_host_operands(a, na, b, nb, p, na + nb - 1, out, product);
    } catch (const OutOfMemory&) {
        // too long for one device: two of them need half its memory each
        if (!two_devices_may || !detail::multiplies_on_two_devices(na, nb, p, 0)) throw;
        detail::multiply_on_two_devices(a, na, b, nb, p, out);
    }
}

void convolve_mod(const std::uint64_t* a, std::size_t na, const std::uint64_t* b, std::size_t nb, std::size_t n,
                  bool negacyclic, std::uint64_t p, std::uint64_t* out, Algorithm algorithm)
{
    detail::require_device();
    if (na == 0 || nb == 0) return;
    if (na > n || nb > n) throw Error("convolve_mod: an operand longer than n");
    const std::size_t length = na + nb - 1;
    if (convolves_by_cyclic_product(na, nb, n, negacyclic)) {  // the transforms' own wrap: n words, not 2n
        auto cyclic = [&](const std::uint64_t* ab, std::uint64_t* c, const detail::SecondOperand& bring_b) {
            detail::multiply_cyclic_device(ab, na, ab + na, nb, n, p, algorithm, c, bring_b);
        };
        detail::from_host_operands(a, na, b, nb, p, n, out, cyclic);
        return;
    }
    // multiply_mod's product into scratch, folded into the n words that come back
    auto convolution = [&](const std::uint64_t* ab, std::uint64_t* c, const detail::SecondOperand& bring_b) {
        detail::Scratch<std::uint64_t> product(length);
        detail::multiply_device(ab, na, ab + na, nb, p, algorithm, product.get(), bring_b);
        detail::launch_fold(product.get(), length, n, negacyclic, p, c);
    };
    detail::from_host_operands(a, na, b, nb, p, n, out, convolution);
}

std::vector<std::uint64_t> multiply_mod(const std::uint64_t* a, std::size_t na, const std::uint64_t* b,
                                        std::size_t nb, std::uint64_t p, Algorithm algorithm)
{
    detail::require_device();
    if (na == 0 || nb == 0) return {};
    std::vector<std::uint64_t> out(na + nb - 1);
    multiply_mod(a, na, b, nb, p, out.data(), algorithm);
    return out;
}

std::vector<std::uint64_t> multiply_mod(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b,
                                        std::uint64_t p, Algorithm algorithm)
{
    return multiply_mod(a.data(), a.size(), b.data(), b.size(), p, algorithm);
}

// ---------------------------------------------------------------- powers
namespace {
// The transform length for a^e: the power of two >= e (na - 1) + 1, or 0 when that overflows.
std::size_t power_transform_length(std::size_t na, std::uint64_t e)
{
    if (na == 0 || e == 0) return 0;
    if (na > 1 && e > (std::uint64_t(1) << 40) / (na - 1)) return 0;
    const std::size_t length = std::size_t(e) * (na - 1) + 1;
    std::size_t n = 1;
    while (n < length) n <<= 1;
    return n;
}
}  // namespace

bool power_in_one_transform(std::size_t na, std::uint64_t e, std::uint64_t p)
{
    const std::size_t n = power_transform_length(na, e);
    return n != 0 && p >= 3 && (p - 1) % n == 0 && is_prime(p);
}

void power_mod(const std::uint64_t* a, std::size_t na, std::uint64_t e, std::uint64_t p, std::uint64_t* out,
               Algorithm algorithm)
{
    detail::require_device();
    if (!power_in_one_transform(na, e, p)) throw Error("power_mod: no transform of that length modulo p");
    const std::size_t n = power_transform_length(na, e), length = std::size_t(e) * (na - 1) + 1;
    auto power = [&](const std::uint64_t* da, std::uint64_t* dc, const detail::SecondOperand&) {  // no second operand
        detail::power_device(da, na, e, p, n, algorithm, dc);
    };
    if (p < detail::two_to_32 && detail::through_32_bit_words(a, na, nullptr, 0, length, out, power)) return;
    DeviceWords da(a, na), dc(length);
    power(da.data(), dc.data(), nullptr);
    dc.download(out, length);
}

DeviceWords power_mod(const DeviceWords& a, std::uint64_t e, std::uint64_t p, Algorithm algorithm)
{
    detail::require_device();
    const std::size_t na = a.size();
    if (!power_in_one_transform(na, e, p)) throw Error("power_mod: no transform of that length modulo p");
    DeviceWords out(std::size_t(e) * (na - 1) + 1);
    detail::power_device(a.data(), na, e, p, power_transform_length(na, e), algorithm, out.data());
    return out;
}

}  // namespace cas::gpu
