// The geometry of a multi-modular product shared among several GPUs (gpu/split_plan.hpp), checked
// without GPUs: the ranges, the two exchanges as blocks moved between host matrices, and a whole
// split product run on the host with the kernels' word-level bodies (gpu/crt_words.hpp) and FLINT's
// products modulo each prime, against fmpz_poly_mul, for several device counts and speeds. A wrong
// offset, pitch or range in the plan gives a wrong product here.
#include "flint_support.hpp"

#include "algebra/multimodular/multimodular.hpp"
#include "gpu/crt_words.hpp"
#include "gpu/split_plan.hpp"

#include <catch2/catch.hpp>
#include <flint/fmpz_poly.h>
#include <flint/nmod_poly.h>

#include <numeric>
#include <vector>

namespace {

using cas::gpu::split::Block;
using cas::gpu::split::Range;
namespace split = cas::gpu::split;
using Words = std::vector<ulong>;

// Ranges that tile [0, count) in order.
void require_tiling(const std::vector<Range>& ranges, size_t count) {
  size_t next = 0;
  for (const Range& r : ranges) {
    REQUIRE(r.begin == next);
    REQUIRE(r.end >= r.begin);
    next = r.end;
  }
  REQUIRE(next == count);
}

// Device speeds to split with: equal, uneven, and one device much slower.
std::vector<std::vector<double>> speed_sets() {
  return {{1, 1}, {1, 1, 1}, {3, 1}, {1, 2, 5}, {1, 1, 1, 1, 1}, {132, 114}};
}

TEST_CASE("split: ranges tile the count in proportion to the weights", "[split]") {
  for (const std::vector<double>& weights : speed_sets()) {
    const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
    for (size_t count : {size_t{0}, size_t{1}, size_t{2}, size_t{7}, size_t{1000}, size_t{1} << 20}) {
      for (size_t align : {size_t{1}, size_t{8}, size_t{64}}) {
        INFO("count " << count << ", align " << align << ", devices " << weights.size());
        const std::vector<Range> ranges = split::by_weights(count, weights, align);
        REQUIRE(ranges.size() == weights.size());
        require_tiling(ranges, count);
        double reached = 0;
        for (size_t i = 0; i + 1 < ranges.size(); i++) {
          reached += weights[i];
          REQUIRE((ranges[i].end % align == 0 || ranges[i].end == count));
          // each boundary within half an alignment step of its exact place (or at the end)
          const double exact = double(count) * reached / total;
          if (ranges[i].end != count) REQUIRE(std::abs(double(ranges[i].end) - exact) <= double(align) / 2 + 1e-9);
        }
      }
    }
  }
  CHECK(split::by_weights(10, {1, 1}) == std::vector<Range>{{0, 5}, {5, 10}});
  CHECK(split::by_weights(12, {3, 1}) == std::vector<Range>{{0, 9}, {9, 12}});
  CHECK_THROWS(split::by_weights(10, {}));
}

// A k x n matrix of distinct words (row j, column i: j n + i + 1).
Words numbered(size_t k, size_t n) {
  Words m(k * n);
  std::iota(m.begin(), m.end(), ulong{1});
  return m;
}

// matrices[d] = columns C_d of m (k x n), by columns (k x |C_d|).
std::vector<Words> by_columns(const Words& m, size_t k, size_t n, const std::vector<Range>& columns) {
  std::vector<Words> out;
  for (const Range& c : columns) {
    Words part(k * c.size());
    for (size_t j = 0; j < k; j++)
      for (size_t i = c.begin; i < c.end; i++) part[j * c.size() + (i - c.begin)] = m[j * n + i];
    out.push_back(part);
  }
  return out;
}

// Every block(from, to) moved between host matrices, as exchange_blocks moves them between devices.
template <class BlockOf>
void exchange(const std::vector<Words>& from, std::vector<Words>& to, BlockOf&& block) {
  for (size_t d = 0; d < from.size(); d++)
    for (size_t e = 0; e < to.size(); e++) {
      const Block b = block(int(d), int(e));
      if (b.words() == 0) continue;
      REQUIRE(b.from_offset + (b.rows - 1) * b.from_pitch + b.columns <= from[d].size());
      REQUIRE(b.to_offset + (b.rows - 1) * b.to_pitch + b.columns <= to[e].size());
      split::move_block(from[d].data(), to[e].data(), b);
    }
}

TEST_CASE("split: columns to rows and back move every residue to its place", "[split]") {
  for (const std::vector<double>& weights : speed_sets()) {
    for (size_t n : {size_t{5}, size_t{64}, size_t{1001}}) {
      const size_t k = 13;
      INFO("devices " << weights.size() << ", n " << n);
      // the result's ranges differ from the operands' (reversed weights), as they do in a product
      const std::vector<Range> primes = split::by_weights(k, weights), in = split::by_weights(n, weights, 8),
                               out = split::by_weights(n, std::vector<double>(weights.rbegin(), weights.rend()));
      const Words m = numbered(k, n);
      const std::vector<Words> columns = by_columns(m, k, n, in);
      std::vector<Words> rows;
      for (const Range& p : primes) rows.emplace_back(p.size() * n, 0);
      exchange(columns, rows, [&](int from, int to) { return split::columns_to_rows(primes, in, from, to); });
      for (size_t e = 0; e < rows.size(); e++)
        REQUIRE(rows[e] == Words(m.begin() + long(primes[e].begin * n), m.begin() + long(primes[e].end * n)));
      std::vector<Words> back;
      for (const Range& c : out) back.emplace_back(k * c.size(), 0);
      exchange(rows, back, [&](int from, int to) { return split::rows_to_columns(primes, out, from, to); });
      REQUIRE(back == by_columns(m, k, n, out));
      Words gathered(k * n, 0);
      for (size_t d = 0; d < back.size(); d++) split::move_block(back[d].data(), gathered.data(), split::gather_columns(k, out, int(d)));
      REQUIRE(gathered == m);
    }
  }
}

// x's DFT of length n at w modulo p, by its definition.
Words dft(const Words& x, ulong w, nmod_t mod) {
  Words X(x.size(), 0);
  for (size_t k = 0; k < x.size(); k++) {
    const ulong wk = n_powmod2_ui_preinv(w, k, mod.n, mod.ninv);
    ulong power = 1;
    for (size_t j = 0; j < x.size(); j++) {
      X[k] = nmod_add(X[k], nmod_mul(x[j], power, mod), mod);
      power = nmod_mul(power, wk, mod);
    }
  }
  return X;
}

// A matrix of `width` columns held by row ranges moved to column ranges (height x |column range|),
// as gpu/ntt_split.cu's all-to-alls move it.
std::vector<Words> to_column_ranges(const std::vector<Words>& parts, const std::vector<Range>& rows,
                                    const std::vector<Range>& columns, size_t width) {
  std::vector<Words> moved;
  for (const Range& c : columns) moved.emplace_back(rows.back().end * c.size(), 0);
  exchange(parts, moved, [&](int from, int to) { return split::rows_to_column_ranges(rows, columns, width, from, to); });
  return moved;
}

// Column j (of the range c) of a height x |c| matrix.
Words column_of(const Words& m, size_t height, Range c, size_t j) {
  Words out(height);
  for (size_t i = 0; i < height; i++) out[i] = m[i * c.size() + (j - c.begin)];
  return out;
}

// The four-step transform of gpu/ntt_split.cu run on the host: each device's transforms by the
// DFT's definition, its transposes by indexing, and the three all-to-alls by
// split::rows_to_column_ranges.
Words four_step_on_host(const Words& x, size_t n1, ulong w, nmod_t mod, const std::vector<double>& weights) {
  const size_t n = x.size(), n2 = n / n1;
  const std::vector<Range> rows1 = split::by_weights(n1, weights), rows2 = split::by_weights(n2, weights);
  auto power = [&](ulong base, size_t e) { return n_powmod2_ui_preinv(base, e, mod.n, mod.ninv); };
  std::vector<Words> parts;  // step 1: rows j1 of M, then columns j2
  for (const Range& r : rows1) parts.emplace_back(x.begin() + long(r.begin * n2), x.begin() + long(r.end * n2));
  std::vector<Words> columns = to_column_ranges(parts, rows1, rows2, n2), spectra;
  for (size_t d = 0; d < rows2.size(); d++) {  // step 2: each column transformed along j1, twiddled
    Words part;
    for (size_t j2 = rows2[d].begin; j2 < rows2[d].end; j2++) {
      const Words spectrum = dft(column_of(columns[d], n1, rows2[d], j2), power(w, n2), mod);
      for (size_t k1 = 0; k1 < n1; k1++) part.push_back(nmod_mul(spectrum[k1], power(w, (j2 * k1) % n), mod));
    }
    spectra.push_back(part);
  }
  std::vector<Words> by_k1 = to_column_ranges(spectra, rows2, rows1, n1), rows_of_k1;
  for (size_t d = 0; d < rows1.size(); d++) {  // step 3: each row k1 transformed along j2
    Words part;
    for (size_t k1 = rows1[d].begin; k1 < rows1[d].end; k1++) {
      const Words spectrum = dft(column_of(by_k1[d], n2, rows1[d], k1), power(w, n1), mod);
      part.insert(part.end(), spectrum.begin(), spectrum.end());
    }
    rows_of_k1.push_back(part);
  }
  const std::vector<Words> by_k2 = to_column_ranges(rows_of_k1, rows1, rows2, n2);
  Words X(n, 0);
  for (size_t d = 0; d < rows2.size(); d++)  // step 4: rows k2 of the n2 x n1 output
    for (size_t k1 = 0; k1 < n1; k1++)
      for (size_t k2 = rows2[d].begin; k2 < rows2[d].end; k2++)
        X[n1 * k2 + k1] = by_k2[d][k1 * rows2[d].size() + (k2 - rows2[d].begin)];
  return X;
}

TEST_CASE("split: the four-step transform's all-to-alls put every entry in its place", "[split]") {
  nmod_t mod;
  nmod_init(&mod, 998244353);  // 2^23 divides p - 1; 3 generates
  for (const std::vector<double>& weights : speed_sets()) {
    for (int log_n : {2, 5, 8, 9}) {
      const size_t n = size_t{1} << log_n, n1 = size_t{1} << (log_n / 2);
      INFO("devices " << weights.size() << ", n 2^" << log_n);
      const ulong w = n_powmod2_ui_preinv(3, (mod.n - 1) >> log_n, mod.n, mod.ninv);
      Words x(n);
      for (size_t i = 0; i < n; i++) x[i] = (i * 7919 + 13) % mod.n;
      CHECK(four_step_on_host(x, n1, w, mod, weights) == dft(x, w, mod));
    }
  }
}

// The limb matrix of coefficients [r.begin, r.end) of a whole one.
cas::crt::LimbMatrix range_of(const cas::crt::LimbMatrix& m, Range r) {
  cas::crt::LimbMatrix part;
  part.count = r.size();
  part.width = m.width;
  part.limbs.resize(m.width * r.size());
  for (size_t l = 0; l < m.width; l++)
    std::copy_n(m.limbs.begin() + long(l * m.count + r.begin), r.size(), part.limbs.begin() + long(l * r.size()));
  part.negative.assign(m.negative.begin() + long(r.begin), m.negative.begin() + long(r.end));
  return part;
}

// Step 1 on one "device": its coefficients modulo every prime, k x |r|.
Words reduce_range(const cas::crt::LimbMatrix& m, Range r, const Words& primes) {
  const cas::crt::LimbMatrix part = range_of(m, r);
  Words out(primes.size() * r.size());
  for (size_t j = 0; j < primes.size(); j++) {
    const cas::crt::ReductionPrime q = cas::crt::reduction_prime(primes[j]);
    for (size_t i = 0; i < r.size(); i++)
      cas::crt::reduce_entry(i, part.limbs.data(), part.negative.data(), part.count, part.width, q,
                             out.data() + j * r.size());
  }
  return out;
}

// The product a b in Z[x] the way gpu/crt_split.cu computes it, with `weights` as the devices'
// speeds: reduce by columns, exchange, products modulo each device's primes (FLINT), exchange,
// Garner on each device's range of the result.
cas::ZPoly split_product(const cas::ZPoly& a, const cas::ZPoly& b, const Words& primes, const std::vector<double>& weights) {
  const size_t na = size_t(a.length()), nb = size_t(b.length()), length = na + nb - 1, k = primes.size();
  const cas::crt::LimbMatrix ma = cas::to_limb_matrix(a.get()->coeffs, na), mb = cas::to_limb_matrix(b.get()->coeffs, nb);
  const std::vector<Range> share = split::by_weights(k, weights), in_a = split::by_weights(na, weights),
                           in_b = split::by_weights(nb, weights), out = split::by_weights(length, weights);
  const size_t devices = weights.size();
  std::vector<Words> columns_a, columns_b, rows_a, rows_b, products, result_columns;
  for (size_t d = 0; d < devices; d++) {
    columns_a.push_back(reduce_range(ma, in_a[d], primes));
    columns_b.push_back(reduce_range(mb, in_b[d], primes));
    rows_a.emplace_back(share[d].size() * na, 0);
    rows_b.emplace_back(share[d].size() * nb, 0);
  }
  exchange(columns_a, rows_a, [&](int from, int to) { return split::columns_to_rows(share, in_a, from, to); });
  exchange(columns_b, rows_b, [&](int from, int to) { return split::columns_to_rows(share, in_b, from, to); });
  for (size_t d = 0; d < devices; d++) {
    Words rows(share[d].size() * length);
    for (size_t j = 0; j < share[d].size(); j++) {
      nmod_t mod;
      nmod_init(&mod, primes[share[d].begin + j]);
      const ulong *ra = rows_a[d].data() + j * na, *rb = rows_b[d].data() + j * nb;
      if (na >= nb)  // FLINT's product wants the longer operand first
        _nmod_poly_mul(rows.data() + j * length, ra, slong(na), rb, slong(nb), mod);
      else
        _nmod_poly_mul(rows.data() + j * length, rb, slong(nb), ra, slong(na), mod);
    }
    products.push_back(rows);
    result_columns.emplace_back(k * out[d].size(), 0);
  }
  exchange(products, result_columns, [&](int from, int to) { return split::rows_to_columns(share, out, from, to); });
  const cas::crt::GarnerTables tables(primes);
  cas::ZPoly c;
  fmpz_poly_fit_length(c.get(), slong(length));
  for (size_t d = 0; d < devices; d++) {
    cas::crt::LimbMatrix part;
    part.count = out[d].size();
    part.width = tables.width();
    part.limbs.assign(part.width * part.count, 0);
    part.negative.assign(part.count, 0);
    for (size_t i = 0; i < part.count; i++)
      cas::crt::reconstruct_entry(i, result_columns[d].data(), part.count, tables.view(), part.limbs.data(),
                                  part.negative.data());
    cas::from_limb_matrix(c.get()->coeffs + out[d].begin, part);
  }
  _fmpz_poly_set_length(c.get(), slong(length));
  _fmpz_poly_normalise(c.get());
  return c;
}

TEST_CASE("split: a Z[x] product shared among devices equals FLINT's", "[split]") {
  cas::test::FreshRandom random;
  INFO("seed " << random.seed);
  for (const std::vector<double>& weights : speed_sets()) {
    for (int round = 0; round < 3; round++) {
      const slong na = 1 + slong(n_randint(random.state(), 300)), nb = 1 + slong(n_randint(random.state(), 300));
      const flint_bitcnt_t bits = 1 + n_randint(random.state(), 400);
      cas::ZPoly a, b, expected;
      fmpz_poly_randtest(a.get(), random.state(), na, bits);
      fmpz_poly_randtest_not_zero(b.get(), random.state(), nb, 1 + n_randint(random.state(), 200));
      if (a.is_zero()) fmpz_poly_set_si(a.get(), -7);
      fmpz_poly_mul(expected.get(), a.get(), b.get());
      const cas::MultimodularPlan plan = cas::plan_multimodular(a, b);
      INFO("devices " << weights.size() << ", lengths " << a.length() << " and " << b.length() << ", primes "
                      << plan.primes.size());
      REQUIRE(plan.primes.size() >= 1);
      CHECK(fmpz_poly_equal(split_product(a, b, plan.primes, weights).get(), expected.get()));
    }
  }
}

}  // namespace
