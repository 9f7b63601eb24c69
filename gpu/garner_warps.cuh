// Garner's reconstruction of few coefficients from many primes: one warp a coefficient
// (garner_warps.cu). crt.cu's thread a coefficient walks k^2 / 2 dependent products and k times
// width limb updates alone, which a short product cannot hide behind other threads.
#pragma once

#include "gpu/detail.cuh"

#include <cstdint>
#include <vector>

namespace cas::gpu::detail {

// Whether `count` coefficients from these many primes go one warp a coefficient: by the rule
// measured in garner_warps.cu or set_warp_garner_limit's count, and while a warp's digits and limb
// sums fit the shared memory of a block.
bool warps_reconstruct(std::size_t count, std::size_t primes);
// The symmetric residues of residues[j count + i] modulo primes[j] (i < count) as a limb-major
// matrix: limbs[l count + i] for l < width (allocated here) and negative[i].
void reconstruct_by_warps(const std::uint64_t* residues, std::size_t count, const std::vector<std::uint64_t>& primes,
                          DeviceWords& limbs, DeviceWords32& negative, std::size_t& width);

}  // namespace cas::gpu::detail
