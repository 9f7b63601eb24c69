#pragma once
// The constant tables of the last few prime lists, kept on the device (host code). A loop of
// products of one size (or a computation's products of similar sizes) asks for the same primes
// again and again; Garner's tables for 130 primes take 0.34 ms to build on the host, as long as a
// short product's work on the GPU (docs/measurements.md, "Host-built tables of 130 primes").
#include "gpu/detail.cuh"
#include "gpu/ntt.hpp"

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace cas::gpu::detail {

template <class Tables>
class RecentTables {
public:
    explicit RecentTables(std::size_t capacity) : capacity_(capacity) {}

    // The tables of `key` (the primes, and whatever else they depend on): the kept ones, or
    // make(key) kept in place of the least recently used. Tables are freed in stream order
    // (DeviceArray), after the kernels that read them.
    template <class Make>
    std::shared_ptr<const Tables> get(const std::vector<std::uint64_t>& key, Make&& make)
    {
        std::lock_guard<std::mutex> guard(lock_);
        for (auto it = entries_.begin(); it != entries_.end(); ++it)
            if (it->first == key) {
                entries_.splice(entries_.begin(), entries_, it);
                return entries_.front().second;
            }
        entries_.emplace_front(key, std::make_shared<const Tables>(make(key)));
        if (entries_.size() > capacity_) entries_.pop_back();
        return entries_.front().second;
    }

private:
    std::size_t capacity_;
    std::mutex lock_;
    std::list<std::pair<std::vector<std::uint64_t>, std::shared_ptr<const Tables>>> entries_;  // most recent first
};

// The device tables Device(Host(primes)) of the last eight prime lists, one cache a type and
// device (never destroyed: no frees after the CUDA runtime has shut down).
template <class Device, class Host>
std::shared_ptr<const Device> kept_tables(const std::vector<std::uint64_t>& primes)
{
    static PerDevice<RecentTables<Device>> caches;
    RecentTables<Device>* recent = &caches.here([] { return new RecentTables<Device>(8); });
    return recent->get(primes, [](const std::vector<std::uint64_t>& p) { return Device(Host(p)); });
}

// Device tables that a loop of operations of one size asks for again and again (the big-prime
// kernels' twiddles): make() kept under `key` among the last four of its cache (one cache a
// `Cache` type, so that callers' keys never meet), or, above 256 MiB (`bytes`), made for the call
// only: four kept sets then hold at most 1 GiB of device memory.
template <class Cache>
RecentTables<DeviceWords>& device_table_cache()
{
    static PerDevice<RecentTables<DeviceWords>> caches;
    return caches.here([] { return new RecentTables<DeviceWords>(4); });
}

template <class Cache, class Make>
std::shared_ptr<const DeviceWords> kept_or_made(const std::vector<std::uint64_t>& key, std::size_t bytes, Make&& make)
{
    constexpr std::size_t most_kept_bytes = std::size_t(256) << 20;
    if (bytes > most_kept_bytes) return std::make_shared<const DeviceWords>(make());
    return device_table_cache<Cache>().get(key, [&](const std::vector<std::uint64_t>&) { return make(); });
}

}  // namespace cas::gpu::detail
