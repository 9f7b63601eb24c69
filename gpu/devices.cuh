// Work shared among the GPUs of the host (internal to gpu/): a thread per device, and blocks of
// residue matrices moved between devices (gpu/split_plan.hpp's geometry) through NCCL.
//
// NCCL is loaded when first needed (dlopen of libnccl.so.2), so that the library and cas start
// on machines without it; a build without nccl.h, or a machine without the library, has one GPU.
#pragma once

#include "gpu/detail.cuh"
#include "gpu/split_plan.hpp"

#include <functional>
#include <string>
#include <vector>

namespace cas::gpu::detail {

// Whether device_count() > 1 devices can exchange data here; when not, why (for gpuinfo()).
bool devices_can_exchange(std::string* why = nullptr);

// body(d) for d in [0, devices) at once with OnDevice(d): device 0 on the calling thread, the
// others on kept threads (gpu/kept_threads.hpp); waits for every device's stream, then rethrows the
// first failure. One call at a time.
void on_each_device(int devices, const std::function<void(int device)>& body);

// The relative speed of devices [0, devices) for dividing work among them: multiprocessors
// times clock rate (identical cards share work evenly).
std::vector<double> device_speeds(int devices);

// For every ordered pair (from, to) of devices, block(from, to) moved from arrays[from] to
// arrays[to] (each array on its own device), then every stream synchronised. Blocks between
// different devices go through NCCL, packed and unpacked by 2-D copies where their rows are not
// contiguous; a device's block to itself is one 2-D copy. Pass `to` == `from` arrays for in-place
// gathers only when the blocks cannot overlap.
void exchange_blocks(const std::vector<DeviceWords*>& from, const std::vector<DeviceWords*>& to,
                     const std::function<split::Block(int from, int to)>& block);

// Operations whose work reaches this many words (residue words of every prime; a single prime's
// transform length) are shared among the devices: set_split_threshold.
std::size_t split_threshold();
// The same for a product modulo one prime (its transform length; set_prime_split_threshold): by
// default none, so that such a product is shared only when one device lacks the memory for it
// (docs/measurements.md, "Multi-modular products on two GPUs": the host's copies bound it, not the
// devices).
std::size_t prime_split_threshold();
// Records how the calling thread's last operation on the GPU was shared (last_split()).
void record_split(const std::vector<std::size_t>& primes_per_device);

// A product modulo p shared between two devices (gpu/polymul_split.cu): whether it applies (one
// prime, transform length n >= threshold, both operands at most n / 2, two devices that
// exchange), and the product itself into out[0, na + nb - 1).
bool multiplies_on_two_devices(std::size_t na, std::size_t nb, std::uint64_t p, std::size_t threshold);
void multiply_on_two_devices(const std::uint64_t* a, std::size_t na, const std::uint64_t* b, std::size_t nb,
                             std::uint64_t p, std::uint64_t* out);

}  // namespace cas::gpu::detail
