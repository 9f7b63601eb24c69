// Multi-modular products, convolutions and powers shared among GPUs (gpu/crt.hpp, "several
// GPUs"): those of the host, or those of MPI ranks (gpu/ranks.cuh), the members of a Team. Each
// member:
//   1. uploads its range of the operands' coefficients and reduces it modulo every prime
//      (a k x |range| matrix by columns);
//   2. after the first exchange holds whole residue rows for its primes, and computes their
//      products (or powers, or folded products) with the one-device steps of gpu/crt.cu;
//   3. after the second exchange holds every prime's residues for its range of the result's
//      coefficients, reconstructs them (Garner) and hands them to the sink.
// Integers gather the reconstructed limbs on member 0, whose sum of the coefficients at 2^b needs
// neighbouring coefficients. The geometry is gpu/split_plan.hpp's, which the CPU's tests check.
// Across ranks the operands and the result stay with rank 0 (member 0): it uploads the other
// members' ranges of the operands and sends them, and receives their ranges of the result.
#include "gpu/crt_steps.cuh"
#include "gpu/devices.cuh"
#include "gpu/ranks.cuh"
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

Shares shares_for(const Team& team, std::size_t k, std::size_t count_a, std::size_t count_b, std::size_t result,
                  std::size_t operand_align = 1)
{
    const std::vector<double>& speeds = team.speeds;
    return {split::by_weights(k, speeds), split::by_weights(count_a, speeds, operand_align),
            split::by_weights(count_b, speeds, operand_align), split::by_weights(result, speeds)};
}

// A limb matrix on a member's device.
struct MemberLimbs {
    DeviceWords limbs;
    DeviceWords32 negative;
};

