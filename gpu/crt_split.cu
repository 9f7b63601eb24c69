// Multi-modular products, convolutions and powers shared among the host's GPUs (gpu/crt.hpp,
// "several GPUs"). Each device:
//   1. uploads its range of the operands' coefficients and reduces it modulo every prime
//      (a k x |range| matrix by columns);
//   2. after the first exchange holds whole residue rows for its primes, and computes their
//      products (or powers, or folded products) with the one-device steps of gpu/crt.cu;
//   3. after the second exchange holds every prime's residues for its range of the result's
//      coefficients, reconstructs them (Garner) and hands them to the sink.
// Integers gather the reconstructed limbs on device 0, whose sum of the coefficients at 2^b needs
// neighbouring coefficients. The geometry is gpu/split_plan.hpp's, which the CPU's tests check.
#include "gpu/crt_steps.cuh"
#include "gpu/devices.cuh"
#include "gpu/split_plan.hpp"

#include <algorithm>
#include <mutex>
#include <numeric>

namespace cas::gpu {
namespace detail {

namespace {

// What each device takes: its primes, and its ranges of the operands' and the result's
// coefficients.
struct Shares {
    std::vector<split::Range> primes, a, b, result;

    std::vector<std::uint64_t> primes_of(const std::vector<std::uint64_t>& all, int device) const
    {
        const split::Range r = primes[std::size_t(device)];
        return {all.begin() + std::ptrdiff_t(r.begin), all.begin() + std::ptrdiff_t(r.end)};
    }
    std::vector<std::size_t> prime_counts() const
    {
        std::vector<std::size_t> counts;
        for (const split::Range& r : primes) counts.push_back(r.size());
        return counts;
    }
};

Shares shares_for(int devices, std::size_t k, std::size_t count_a, std::size_t count_b, std::size_t result,
                  std::size_t operand_align = 1)
{
    const std::vector<double> speeds = device_speeds(devices);
    return {split::by_weights(k, speeds), split::by_weights(count_a, speeds, operand_align),
            split::by_weights(count_b, speeds, operand_align), split::by_weights(result, speeds)};
}

std::vector<DeviceWords*> pointers(std::vector<DeviceWords>& arrays)
{
    std::vector<DeviceWords*> p;
    for (DeviceWords& a : arrays) p.push_back(&a);
    return p;
}

// The source's coefficients [r.begin, r.end) as a source of their own.
LimbSource range_of(const LimbSource& source, split::Range r)
{
    return {r.size(), source.width, [&source, r](const LimbBlock& block) {
                LimbBlock shifted = block;
                shifted.first += r.begin;
                source.write(shifted);
            }};
}

// launch(first, rows) for the primes in groups of at most 65535: a prime a grid row (blockIdx.y).
template <class Launch>
void in_grid_rows(std::size_t k, Launch&& launch)
{
    for (std::size_t first = 0; first < k; first += 65535) launch(first, std::min<std::size_t>(65535, k - first));
}

// The residues of a limb matrix of `count` coefficients modulo every prime, into a k x count
// matrix.
DeviceWords residues_of_matrix(const DeviceWords& limbs, const DeviceWords32& negative, std::size_t count,
                               std::size_t width, const std::vector<std::uint64_t>& primes)
{
    const std::size_t k = primes.size();
    DeviceWords out(k * count);
    if (count == 0) return out;
    const DeviceReductionPrimes reduction(primes);
    in_grid_rows(k, [&](std::size_t first, std::size_t rows) {
        launch_reduce_matrix(limbs, negative, count, width, reduction.from(first), rows, out.data() + first * count);
    });
    return out;
}

// Step 1 for a Z[x] operand: the device's range uploaded and reduced modulo every prime.
DeviceWords reduce_range(const LimbSource& source, split::Range r, const std::vector<std::uint64_t>& primes)
{
    DeviceWords limbs;
    DeviceWords32 negative;
    if (r.size() != 0) upload_source(range_of(source, r), limbs, negative);
    return residues_of_matrix(limbs, negative, r.size(), source.width, primes);
}

// A ReduceRows that copies rows [first, first + rows) of a matrix of `count`-word rows already on
// the device (the first exchange's result).
ReduceRows rows_from(const DeviceWords& matrix, std::size_t count)
{
    return [&matrix, count](const crt::ReductionPrime*, std::size_t first, std::size_t rows, std::uint64_t* out) {
        if (rows * count == 0) return;
        check(cudaMemcpyAsync(out, matrix.data() + first * count, rows * count * sizeof(std::uint64_t),
                              cudaMemcpyDeviceToDevice, stream()),
              "cudaMemcpyAsync (residue rows)");
    };
}

// The first exchange: by columns (ranges) to whole rows for each device's primes.
std::vector<DeviceWords> to_rows(int devices, std::vector<DeviceWords>& columns, const Shares& s,
                                 const std::vector<split::Range>& ranges)
{
    std::vector<DeviceWords> rows(static_cast<std::size_t>(devices));
    const std::size_t count = ranges.back().end;
    for (int d = 0; d < devices; ++d) {
        OnDevice on(d);
        rows[std::size_t(d)] = DeviceWords(s.primes[std::size_t(d)].size() * count);
    }
    exchange_blocks(pointers(columns), pointers(rows),
                    [&](int from, int to) { return split::columns_to_rows(s.primes, ranges, from, to); });
    columns.clear();
    return rows;
}

// The second exchange: each device's rows (of s.result's length) to every prime's residues of
// its range of the result.
std::vector<DeviceWords> to_columns(int devices, std::vector<DeviceWords>& rows, const Shares& s, std::size_t k)
{
    std::vector<DeviceWords> columns(static_cast<std::size_t>(devices));
    for (int d = 0; d < devices; ++d) {
        OnDevice on(d);
        columns[std::size_t(d)] = DeviceWords(k * s.result[std::size_t(d)].size());
    }
    exchange_blocks(pointers(rows), pointers(columns),
                    [&](int from, int to) { return split::rows_to_columns(s.primes, s.result, from, to); });
    rows.clear();
    return columns;
}

// Step 3: each device's range of the result reconstructed and handed to the sink (one call at a
// time, at the coefficients' places).
void reconstruct_ranges(int devices, std::vector<DeviceWords>& columns, const Shares& s,
                        const std::vector<std::uint64_t>& primes, const LimbSink& sink)
{
    std::mutex one_at_a_time;
    on_each_device(devices, [&](int d) {
        const split::Range r = s.result[std::size_t(d)];
        if (r.size() == 0) return;
        DeviceWords limbs;
        DeviceWords32 negative;
        std::size_t width = 0;
        reconstruct_on_device(columns[std::size_t(d)], r.size(), primes, limbs, negative, width);
        download_to_sink(limbs, negative, r.size(), width, [&](const ConstLimbBlock& block) {
            ConstLimbBlock placed = block;
            placed.first += r.begin;
            std::lock_guard<std::mutex> guard(one_at_a_time);
            sink(placed);
        });
    });
    record_split(s.prime_counts());
}

// Steps 1 and 2 of a product: each device's residue products for its primes, rows of
// count_a + count_b - 1 words.
template <class ReduceA, class ReduceB>
std::vector<DeviceWords> products_on_devices(int devices, std::size_t count_a, std::size_t count_b, const Shares& s,
                                             const std::vector<std::uint64_t>& primes, ReduceA&& reduce_a,
                                             ReduceB&& reduce_b)
{
    std::vector<DeviceWords> columns_a(static_cast<std::size_t>(devices)), columns_b(static_cast<std::size_t>(devices));
    on_each_device(devices, [&](int d) {
        columns_a[std::size_t(d)] = reduce_a(d);
        columns_b[std::size_t(d)] = reduce_b(d);
    });
    std::vector<DeviceWords> rows_a = to_rows(devices, columns_a, s, s.a), rows_b = to_rows(devices, columns_b, s, s.b);
    std::vector<DeviceWords> products(static_cast<std::size_t>(devices));
    on_each_device(devices, [&](int d) {
        const std::vector<std::uint64_t> mine = s.primes_of(primes, d);
        if (!mine.empty())
            products[std::size_t(d)] = residue_products(count_a, count_b, mine, rows_from(rows_a[std::size_t(d)], count_a),
                                                        rows_from(rows_b[std::size_t(d)], count_b));
        rows_a[std::size_t(d)] = DeviceWords();
        rows_b[std::size_t(d)] = DeviceWords();
    });
    return products;
}

}  // namespace

int split_devices(std::size_t words, std::size_t k)
{
    if (k < 2 || words < split_threshold()) return 1;
    // two primes a device at least: integers of 10^9 bits take 3 primes, and 2 + 1 on two GPUs
    // took as long as 3 on one (docs/measurements.md, "Multi-modular products on two GPUs")
    const std::size_t most = split_threshold() == 0 ? k : k / 2;
    const int devices = int(std::min<std::size_t>(std::size_t(device_count()), most));
    if (devices < 2 || !devices_can_exchange()) return 1;
    return devices;
}

void multiply_split(int devices, const LimbSource& a, const LimbSource& b, const std::vector<std::uint64_t>& primes,
                    const LimbSink& result)
{
    const std::size_t length = a.count + b.count - 1;
    const Shares s = shares_for(devices, primes.size(), a.count, b.count, length);
    std::vector<DeviceWords> products = products_on_devices(
        devices, a.count, b.count, s, primes, [&](int d) { return reduce_range(a, s.a[std::size_t(d)], primes); },
        [&](int d) { return reduce_range(b, s.b[std::size_t(d)], primes); });
    std::vector<DeviceWords> columns = to_columns(devices, products, s, primes.size());
    reconstruct_ranges(devices, columns, s, primes, result);
}

void convolve_split(int devices, const LimbSource& a, const LimbSource& b, std::size_t n, bool negacyclic,
                    const std::vector<std::uint64_t>& primes, const LimbSink& result)
{
    const std::size_t length = a.count + b.count - 1;
    const Shares s = shares_for(devices, primes.size(), a.count, b.count, n);
    std::vector<DeviceWords> products = products_on_devices(
        devices, a.count, b.count, s, primes, [&](int d) { return reduce_range(a, s.a[std::size_t(d)], primes); },
        [&](int d) { return reduce_range(b, s.b[std::size_t(d)], primes); });
    on_each_device(devices, [&](int d) {
        DeviceWords& rows = products[std::size_t(d)];
        if (!rows.empty()) rows = fold_residue_rows(rows, length, n, negacyclic, s.primes_of(primes, d));
    });
    std::vector<DeviceWords> columns = to_columns(devices, products, s, primes.size());
    reconstruct_ranges(devices, columns, s, primes, result);
}

void power_split(int devices, const LimbSource& f, std::uint64_t e, const std::vector<std::uint64_t>& primes,
                 const LimbSink& result)
{
    const std::size_t length = std::size_t(e) * (f.count - 1) + 1;
    const Shares s = shares_for(devices, primes.size(), f.count, f.count, length);
    std::vector<DeviceWords> columns(static_cast<std::size_t>(devices));
    on_each_device(devices, [&](int d) { columns[std::size_t(d)] = reduce_range(f, s.a[std::size_t(d)], primes); });
    std::vector<DeviceWords> rows = to_rows(devices, columns, s, s.a);
    on_each_device(devices, [&](int d) {
        const std::vector<std::uint64_t> mine = s.primes_of(primes, d);
        DeviceWords& r = rows[std::size_t(d)];
        if (!mine.empty()) r = residue_powers(f.count, e, mine, rows_from(r, f.count));
    });
    std::vector<DeviceWords> result_columns = to_columns(devices, rows, s, primes.size());
    reconstruct_ranges(devices, result_columns, s, primes, result);
}

void magnitudes_split(int devices, const std::uint64_t* a, std::size_t limbs_a, std::size_t chunks_a,
                      const std::uint64_t* b, std::size_t limbs_b, std::size_t chunks_b, unsigned chunk_bits,
                      const std::vector<std::uint64_t>& primes, std::size_t words, std::uint64_t* summed_out)
{
    // A range starts on a word boundary when its first chunk times chunk_bits is a multiple of 64.
    const std::size_t align = 64 / std::gcd<std::size_t>(chunk_bits, 64);
    const std::size_t length = chunks_a + chunks_b - 1, k = primes.size();
    const Shares s = shares_for(devices, k, chunks_a, chunks_b, length, align);
    // Step 1 for a magnitude: the limbs under the device's chunks uploaded and cut into chunks.
    auto reduce_chunk_range = [&](const std::uint64_t* limbs, std::size_t limb_count, split::Range r) {
        const std::size_t first_limb = r.begin * chunk_bits / 64;
        const std::size_t end_limb = std::min(limb_count, (r.end * chunk_bits + 63) / 64);
        DeviceWords out(k * r.size());
        if (r.size() == 0 || end_limb <= first_limb) {
            out.fill_zero();
            return out;
        }
        const DeviceWords part(limbs + first_limb, end_limb - first_limb);
        const DeviceReductionPrimes reduction(primes);
        in_grid_rows(k, [&](std::size_t first, std::size_t rows) {
            launch_reduce_chunks(part, r.size(), chunk_bits, reduction.from(first), rows, out.data() + first * r.size());
        });
        return out;
    };
    std::vector<DeviceWords> products = products_on_devices(
        devices, chunks_a, chunks_b, s, primes,
        [&](int d) { return reduce_chunk_range(a, limbs_a, s.a[std::size_t(d)]); },
        [&](int d) { return reduce_chunk_range(b, limbs_b, s.b[std::size_t(d)]); });
    std::vector<DeviceWords> columns = to_columns(devices, products, s, k);
    // Step 3: every range's limbs, then all of them on device 0 for the sums.
    std::vector<DeviceWords> limbs(static_cast<std::size_t>(devices));
    std::vector<std::size_t> widths(std::size_t(devices), 0);
    on_each_device(devices, [&](int d) {
        if (s.result[std::size_t(d)].size() == 0) return;
        DeviceWords32 negative;
        reconstruct_on_device(columns[std::size_t(d)], s.result[std::size_t(d)].size(), primes, limbs[std::size_t(d)],
                              negative, widths[std::size_t(d)]);
        columns[std::size_t(d)] = DeviceWords();
    });
    const std::size_t width = *std::max_element(widths.begin(), widths.end());  // the same wherever it was set
    std::vector<DeviceWords> gathered(static_cast<std::size_t>(devices));
    {
        OnDevice on(0);
        gathered[0] = DeviceWords(width * length);
    }
    exchange_blocks(pointers(limbs), pointers(gathered), [&](int from, int to) {
        return to == 0 ? split::gather_columns(width, s.result, from) : split::Block{};
    });
    limbs.clear();
    {
        OnDevice on(0);
        sum_words_to_host(gathered[0], length, width, chunk_bits, words, summed_out);
    }
    record_split(s.prime_counts());
}

}  // namespace detail
}  // namespace cas::gpu
