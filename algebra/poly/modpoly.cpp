#include "algebra/poly/modpoly.hpp"

#include "algebra/dispatch/resident.hpp"
#include "algebra/support/parallel.hpp"
#include "algebra/support/words.hpp"

#include <algorithm>
#include <mutex>
#include <utility>

namespace cas {

void ModPoly::init_storage() {
  if (word())
    nmod_poly_init_mod(&n_, m_->nmod());
  else
    fmpz_mod_poly_init(&f_, ctx());
}

// A long array goes to the reused blocks of words.hpp (every nmod_poly array is malloc's), so
// that the next long result of its size takes memory touched before: a product of 2^23 by 2^23
// terms on the GPU takes 8.2-8.7 ms into touched memory and 10.3-11.0 ms into fresh memory
// (docs/measurements.md, "A product in cas against the engine's figure").
void ModPoly::clear_storage() {
  if (!word()) {
    fmpz_mod_poly_clear(&f_, ctx());
  } else if (n_.coeffs && static_cast<size_t>(n_.alloc) * sizeof(ulong) >= large_words_from) {
    free_large_words(n_.coeffs, static_cast<size_t>(n_.alloc) * sizeof(ulong));
    n_.coeffs = nullptr;
    n_.alloc = n_.length = 0;
  } else {
    nmod_poly_clear(&n_);
  }
}

void ModPoly::reserve_words(size_t n) {
  make_host_only();
  if (word() && n_.alloc == 0 && n * sizeof(ulong) >= large_words_from) {
    n_.coeffs = static_cast<ulong*>(allocate_large_words(n * sizeof(ulong)));
    n_.alloc = static_cast<slong>(n);
  } else {
    fit_length(static_cast<slong>(n));
  }
}

ModPoly::ModPoly(ModulusPtr m) : m_(std::move(m)) { init_storage(); }

ModPoly ModPoly::on_gpu(ModulusPtr m, std::shared_ptr<ResidentWords> words) {
  ModPoly f(std::move(m));
  f.resident_ = std::move(words);
  f.host_pending_.store(true, std::memory_order_release);
  return f;
}

// One lock for every value's first read of its GPU coefficients: rare (once a value), and two
// threads reading one value must not both fill its array.
namespace {
std::mutex host_copy_lock;
}  // namespace

void ModPoly::take_host_copy() const {
  std::lock_guard<std::mutex> guard(host_copy_lock);
  if (!host_pending_.load(std::memory_order_relaxed)) return;
  // The array of a value built as on_gpu, never handed out before: filling it is not a change
  // any reader can see.
  auto* self = const_cast<ModPoly*>(this);
  const size_t length = resident_->length();
  ulong* words = resident_->take_host_copy();
  self->clear_storage();
  self->init_storage();
  self->n_.coeffs = words;
  self->n_.alloc = self->n_.length = static_cast<slong>(length);
  host_pending_.store(false, std::memory_order_release);
}

void ModPoly::make_host_only() {
  if (!resident_) return;
  if (host_pending_.load(std::memory_order_acquire)) take_host_copy();
  resident_.reset();
}

std::shared_ptr<const gpu::DeviceWords> ModPoly::device_words() const {
  return resident_ ? resident_->device() : nullptr;
}

ModPoly::ModPoly(const ModPoly& o) : m_(o.m_) {
  init_storage();
  if (word())
    nmod_poly_set(&n_, o.nmod());
  else
    fmpz_mod_poly_set(&f_, &o.f_, ctx());
  resident_ = o.resident_;  // the GPU's copy is immutable: shared
}

ModPoly::ModPoly(ModPoly&& o) noexcept : m_(o.m_) {
  init_storage();
  if (word())
    nmod_poly_swap(&n_, &o.n_);
  else
    fmpz_mod_poly_swap(&f_, &o.f_, ctx());
  resident_ = std::move(o.resident_);
  host_pending_.store(o.host_pending_.exchange(false));
}

ModPoly& ModPoly::operator=(const ModPoly& o) {
  if (this == &o) return *this;
  ModPoly copy(o);
  return *this = std::move(copy);
}

ModPoly& ModPoly::operator=(ModPoly&& o) noexcept {
  if (this == &o) return *this;
  if (!(m_ == o.m_ || *m_ == *o.m_)) {
    clear_storage();
    m_ = o.m_;
    init_storage();
  }
  if (word())
    nmod_poly_swap(&n_, &o.n_);
  else
    fmpz_mod_poly_swap(&f_, &o.f_, ctx());
  std::swap(resident_, o.resident_);
  const bool pending = host_pending_.load();
  host_pending_.store(o.host_pending_.load());
  o.host_pending_.store(pending);
  return *this;
}

ModPoly::~ModPoly() { clear_storage(); }

slong ModPoly::length() const {
  if (host_pending_.load(std::memory_order_acquire)) return static_cast<slong>(resident_->length());
  return word() ? nmod_poly_length(&n_) : fmpz_mod_poly_length(&f_, ctx());
}

void ModPoly::coeff(fmpz_t out, slong i) const {
  if (word())
    fmpz_set_ui(out, nmod_poly_get_coeff_ui(nmod(), i));
  else
    fmpz_mod_poly_get_coeff_fmpz(out, &f_, i, ctx());
}

void ModPoly::set_coeff(slong i, const fmpz_t c) {
  make_host_only();
  if (word()) {
    nmod_poly_set_coeff_ui(&n_, i, fmpz_fdiv_ui(c, m_->word()));
  } else {
    fmpz_t r;
    fmpz_init(r);
    fmpz_mod(r, c, m_->value());
    fmpz_mod_poly_set_coeff_fmpz(&f_, i, r, ctx());
    fmpz_clear(r);
  }
}

void ModPoly::fit_length(slong n) {
  make_host_only();
  if (word())
    nmod_poly_fit_length(&n_, n);
  else
    fmpz_mod_poly_fit_length(&f_, n, ctx());
}

ModPoly modpoly_from_words(const ModulusPtr& m, const ulong* words, size_t count) {
  ModPoly f(m);
  nmod_poly_struct* g = f.nmod();
  nmod_poly_fit_length(g, static_cast<slong>(count));
  advise_huge_pages_if_large(g->coeffs, count * sizeof(ulong));  // fresh from FLINT: not touched yet
  copy_words(g->coeffs, words, count);
  g->length = static_cast<slong>(count);
  _nmod_poly_normalise(g);
  return f;
}

}  // namespace cas
