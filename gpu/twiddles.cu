// Twiddle tables: built on the GPU (one thread per power, square-and-multiply with Montgomery
// products) once per (word size, p, n, w), then cached; past a byte budget the least recently
// used tables go.
#include "gpu/detail.cuh"

#include <algorithm>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

namespace cas::gpu::detail {

template <class T>
Modulus<T> make_modulus(std::uint64_t p)
{
    constexpr int bits = int(sizeof(T) * 8);
    Modulus<T> m{};
    m.p = T(p);
    m.full = bits == 64 && p >= (std::uint64_t(1) << 63);
    if (p & 1) {
        T inv = 1;  // Newton's iteration doubles the correct low bits: 1, 2, 4, ... 64
        for (int i = 0; i < 6; ++i) inv = T(inv * (T(2) - T(p) * inv));
        m.p_inv = inv;
        unsigned __int128 r = (unsigned __int128)1 << bits;
        r %= p;                                            // 2^b mod p
        m.r2 = T((r * r) % p);                             // 2^(2b) mod p
    }
    return m;
}
template Modulus<std::uint32_t> make_modulus<std::uint32_t>(std::uint64_t);
template Modulus<std::uint64_t> make_modulus<std::uint64_t>(std::uint64_t);

namespace {

template <class T>
__device__ T pow_mod_device(T base, std::uint64_t e, const Modulus<T>& m)
{
    T result = 1 % m.p, b = base;
    for (; e != 0; e >>= 1) {
        if (e & 1) result = mul_mod(result, b, m);
        b = mul_mod(b, b, m);
    }
    return result;
}

// table[i] = base^i, companion[i] = floor(table[i] 2^b / p), i < count.
template <class T>
__global__ void build_power_table(T* table, T* companion, std::size_t count, T base, Modulus<T> m)
{
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
         i += std::size_t(gridDim.x) * blockDim.x) {
        T v = pow_mod_device(base, i, m);
        table[i] = v;
        companion[i] = shoup_companion(v, m.p);
    }
}

// pairs[2i] = base^i, pairs[2i+1] = its Shoup companion, i < count (interleaved: one load).
template <class T>
__global__ void build_pair_table(T* pairs, std::size_t count, T base, Modulus<T> m)
{
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
         i += std::size_t(gridDim.x) * blockDim.x) {
        T v = pow_mod_device(base, i, m);
        pairs[2 * i] = v;
        pairs[2 * i + 1] = shoup_companion(v, m.p);
    }
}

template <class T>
struct TableSet {
    T* memory = nullptr;
    T* pair_memory = nullptr;
    std::size_t bytes = 0;
    Twiddles<T> tw{};
    ~TableSet()
    {
        if (memory) cudaFree(memory);
        if (pair_memory) cudaFree(pair_memory);
    }
};

template <class T>
std::shared_ptr<TableSet<T>> build(std::uint64_t p, std::size_t n, std::uint64_t w)
{
    int log_n = 0;
    while ((std::size_t(1) << log_n) < n) ++log_n;
    // at least 2^10 low powers: the twiddle walks of ntt_fast_twiddles.cuh take their steps
    // (exponents below 1024) from this table
    int low_bits = std::max((log_n + 1) / 2, std::min(log_n, min_low_bits));
    std::size_t lo_count = std::size_t(1) << low_bits;
    std::size_t hi_count = std::max<std::size_t>(1, n >> low_bits);
    int log_radix_len = std::min(log_n, max_log_radix_table);
    std::size_t radix_count = std::max<std::size_t>(1, (std::size_t(1) << log_radix_len) / 2);
    std::size_t total = 2 * (lo_count + hi_count + radix_count);

    auto set = std::make_shared<TableSet<T>>();
    allocate(reinterpret_cast<void**>(&set->memory), total * sizeof(T), "cudaMalloc (twiddles)", false);
    T* at = set->memory;
    auto take = [&](std::size_t count) { T* r = at; at += count; return r; };
    T* lo = take(lo_count); T* lo_q = take(lo_count);
    T* hi = take(hi_count); T* hi_q = take(hi_count);
    T* radix = take(radix_count); T* radix_q = take(radix_count);

    Modulus<T> m = make_modulus<T>(p);
    auto launch = [&](T* table, T* companion, std::size_t count, std::uint64_t base) {
        build_power_table<<<grid_for(count, 256), 256, 0, stream()>>>(table, companion, count, T(base), m);
        check_launch("build_power_table");
    };
    launch(lo, lo_q, lo_count, w);
    launch(hi, hi_q, hi_count, pow_mod(w, lo_count, p));
    launch(radix, radix_q, radix_count, pow_mod(w, n >> log_radix_len, p));
    // Per-pass tables: omega_{2^log_pairs}^k, k < 2^log_pairs; a pass with N = n / s <= 2^log_pairs
    // reads omega_N^e at index e 2^log_pairs / N (2^16 pairs: 512 KiB / 1 MiB, L2-resident).
    int log_pairs = std::min(log_n, log_n > 24 ? max_log_pairs_long : max_log_pairs);
    std::size_t pair_count = std::size_t(1) << log_pairs;
    allocate(reinterpret_cast<void**>(&set->pair_memory), 2 * pair_count * sizeof(T), "cudaMalloc (twiddles)", false);
    build_pair_table<<<grid_for(pair_count, 256), 256, 0, stream()>>>(set->pair_memory, pair_count,
                                                                     T(pow_mod(w, n >> log_pairs, p)), m);
    check_launch("build_pair_table");
    set->bytes = (total + 2 * pair_count) * sizeof(T);
    set->tw = Twiddles<T>{lo, lo_q, hi, hi_q, radix, radix_q, low_bits, log_radix_len, set->pair_memory, log_pairs};
    return set;
}

