// One long transform modulo p by the four-step decomposition, on a team of devices (gpu/ntt.hpp,
// forward_into): n = n1 n2 and the input read as the n1 x n2 matrix M[j1][j2] = x[n2 j1 + j2].
//   1. each device uploads a range of M's rows (contiguous words) and an all-to-all leaves it a
//      range of M's columns j2, every row;
//   2. it transforms each of its columns (length n1, root w^n2) and multiplies entry k1 of column
//      j2 by w^(j2 k1);
//   3. an all-to-all leaves it every column's entries of a range of rows k1, which it transforms
//      along j2 (length n2, root w^n1): X[k1 + n1 k2];
//   4. a last all-to-all leaves it a range of k2, every k1: rows of the output read as the n2 x n1
//      matrix X[n1 k2 + k1], which it downloads (contiguous words).
// The host's copies are contiguous and go through the pinned buffers; the all-to-alls run on the
// devices' links (NCCL). The inverse runs the engine's inverse transforms (each with its
// 1/length) and w^-(j2 k1). Every transform is a batch of vectors of at most 2^30 words, so one
// device takes lengths past the 2^30 of a single transform, and several devices share the work
// and the memory.
#include "gpu/detail.cuh"
#include "gpu/devices.cuh"
#include "gpu/split_plan.hpp"

#include <algorithm>

namespace cas::gpu::detail {

namespace {

constexpr unsigned tile = 32;

// out (columns x rows) = the transpose of in (rows x columns), both row-major; 32 x 32 tiles
// through shared memory, so that reads and writes are both coalesced.
__global__ void transpose_kernel(const std::uint64_t* in, std::uint64_t* out, std::size_t rows, std::size_t columns)
{
    __shared__ std::uint64_t t[tile][tile + 1];
    const std::size_t row_tiles = (rows + tile - 1) / tile;
    const std::size_t c0 = std::size_t(blockIdx.x) * tile;
    for (std::size_t ty = blockIdx.y; ty < row_tiles; ty += gridDim.y) {
        const std::size_t r0 = ty * tile;
        for (unsigned i = threadIdx.y; i < tile; i += blockDim.y) {
            const std::size_t r = r0 + i, c = c0 + threadIdx.x;
            if (r < rows && c < columns) t[i][threadIdx.x] = in[r * columns + c];
        }
        __syncthreads();
        for (unsigned i = threadIdx.y; i < tile; i += blockDim.y) {
            const std::size_t c = c0 + i, r = r0 + threadIdx.x;
            if (c < columns && r < rows) out[c * rows + r] = t[threadIdx.x][i];
        }
        __syncthreads();
    }
}

DeviceWords transposed(const DeviceWords& in, std::size_t rows, std::size_t columns)
{
    DeviceWords out(rows * columns);
    if (rows * columns == 0) return out;
    const dim3 block(tile, 8);
    const dim3 grid(unsigned((columns + tile - 1) / tile), unsigned(std::min<std::size_t>((rows + tile - 1) / tile, 65535)));
    transpose_kernel<<<grid, block, 0, stream()>>>(in.data(), out.data(), rows, columns);
    check_launch("transpose_kernel");
    return out;
}

// A height x width matrix replaced by its transpose, whose rows (its columns, `height` words each)
// are then transformed at root.
void transform_columns(DeviceWords& m, std::size_t height, std::size_t width, std::uint64_t p, std::uint64_t root,
                       bool inverse)
{
    m = transposed(m, height, width);
    transform(m.data(), height, width, p, root, inverse, Algorithm::fast);
}

// Entry (r, k1) of a rows x n1 matrix whose row r is column j2 = first + r of the whole: times
// base^(j2 k1) mod p, the power from two tables, base^e = high[e >> low_bits] low[e & low_mask]
// with e = j2 k1 mod n.
__global__ void twiddle_kernel(std::uint64_t* data, std::size_t rows, unsigned log_n1, std::size_t first,
                               std::size_t n_mask, const std::uint64_t* low, const std::uint64_t* high,
                               unsigned low_bits, Modulus<std::uint64_t> m)
{
    const std::size_t count = rows << log_n1, low_mask = (std::size_t(1) << low_bits) - 1;
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
         i += std::size_t(gridDim.x) * blockDim.x) {
        const std::size_t j2 = first + (i >> log_n1), k1 = i & ((std::size_t(1) << log_n1) - 1);
        const std::size_t e = (j2 * k1) & n_mask;
        data[i] = mul_mod(data[i], mul_mod(high[e >> low_bits], low[e & low_mask], m), m);
    }
}

// base^0 .. base^(count - 1) mod p.
std::vector<std::uint64_t> powers(std::uint64_t base, std::size_t count, std::uint64_t p)
{
    std::vector<std::uint64_t> out(count);
    std::uint64_t x = 1;
    for (std::uint64_t& v : out) {
        v = x;
        x = cas::gpu::mul_mod(x, base, p);
    }
    return out;
}

int log2_of(std::size_t n)
{
    int k = 0;
    while ((std::size_t(1) << k) < n) ++k;
    return k;
}

// Each device's part of a matrix of `width` columns held by row ranges `rows`, moved so that
// each device holds the column range `columns` of every row (height x |columns_d|).
std::vector<DeviceWords> to_column_ranges(const Team& team, std::vector<DeviceWords>& parts,
                                          const std::vector<split::Range>& rows,
                                          const std::vector<split::Range>& columns, std::size_t width)
{
    const std::size_t height = rows.back().end;
    std::vector<DeviceWords> moved =
        arrays_on_members(team, [&](int d) { return height * columns[std::size_t(d)].size(); });
    exchange_blocks(team, pointers(parts), pointers(moved),
                    [&](int from, int to) { return split::rows_to_column_ranges(rows, columns, width, from, to); });
    parts.clear();
    return moved;
}

}  // namespace

