#pragma once
// Evaluation at many points and interpolation over Z/pZ (any p); from a few hundred points through
// the subproduct tree, in
// O(M(n) log n) with every product and remainder on cas's engines (multiply.hpp, division.hpp):
// the large nodes near the root go to the CPU's transforms or the GPU, the small ones to FLINT.
//
// The tree of points x_0..x_(n-1): its leaves are blocks of a few points, each the product of its
// (x - x_i) formed by FLINT; a node above is the product of its two children, and the root is
// M = prod (x - x_i). Evaluation is the remainder tree: f mod M, then each node's remainder modulo
// its children, down to the leaves, where the remainders (degree below the block's size) are
// evaluated point by point. Interpolation (Lagrange's formula through the tree): the weights
// w_i = M'(x_i) by the same evaluation, c_i = y_i / w_i, each leaf's sum of c_i M_leaf / (x - x_i),
// and each node's N = N_left M_right + N_right M_left up to the root.
#include "algebra/poly/modpoly.hpp"
#include "algebra/support/flint_util.hpp"

#include <cstddef>
#include <vector>

namespace cas {

class SubproductTree {
 public:
  // The points, residues already reduced mod p.
  SubproductTree(std::vector<Fmpz> points, ModulusPtr m);

  size_t size() const { return points_.size(); }
  const ModPoly& product() const { return levels_.back().front(); }  // prod (x - x_i)
  // f(x_i) for every point, reduced.
  std::vector<Fmpz> evaluate(const ModPoly& f) const;
  // The polynomial of degree < n with P(x_i) = values[i]: p prime and the points distinct (the
  // caller checks both; a repeated point would make a weight zero).
  ModPoly interpolate(const std::vector<Fmpz>& values) const;

 private:
  struct Block {
    size_t first, end;  // the points [first, end)
  };
  std::vector<Fmpz> leaf_values(const ModPoly& remainder, const Block& b) const;
  ModPoly leaf_combination(const ModPoly& leaf, const Block& b, const std::vector<Fmpz>& c) const;

  ModulusPtr m_;
  std::vector<Fmpz> points_;
  std::vector<Block> blocks_;
  std::vector<std::vector<ModPoly>> levels_;  // levels_[0]: one product per block; levels_.back(): the root
};

// f(x_i) for every point (any integers; reduced mod p here): through the subproduct tree from
// AlgorithmCrossover::MultipointTree points (dispatch.hpp), FLINT's evaluation below.
std::vector<Fmpz> evaluate_many(const ModPoly& f, const std::vector<Fmpz>& points);
// The polynomial of degree < n over Z/pZ (p prime) with P(xs[i]) = ys[i]: through the tree from
// the same crossover, below it FLINT's interpolation (word-size p) or Newton's divided
// differences (FLINT 2.9 has no fmpz_mod interpolation). DomainError naming a point that occurs
// twice mod p.
ModPoly interpolate(const std::vector<Fmpz>& xs, const std::vector<Fmpz>& ys, const ModulusPtr& m);

}  // namespace cas
