// Internal to gpu/: the generalized Fermat transform (big_prime_gf.cu) on device arrays, for the
// big-prime convolution (big_prime.cu).
#pragma once

#include <cstddef>
#include <cstdint>

namespace cas::gpu::detail {

// big_prime_transform_gf of the k n words at `data` (limb-major binary, on the device, queued on
// the library's stream); `scratch` holds as many. Returns data or scratch, whichever holds the
// result. generalized_fermat_transform_takes(r, k, n) must hold.
std::uint64_t* transform_gf_device(std::uint64_t* data, std::uint64_t* scratch, std::size_t n, std::uint64_t r,
                                   std::size_t k, const std::uint64_t* w, bool inverse);

}  // namespace cas::gpu::detail
