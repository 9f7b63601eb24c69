// How a multi-modular operation is shared among several GPUs, as plain geometry (host code, no
// CUDA): the primes each device computes with, the coefficient ranges each device reduces and
// reconstructs, and the blocks of residue matrices that move between devices in the two
// exchanges. gpu/crt_split.cu moves these blocks with NCCL; the CPU's tests move them with
// move_block, so that the split's arithmetic is checked on machines without GPUs.
//
// Layouts: a residue matrix is row-major, one row a prime.
//   by columns: device d holds every prime's row for its coefficient range C_d: k x |C_d|;
//   by rows:    device d holds its primes' rows P_d for every coefficient: |P_d| x N.
// An operation reduces its operands by columns (each device the coefficients it uploaded),
// exchanges them to rows (each device then has whole residue polynomials for its primes),
// computes its primes' products, and exchanges them back to columns (each device then has every
// prime's residue of the coefficients it reconstructs).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace cas::gpu::split {

struct Range {
    std::size_t begin = 0, end = 0;
    std::size_t size() const { return end - begin; }
    bool operator==(const Range& other) const { return begin == other.begin && end == other.end; }
};

// [0, count) as weights.size() consecutive ranges whose sizes follow the weights (each weight
// positive): range i ends at the multiple of `align` nearest to count * (w_0 + ... + w_i) / W,
// the last one at count (none past it). Ranges may be empty when count is small.
inline std::vector<Range> by_weights(std::size_t count, const std::vector<double>& weights, std::size_t align = 1)
{
    if (weights.empty()) throw std::invalid_argument("split::by_weights: no weights");
    align = std::max<std::size_t>(align, 1);
    const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
    std::vector<Range> ranges(weights.size());
    double reached = 0;
    std::size_t begin = 0;
    for (std::size_t i = 0; i < weights.size(); ++i) {
        reached += weights[i];
        std::size_t end = count;
        if (i + 1 < weights.size()) {
            const double exact = double(count) * reached / total;
            end = std::size_t(std::llround(exact / double(align))) * align;
            end = std::clamp(end, begin, count);
        }
        ranges[i] = {begin, end};
        begin = end;
    }
    return ranges;
}

// `rows` rows of `columns` words copied from one device's matrix to another's: row r read at
// from_offset + r * from_pitch, written at to_offset + r * to_pitch (offsets in words).
struct Block {
    std::size_t from_offset = 0, from_pitch = 0, to_offset = 0, to_pitch = 0, rows = 0, columns = 0;
    std::size_t words() const { return rows * columns; }
    bool reads_contiguous() const { return from_pitch == columns || rows <= 1; }
    bool writes_contiguous() const { return to_pitch == columns || rows <= 1; }
};

// By columns to by rows (see the top of the file): the block device `from` sends device `to`,
// rows P_to of from's k x |C_from| matrix into columns C_from of to's |P_to| x N matrix.
inline Block columns_to_rows(const std::vector<Range>& primes, const std::vector<Range>& columns, int from, int to)
{
    const Range p = primes[std::size_t(to)], c = columns[std::size_t(from)];
    return {p.begin * c.size(), c.size(), c.begin, columns.back().end, p.size(), c.size()};
}

// By rows to by columns: the block device `from` sends device `to`, columns C_to of from's
// |P_from| x N matrix into rows P_from of to's k x |C_to| matrix.
inline Block rows_to_columns(const std::vector<Range>& primes, const std::vector<Range>& columns, int from, int to)
{
    const Range p = primes[std::size_t(from)], c = columns[std::size_t(to)];
    return {c.begin, columns.back().end, p.begin * c.size(), c.size(), p.size(), c.size()};
}

// Gathering columns: device `from`'s rows x |C_from| matrix into columns C_from of a rows x N
// matrix on one device (the limbs of every coefficient, for a step that needs all of them).
inline Block gather_columns(std::size_t rows, const std::vector<Range>& columns, int from)
{
    const Range c = columns[std::size_t(from)];
    return {0, c.size(), c.begin, columns.back().end, rows, c.size()};
}

// The four-step transform's all-to-alls (gpu/ntt_split.cu) move parts of a matrix of `width`
// columns held by ranges of its rows to ranges of its columns: device `from` holds rows R_from,
// |R_from| x width; device `to` takes columns C_to of every row, height x |C_to| (row i in row i).
inline Block rows_to_column_ranges(const std::vector<Range>& rows, const std::vector<Range>& columns, std::size_t width,
                                   int from, int to)
{
    const Range r = rows[std::size_t(from)], c = columns[std::size_t(to)];
    return {c.begin, width, r.begin * c.size(), c.size(), r.size(), c.size()};
}

// The block's words copied on the host: what the devices' exchanges do, for the CPU's tests.
inline void move_block(const std::uint64_t* from, std::uint64_t* to, const Block& b)
{
    for (std::size_t r = 0; r < b.rows; ++r)
        std::copy_n(from + b.from_offset + r * b.from_pitch, b.columns, to + b.to_offset + r * b.to_pitch);
}

}  // namespace cas::gpu::split