void four_step_transform(const Team& team, const std::uint64_t* in, std::uint64_t* out, std::size_t n,
                         std::uint64_t p, std::uint64_t w, bool inverse)
{
    const int k = log2_of(n);
    if (k < 2 || (std::size_t(1) << k) != n) throw Error("four-step transform: n must be a power of two >= 4");
    const unsigned log_n1 = unsigned(k / 2), low_bits = unsigned((k + 1) / 2);
    const std::size_t n1 = std::size_t(1) << log_n1, n2 = n / n1;
    // rows_j1 and columns_j2 of M; rows_k1 and columns_k2 of the output's n2 x n1 reading
    const std::vector<split::Range> rows_j1 = split::by_weights(n1, team.speeds),
                                    columns_j2 = split::by_weights(n2, team.speeds),
                                    rows_k1 = split::by_weights(n1, team.speeds),
                                    rows_k2 = split::by_weights(n2, team.speeds);
    const std::uint64_t base = inverse ? cas::gpu::pow_mod(w, n - 1, p) : w;
    const std::vector<std::uint64_t> low = powers(base, std::size_t(1) << low_bits, p),
                                     high = powers(cas::gpu::pow_mod(base, std::size_t(1) << low_bits, p),
                                                   n >> low_bits, p);

    // Step 1: rows of M uploaded, then columns.
    std::vector<DeviceWords> parts(std::size_t(team.size));
    on_each_member(team, [&](int d) {
        const split::Range r = rows_j1[std::size_t(d)];
        parts[std::size_t(d)] = DeviceWords(in + r.begin * n2, r.size() * n2);
    });
    std::vector<DeviceWords> columns = to_column_ranges(team, parts, rows_j1, columns_j2, n2);

    // Step 2: each column j2 as a row, transformed and twiddled: |columns_j2| x n1.
    on_each_member(team, [&](int d) {
        const split::Range c = columns_j2[std::size_t(d)];
        DeviceWords& mine = columns[std::size_t(d)];
        if (c.size() == 0) return;
        transform_columns(mine, n1, c.size(), p, cas::gpu::pow_mod(w, n2, p), inverse);
        const DeviceWords low_table(low), high_table(high);
        twiddle_kernel<<<grid_for(n1 * c.size(), 256), 256, 0, stream()>>>(
            mine.data(), c.size(), log_n1, c.begin, n - 1, low_table.data(), high_table.data(), low_bits,
            make_modulus<std::uint64_t>(p));
        check_launch("twiddle_kernel");
    });

    // Step 3: every column's entries k1 of each device's rows (n2 x |rows_k1|), transformed as rows:
    // |rows_k1| x n2, entry (k1, k2) = X[k1 + n1 k2].
    std::vector<DeviceWords> spectra = to_column_ranges(team, columns, columns_j2, rows_k1, n1);
    on_each_member(team, [&](int d) {
        const split::Range r = rows_k1[std::size_t(d)];
        if (r.size() != 0) transform_columns(spectra[std::size_t(d)], n2, r.size(), p, cas::gpu::pow_mod(w, n1, p), inverse);
    });

    // Step 4: each device's rows k2 of the n2 x n1 output, downloaded.
    std::vector<DeviceWords> outputs = to_column_ranges(team, spectra, rows_k1, rows_k2, n2);
    on_each_member(team, [&](int d) {
        const split::Range r = rows_k2[std::size_t(d)];
        if (r.size() == 0) return;
        transposed(outputs[std::size_t(d)], n1, r.size()).download(out + r.begin * n1, r.size() * n1);
        outputs[std::size_t(d)] = DeviceWords();
    });
    record_split(std::vector<std::size_t>(std::size_t(team.size), 1));
}

}  // namespace cas::gpu::detail