// The tables of one word size by (p, n, w), least recently used first out once they pass
// cache_bytes. A multi-modular division of 2^k terms reads about 10 k sets (5 primes, both
// directions, every length of its Newton steps): a cache of a few dozen sets that drops them all
// when full makes it rebuild its tables over and over (a synchronisation, cudaFree and two
// cudaMalloc a set). 2^18 by 2^17 terms modulo 2^61 - 1 take 4.8 ms in cas with this cache
// against 9.7 with one of 64 sets (docs/measurements.md, "Twiddle cache: least recently used out
// against all dropped"). 256 MiB holds 200 sets of the largest size (1.2 MiB: 2^16 pairs of
// 64-bit words and 2 sqrt(n) powers), and thousands of short ones.
constexpr std::size_t cache_bytes = std::size_t(256) << 20;

template <class T>
struct Cache {
    struct Entry {
        std::shared_ptr<TableSet<T>> set;
        std::uint64_t last_use = 0;
    };
    std::mutex lock;
    std::map<std::tuple<std::uint64_t, std::size_t, std::uint64_t>, Entry> tables;
    std::size_t bytes = 0;
    std::uint64_t uses = 0;
    std::size_t built = 0;

    // Drops the least recently used tables until `incoming` more bytes fit the budget. The
    // kernels queued so far may read them: the stream drains first.
    void make_room(std::size_t incoming)
    {
        bool drained = false;
        while (!tables.empty() && bytes + incoming > cache_bytes) {
            if (!drained) check(cudaStreamSynchronize(stream()), "cudaStreamSynchronize (twiddle cache)");
            drained = true;
            auto oldest = std::min_element(tables.begin(), tables.end(), [](const auto& a, const auto& b) {
                return a.second.last_use < b.second.last_use;
            });
            bytes -= oldest->second.set->bytes;
            tables.erase(oldest);
        }
    }
};
template <class T>
Cache<T>& cache()  // the current device's
{
    static PerDevice<Cache<T>> caches;
    return caches.here();
}

}  // namespace

template <class T>
Twiddles<T> twiddles(std::uint64_t p, std::size_t n, std::uint64_t w)
{
    Cache<T>& c = cache<T>();
    std::lock_guard<std::mutex> guard(c.lock);
    auto key = std::make_tuple(p, n, w);
    auto it = c.tables.find(key);
    if (it == c.tables.end()) {
        auto set = build<T>(p, n, w);
        c.make_room(set->bytes);
        c.bytes += set->bytes;
        ++c.built;
        it = c.tables.emplace(key, typename Cache<T>::Entry{set, 0}).first;
    }
    it->second.last_use = ++c.uses;
    return it->second.set->tw;
}
template Twiddles<std::uint32_t> twiddles<std::uint32_t>(std::uint64_t, std::size_t, std::uint64_t);
template Twiddles<std::uint64_t> twiddles<std::uint64_t>(std::uint64_t, std::size_t, std::uint64_t);

namespace {
template <class T>
void clear(Cache<T>& c)
{
    std::lock_guard<std::mutex> guard(c.lock);
    c.tables.clear();
    c.bytes = 0;
}

template <class T>
std::size_t tables_built()
{
    std::lock_guard<std::mutex> guard(cache<T>().lock);
    return cache<T>().built;
}
}  // namespace

void clear_twiddle_caches()
{
    check(cudaStreamSynchronize(stream()), "cudaStreamSynchronize (twiddle cache)");
    clear(cache<std::uint32_t>());
    clear(cache<std::uint64_t>());
}

}  // namespace cas::gpu::detail

namespace cas::gpu {
void clear_twiddle_cache() { detail::clear_twiddle_caches(); }
std::size_t twiddle_tables_built()
{
    return detail::tables_built<std::uint32_t>() + detail::tables_built<std::uint64_t>();
}
}  // namespace cas::gpu