// Member 0's process uploads member d's share with upload(d, out[d]) for every d of other ranks,
// and sends it; each such member receives it into out[d] sized by allocate(d, out[d]).
template <class Upload, class Allocate>
void send_shares_from_leader(const Team& team, std::vector<MemberLimbs>& out, Upload&& upload, Allocate&& allocate)
{
    on_each_member(team, [&](int m) {
        if (m == 0)
            for (int d = 1; d < team.size; ++d) upload(d, out[std::size_t(d)]);
        else
            allocate(m, out[std::size_t(m)]);
    });
    std::vector<Move> moves;
    for (int d = 1; d < team.size; ++d) {
        MemberLimbs& share = out[std::size_t(d)];
        moves.push_back({0, d, share.limbs.data(), share.limbs.size() * sizeof(std::uint64_t)});
        moves.push_back({0, d, share.negative.data(), share.negative.size() * sizeof(std::uint32_t)});
    }
    move_between_members(team, moves);
    if (team.leads())
        for (int d = 1; d < team.size; ++d) out[std::size_t(d)] = MemberLimbs{};  // sent
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
DeviceWords residues_of_matrix(const MemberLimbs& m, std::size_t count, std::size_t width,
                               const std::vector<std::uint64_t>& primes)
{
    const std::size_t k = primes.size();
    DeviceWords out(k * count);
    if (count == 0) return out;
    const DeviceReductionPrimes reduction(primes);
    in_grid_rows(k, [&](std::size_t first, std::size_t rows) {
        launch_reduce_matrix(m.limbs, m.negative, count, width, reduction.from(first), rows, out.data() + first * count);
    });
    return out;
}

// Step 1 for a Z[x] operand: each member's range of its coefficients reduced modulo every prime.
// In one process each member uploads its own range; across ranks rank 0 uploads the others'
// ranges too and sends them.
std::vector<DeviceWords> reduce_ranges(const Team& team, const LimbSource& source,
                                       const std::vector<split::Range>& ranges, const std::vector<std::uint64_t>& primes)
{
    std::vector<MemberLimbs> limbs(std::size_t(team.size));
    auto upload = [&](int d, MemberLimbs& out) {
        if (ranges[std::size_t(d)].size() != 0) upload_source(range_of(source, ranges[std::size_t(d)]), out.limbs, out.negative);
    };
    if (team.across_ranks) {
        if (team.leads()) upload(0, limbs[0]);
        send_shares_from_leader(team, limbs, upload, [&](int d, MemberLimbs& out) {
            const std::size_t count = ranges[std::size_t(d)].size();
            out = {DeviceWords(source.width * count), DeviceWords32(count)};
        });
    }
    std::vector<DeviceWords> residues(std::size_t(team.size));
    on_each_member(team, [&](int d) {
        if (!team.across_ranks) upload(d, limbs[std::size_t(d)]);
        residues[std::size_t(d)] = residues_of_matrix(limbs[std::size_t(d)], ranges[std::size_t(d)].size(), source.width, primes);
        limbs[std::size_t(d)] = MemberLimbs{};
    });
    return residues;
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

// The first exchange: by columns (ranges) to whole rows for each member's primes.
std::vector<DeviceWords> to_rows(const Team& team, std::vector<DeviceWords>& columns, const Shares& s,
                                 const std::vector<split::Range>& ranges)
{
    const std::size_t count = ranges.back().end;
    std::vector<DeviceWords> rows =
        arrays_on_members(team, [&](int d) { return s.primes[std::size_t(d)].size() * count; });
    exchange_blocks(team, pointers(columns), pointers(rows),
                    [&](int from, int to) { return split::columns_to_rows(s.primes, ranges, from, to); });
    columns.clear();
    return rows;
}

// The second exchange: each member's rows (of s.result's length) to every prime's residues of
// its range of the result.
std::vector<DeviceWords> to_columns(const Team& team, std::vector<DeviceWords>& rows, const Shares& s, std::size_t k)
{
    std::vector<DeviceWords> columns =
        arrays_on_members(team, [&](int d) { return k * s.result[std::size_t(d)].size(); });
    exchange_blocks(team, pointers(rows), pointers(columns),
                    [&](int from, int to) { return split::rows_to_columns(s.primes, s.result, from, to); });
    rows.clear();
    return columns;
}

// The limbs of every reconstructed coefficient (those of the primes' product).
std::size_t reconstructed_width(const std::vector<std::uint64_t>& primes) { return crt::GarnerTables(primes).width(); }

// The sink, for coefficients that start at `first` of the result.
LimbSink sink_at(const LimbSink& sink, std::size_t first, std::mutex* one_at_a_time = nullptr)
{
    return [&sink, first, one_at_a_time](const ConstLimbBlock& block) {
        ConstLimbBlock placed = block;
        placed.first += first;
        if (!one_at_a_time) return sink(placed);
        std::lock_guard<std::mutex> guard(*one_at_a_time);
        sink(placed);
    };
}

// Step 3: each member's range of the result reconstructed and handed to the sink: by each
// device in one process (one call at a time), by rank 0 across ranks, the others' ranges sent to
// it first.
void reconstruct_ranges(const Team& team, std::vector<DeviceWords>& columns, const Shares& s,
                        const std::vector<std::uint64_t>& primes, const LimbSink& sink)
{
    std::mutex one_at_a_time;
    std::vector<MemberLimbs> results(std::size_t(team.size));
    on_each_member(team, [&](int d) {
        const split::Range r = s.result[std::size_t(d)];
        if (r.size() == 0) return;
        MemberLimbs& mine = results[std::size_t(d)];
        std::size_t width = 0;
        reconstruct_on_device(columns[std::size_t(d)], r.size(), primes, mine.limbs, mine.negative, width);
        columns[std::size_t(d)] = DeviceWords();
        if (!team.across_ranks || d == 0) download_to_sink(mine.limbs, mine.negative, r.size(), width, sink_at(sink, r.begin, &one_at_a_time));
    });
    if (team.across_ranks) {
        const std::size_t width = reconstructed_width(primes);
        std::vector<Move> moves;
        if (team.leads()) {
            OnDevice on(team.device_of(0));
            for (int d = 1; d < team.size; ++d) {
                const std::size_t count = s.result[std::size_t(d)].size();
                results[std::size_t(d)] = {DeviceWords(width * count), DeviceWords32(count)};
            }
        }
        for (int d = 1; d < team.size; ++d) {
            MemberLimbs& share = results[std::size_t(d)];
            moves.push_back({d, 0, share.limbs.data(), share.limbs.size() * sizeof(std::uint64_t)});
            moves.push_back({d, 0, share.negative.data(), share.negative.size() * sizeof(std::uint32_t)});
        }
        move_between_members(team, moves);
        if (team.leads()) {
            OnDevice on(team.device_of(0));
            for (int d = 1; d < team.size; ++d) {
                const split::Range r = s.result[std::size_t(d)];
                if (r.size() != 0)
                    download_to_sink(results[std::size_t(d)].limbs, results[std::size_t(d)].negative, r.size(), width,
                                     sink_at(sink, r.begin));
            }
        }
    }
    record_split(s.prime_counts());
}

// Steps 1 and 2 of a product: each member's residue products for its primes, rows of
// count_a + count_b - 1 words.
std::vector<DeviceWords> products_on_members(const Team& team, std::size_t count_a, std::size_t count_b, const Shares& s,
                                             const std::vector<std::uint64_t>& primes, std::vector<DeviceWords> columns_a,
                                             std::vector<DeviceWords> columns_b)
{
    std::vector<DeviceWords> rows_a = to_rows(team, columns_a, s, s.a), rows_b = to_rows(team, columns_b, s, s.b);
    std::vector<DeviceWords> products(std::size_t(team.size));
    on_each_member(team, [&](int d) {
        const std::vector<std::uint64_t> mine = s.primes_of(primes, d);
        if (!mine.empty())
            products[std::size_t(d)] = residue_products(count_a, count_b, mine, rows_from(rows_a[std::size_t(d)], count_a),
                                                        rows_from(rows_b[std::size_t(d)], count_b));
        rows_a[std::size_t(d)] = DeviceWords();
        rows_b[std::size_t(d)] = DeviceWords();
    });
    return products;
}

SharedCall call_for(SharedKind kind, const LimbSource& a, const LimbSource& b)
{
    SharedCall call;
    call.kind = kind;
    call.count_a = a.count;
    call.width_a = a.width;
    call.count_b = b.count;
    call.width_b = b.width;
    return call;
}

}  // namespace

Team split_team(std::size_t words, std::size_t k)
{
    if (k < 2 || words < split_threshold()) return Team{};
    // two primes a GPU at least: integers of 10^9 bits take 3 primes, and 2 + 1 on two GPUs
    // took as long as 3 on one (docs/measurements.md, "Multi-modular products on two GPUs")
    const std::size_t most = split_threshold() == 0 ? k : k / 2;
    if (const int ranks = sharing_rank_count(); ranks > 1) {
        const int size = int(std::min<std::size_t>(std::size_t(ranks), most));
        return size > 1 ? team_of_ranks(size) : Team{};
    }
    const int devices = int(std::min<std::size_t>(std::size_t(device_count()), most));
    if (devices < 2 || !devices_can_exchange()) return Team{};
    return team_of_devices(devices);
}

void multiply_split(const Team& team, const LimbSource& a, const LimbSource& b, const std::vector<std::uint64_t>& primes,
                    const LimbSink& result)
{
    run_shared(team, call_for(SharedKind::multiply, a, b), primes, [&] {
        const Shares s = shares_for(team, primes.size(), a.count, b.count, a.count + b.count - 1);
        std::vector<DeviceWords> products = products_on_members(team, a.count, b.count, s, primes,
                                                                reduce_ranges(team, a, s.a, primes),
                                                                reduce_ranges(team, b, s.b, primes));
        std::vector<DeviceWords> columns = to_columns(team, products, s, primes.size());
        reconstruct_ranges(team, columns, s, primes, result);
    });
}

void convolve_split(const Team& team, const LimbSource& a, const LimbSource& b, std::size_t n, bool negacyclic,
                    const std::vector<std::uint64_t>& primes, const LimbSink& result)
{
    SharedCall call = call_for(SharedKind::convolve, a, b);
    call.n = n;
    call.negacyclic = negacyclic ? 1 : 0;
    run_shared(team, call, primes, [&] {
        const std::size_t length = a.count + b.count - 1;
        const Shares s = shares_for(team, primes.size(), a.count, b.count, n);
        std::vector<DeviceWords> products = products_on_members(team, a.count, b.count, s, primes,
                                                                reduce_ranges(team, a, s.a, primes),
                                                                reduce_ranges(team, b, s.b, primes));
        on_each_member(team, [&](int d) {
            DeviceWords& rows = products[std::size_t(d)];
            if (!rows.empty()) rows = fold_residue_rows(rows, length, n, negacyclic, s.primes_of(primes, d));
        });
        std::vector<DeviceWords> columns = to_columns(team, products, s, primes.size());
        reconstruct_ranges(team, columns, s, primes, result);
    });
}

void power_split(const Team& team, const LimbSource& f, std::uint64_t e, const std::vector<std::uint64_t>& primes,
                 const LimbSink& result)
{
    SharedCall call = call_for(SharedKind::power, f, f);
    call.e = e;
    run_shared(team, call, primes, [&] {
        const std::size_t length = std::size_t(e) * (f.count - 1) + 1;
        const Shares s = shares_for(team, primes.size(), f.count, f.count, length);
        std::vector<DeviceWords> columns = reduce_ranges(team, f, s.a, primes);
        std::vector<DeviceWords> rows = to_rows(team, columns, s, s.a);
        on_each_member(team, [&](int d) {
            const std::vector<std::uint64_t> mine = s.primes_of(primes, d);
            DeviceWords& r = rows[std::size_t(d)];
            if (!mine.empty()) r = residue_powers(f.count, e, mine, rows_from(r, f.count));
        });
        std::vector<DeviceWords> result_columns = to_columns(team, rows, s, primes.size());
        reconstruct_ranges(team, result_columns, s, primes, result);
    });
}

namespace {
// Step 1 for a magnitude: each member's chunks [r.begin, r.end) of `chunk_bits` bits modulo
// every prime, from the limbs under them (uploaded as reduce_ranges does).
std::vector<DeviceWords> reduce_chunk_ranges(const Team& team, const std::uint64_t* limbs, std::size_t limb_count,
                                             const std::vector<split::Range>& ranges, unsigned chunk_bits,
                                             const std::vector<std::uint64_t>& primes)
{
    auto limbs_under = [&](int d) {
        const split::Range r = ranges[std::size_t(d)];
        const std::size_t first = r.begin * chunk_bits / 64;
        const std::size_t end = std::min(limb_count, (r.end * chunk_bits + 63) / 64);
        return split::Range{first, std::max(first, end)};
    };
    std::vector<MemberLimbs> parts(std::size_t(team.size));
    auto upload = [&](int d, MemberLimbs& out) {
        const split::Range under = limbs_under(d);
        if (ranges[std::size_t(d)].size() != 0 && under.size() != 0) out.limbs = DeviceWords(limbs + under.begin, under.size());
    };
    if (team.across_ranks) {
        if (team.leads()) upload(0, parts[0]);
        send_shares_from_leader(team, parts, upload, [&](int d, MemberLimbs& out) {
            if (ranges[std::size_t(d)].size() != 0) out.limbs = DeviceWords(limbs_under(d).size());
        });
    }
    const std::size_t k = primes.size();
    std::vector<DeviceWords> residues(std::size_t(team.size));
    on_each_member(team, [&](int d) {
        if (!team.across_ranks) upload(d, parts[std::size_t(d)]);
        const std::size_t count = ranges[std::size_t(d)].size();
        DeviceWords& out = residues[std::size_t(d)];
        out = DeviceWords(k * count);
        const DeviceWords& part = parts[std::size_t(d)].limbs;
        if (count == 0 || part.empty()) return out.fill_zero();
        const DeviceReductionPrimes reduction(primes);
        in_grid_rows(k, [&](std::size_t first, std::size_t rows) {
            launch_reduce_chunks(part, count, chunk_bits, reduction.from(first), rows, out.data() + first * count);
        });
        parts[std::size_t(d)] = MemberLimbs{};
    });
    return residues;
}
}  // namespace

void magnitudes_split(const Team& team, const std::uint64_t* a, std::size_t limbs_a, std::size_t chunks_a,
                      const std::uint64_t* b, std::size_t limbs_b, std::size_t chunks_b, unsigned chunk_bits,
                      const std::vector<std::uint64_t>& primes, std::size_t words, std::uint64_t* summed_out)
{
    SharedCall call;
    call.kind = SharedKind::magnitudes;
    call.count_a = chunks_a;
    call.width_a = limbs_a;
    call.count_b = chunks_b;
    call.width_b = limbs_b;
    call.chunk_bits = chunk_bits;
    call.words = words;
    run_shared(team, call, primes, [&] {
        // A range starts on a word boundary when its first chunk times chunk_bits is a multiple of 64.
        const std::size_t align = 64 / std::gcd<std::size_t>(chunk_bits, 64);
        const std::size_t length = chunks_a + chunks_b - 1, k = primes.size();
        const Shares s = shares_for(team, k, chunks_a, chunks_b, length, align);
        std::vector<DeviceWords> products =
            products_on_members(team, chunks_a, chunks_b, s, primes, reduce_chunk_ranges(team, a, limbs_a, s.a, chunk_bits, primes),
                                reduce_chunk_ranges(team, b, limbs_b, s.b, chunk_bits, primes));
        std::vector<DeviceWords> columns = to_columns(team, products, s, k);
        // Step 3: every range's limbs, then all of them on member 0 for the sums.
        const std::size_t width = reconstructed_width(primes);
        std::vector<DeviceWords> limbs(std::size_t(team.size));
        on_each_member(team, [&](int d) {
            if (s.result[std::size_t(d)].size() == 0) return;
            DeviceWords32 negative;
            std::size_t reconstructed = 0;
            reconstruct_on_device(columns[std::size_t(d)], s.result[std::size_t(d)].size(), primes,
                                  limbs[std::size_t(d)], negative, reconstructed);
            columns[std::size_t(d)] = DeviceWords();
        });
        std::vector<DeviceWords> gathered =
            arrays_on_members(team, [&](int d) { return d == 0 ? width * length : std::size_t(0); });
        exchange_blocks(team, pointers(limbs), pointers(gathered), [&](int from, int to) {
            return to == 0 ? split::gather_columns(width, s.result, from) : split::Block{};
        });
        limbs.clear();
        if (team.leads()) {
            OnDevice on(team.device_of(0));
            sum_words_to_host(gathered[0], length, width, chunk_bits, words, summed_out);
        }
        record_split(s.prime_counts());
    });
}

void run_announced(const Team& team, const SharedCall& c, const std::vector<std::uint64_t>& primes)
{
    const LimbSource a{c.count_a, c.width_a, {}}, b{c.count_b, c.width_b, {}};
    switch (c.kind) {
    case SharedKind::multiply: return multiply_split(team, a, b, primes, {});
    case SharedKind::convolve: return convolve_split(team, a, b, c.n, c.negacyclic != 0, primes, {});
    case SharedKind::power: return power_split(team, a, c.e, primes, {});
    case SharedKind::magnitudes:
        return magnitudes_split(team, nullptr, c.width_a, c.count_a, nullptr, c.width_b, c.count_b, c.chunk_bits,
                                primes, c.words, nullptr);
    case SharedKind::resultants: return resultants_split(team, a, b, primes, nullptr);
    case SharedKind::stop: return;
    }
}

}  // namespace detail
}  // namespace cas::gpu
