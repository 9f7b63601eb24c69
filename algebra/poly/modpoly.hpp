#pragma once
// A polynomial in (Z/pZ)[x]. Word-size p is stored as FLINT's nmod_poly,
// larger p as fmpz_mod_poly; callers see one type. Operations that exist in
// both FLINT modules are written once here, branching on the storage.
#include "algebra/integers/modulus.hpp"

#include <flint/fmpz_mod_poly.h>
#include <flint/nmod_poly.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace cas::gpu {
template <class Word>
class DeviceArray;
using DeviceWords = DeviceArray<std::uint64_t>;
}  // namespace cas::gpu

namespace cas {

class ResidentWords;

class ModPoly {
 public:
  explicit ModPoly(ModulusPtr m);
  ModPoly(const ModPoly& o);
  ModPoly(ModPoly&& o) noexcept;
  ModPoly& operator=(const ModPoly& o);
  ModPoly& operator=(ModPoly&& o) noexcept;
  ~ModPoly();

  // The polynomial whose coefficients the GPU computed and keeps (algebra/dispatch/resident.hpp),
  // over a word-size Z/pZ; `words` holds exactly its length (a nonzero leading coefficient). The
  // host's array is filled when first read.
  static ModPoly on_gpu(ModulusPtr m, std::shared_ptr<ResidentWords> words);

  const ModulusPtr& modulus() const { return m_; }
  bool word() const { return m_->word_size(); }
  // FLINT's polynomial: the GPU's coefficients are brought over first if the host lacks them; a
  // caller that may change it (the non-const form) drops the GPU's copy.
  nmod_poly_struct* nmod() {
    make_host_only();
    return &n_;
  }
  const nmod_poly_struct* nmod() const {
    if (host_pending_.load(std::memory_order_acquire)) take_host_copy();
    return &n_;
  }
  // The coefficients on the GPU, when it holds them (null otherwise): operations on the GPU read
  // them there instead of uploading the host's array.
  std::shared_ptr<const gpu::DeviceWords> device_words() const;
  // False while the GPU holds the coefficients and the host's array has not been filled.
  bool coefficients_on_host() const { return !host_pending_.load(std::memory_order_acquire); }
  fmpz_mod_poly_struct* big() { return &f_; }
  const fmpz_mod_poly_struct* big() const { return &f_; }
  const fmpz_mod_ctx_struct* ctx() const { return m_->ctx(); }

  slong length() const;
  slong degree() const { return length() - 1; }
  bool is_zero() const { return length() == 0; }
  void coeff(fmpz_t out, slong i) const;       // zero beyond the length
  void set_coeff(slong i, const fmpz_t c);     // c is reduced mod p
  void fit_length(slong n);
  // Room for n coefficients (word-size p): for a long array that this polynomial does not have
  // yet, a block that a freed long array left (words.hpp, allocate_large_words), its pages touched.
  void reserve_words(size_t n);

 private:
  void init_storage();
  void clear_storage();
  void take_host_copy() const;
  void make_host_only();
  ModulusPtr m_;
  std::shared_ptr<ResidentWords> resident_;         // the GPU's copy of the coefficients, or null
  mutable std::atomic<bool> host_pending_{false};  // resident_ has coefficients n_ lacks
  union {
    nmod_poly_struct n_;
    fmpz_mod_poly_struct f_;
  };
};

// The polynomial over a word-size Z/pZ (p = m) whose coefficients, lowest degree first, are these
// reduced residues; copied as one block, not coefficient by coefficient.
ModPoly modpoly_from_words(const ModulusPtr& m, const ulong* words, size_t count);

// The polynomial over a word-size Z/pZ (p = m) whose `length` coefficients write(coeffs) puts
// straight into FLINT's array (an engine's result), normalised. What write throws passes through.
template <class Write>
ModPoly written_modpoly(const ModulusPtr& m, size_t length, Write&& write) {
  ModPoly r(m);
  r.reserve_words(length);
  write(r.nmod()->coeffs);
  r.nmod()->length = static_cast<slong>(length);
  _nmod_poly_normalise(r.nmod());
  return r;
}

}  // namespace cas
