// The engine when this build has no CUDA: available() is false and every operation throws
// Unavailable, so the algebra layer falls back to FLINT.
#include "gpu/big_prime.hpp"
#include "gpu/crt.hpp"
#include "gpu/ntt.hpp"
#include "gpu/ranks.hpp"

namespace cas::gpu {

namespace {
[[noreturn]] void unavailable() { throw Unavailable("no CUDA device (built without CUDA)"); }
}  // namespace

bool available() { return false; }
// Under mpirun there is no engine to serve: rank 0 works alone and the others end.
bool join_ranks(int*, char***) { return launcher::rank_from_environment() == 0; }
int ranks() { return 1; }
int sharing_ranks(std::string* why)
{
    if (why) *why = "built without CUDA";
    return 1;
}
DeviceInfo device_info() { unavailable(); }
DeviceInfo device_info(int) { unavailable(); }
int device_count() { return 0; }
int visible_devices() { return 0; }
int set_devices_used(int) { return 0; }
bool devices_share_work(std::string* why)
{
    if (why) *why = "built without CUDA";
    return false;
}
OnDevice::OnDevice(int) : previous_(0) { unavailable(); }
OnDevice::~OnDevice() = default;
std::string describe() { return "no CUDA device (built without CUDA)"; }
std::string describe(int) { return describe(); }
void synchronize() { unavailable(); }
void warm_up() {}
void set_allocation_limit(std::size_t) {}
void* stream_handle() { unavailable(); }

template <class Word> DeviceArray<Word>::DeviceArray(std::size_t) { unavailable(); }
template <class Word> DeviceArray<Word>::DeviceArray(const Word*, std::size_t) { unavailable(); }
template <class Word> DeviceArray<Word>::~DeviceArray() = default;
template <class Word> DeviceArray<Word>::DeviceArray(DeviceArray&& other) noexcept
    : data_(other.data_), size_(other.size_), device_(other.device_) { other.data_ = nullptr; other.size_ = 0; }
template <class Word> DeviceArray<Word>& DeviceArray<Word>::operator=(DeviceArray&& other) noexcept
{
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(device_, other.device_);
    return *this;
}
template <class Word> void DeviceArray<Word>::upload(const Word*, std::size_t, std::size_t) { unavailable(); }
template <class Word> void DeviceArray<Word>::download(Word*, std::size_t, std::size_t) const { unavailable(); }
template <class Word> std::vector<Word> DeviceArray<Word>::to_host() const { unavailable(); }
template <class Word> void DeviceArray<Word>::fill_zero() { unavailable(); }
template class DeviceArray<std::uint32_t>;
template class DeviceArray<std::uint64_t>;

void forward(DeviceWords&, std::size_t, std::size_t, std::uint64_t, std::uint64_t, Algorithm) { unavailable(); }
void inverse(DeviceWords&, std::size_t, std::size_t, std::uint64_t, std::uint64_t, Algorithm) { unavailable(); }
void forward(DeviceWords32&, std::size_t, std::size_t, std::uint32_t, std::uint32_t, Algorithm) { unavailable(); }
void inverse(DeviceWords32&, std::size_t, std::size_t, std::uint32_t, std::uint32_t, Algorithm) { unavailable(); }
std::vector<std::uint64_t> forward(const std::vector<std::uint64_t>&, std::size_t, std::uint64_t, std::uint64_t,
                                   Algorithm) { unavailable(); }
std::vector<std::uint64_t> inverse(const std::vector<std::uint64_t>&, std::size_t, std::uint64_t, std::uint64_t,
                                   Algorithm) { unavailable(); }
void forward_into(const std::uint64_t*, std::uint64_t*, std::size_t, std::size_t, std::uint64_t, std::uint64_t,
                  Algorithm) { unavailable(); }
void inverse_into(const std::uint64_t*, std::uint64_t*, std::size_t, std::size_t, std::uint64_t, std::uint64_t,
                  Algorithm) { unavailable(); }
void tune_fast(int, int, int, int) {}
unsigned tune_fast_options(unsigned) { return 0; }
void clear_twiddle_cache() {}
std::size_t twiddle_tables_built() { return 0; }

std::vector<std::uint64_t> multiply_mod(const std::uint64_t*, std::size_t, const std::uint64_t*, std::size_t,
                                        std::uint64_t, Algorithm) { unavailable(); }
std::vector<std::uint64_t> multiply_mod(const std::vector<std::uint64_t>&, const std::vector<std::uint64_t>&,
                                        std::uint64_t, Algorithm) { unavailable(); }
DeviceWords multiply_mod(const DeviceWords&, const DeviceWords&, std::uint64_t, Algorithm) { unavailable(); }
void multiply_mod(const DeviceWords&, const DeviceWords&, std::uint64_t, DeviceWords&, Algorithm) { unavailable(); }
void multiply_mod(const std::uint64_t*, std::size_t, const std::uint64_t*, std::size_t, std::uint64_t, std::uint64_t*,
                  Algorithm) { unavailable(); }

void convolve_mod(const std::uint64_t*, std::size_t, const std::uint64_t*, std::size_t, std::size_t, bool,
                  std::uint64_t, std::uint64_t*, Algorithm)
{
    unavailable();
}

void divide_mod(const std::uint64_t*, std::size_t, const std::uint64_t*, std::size_t, std::uint64_t,
                const std::uint64_t*, std::size_t, std::uint64_t*, std::uint64_t*, Algorithm)
{
    unavailable();
}

void power_modulo(const std::uint64_t*, std::size_t, const std::uint64_t*, std::size_t, const std::uint64_t*,
                  std::size_t, std::uint64_t, const std::uint64_t*, std::size_t, std::uint64_t*, Algorithm)
{
    unavailable();
}

bool power_in_one_transform(std::size_t, std::uint64_t, std::uint64_t) { return false; }
void power_mod(const std::uint64_t*, std::size_t, std::uint64_t, std::uint64_t, std::uint64_t*, Algorithm)
{
    unavailable();
}

std::size_t set_split_threshold(std::size_t) { return 0; }
std::size_t set_prime_split_threshold(std::size_t) { return 0; }
SplitRecord last_split() { return {}; }
void multiply_limb_sources(const LimbSource&, const LimbSource&, const std::vector<std::uint64_t>&, const LimbSink&)
{
    unavailable();
}
void convolve_limb_sources(const LimbSource&, const LimbSource&, std::size_t, bool, const std::vector<std::uint64_t>&,
                           const LimbSink&)
{
    unavailable();
}
void power_limb_source(const LimbSource&, std::uint64_t, const std::vector<std::uint64_t>&, const LimbSink&)
{
    unavailable();
}
std::size_t longest_resultant_operand() { unavailable(); }
std::vector<std::uint64_t> resultants_of_limb_sources(const LimbSource&, const LimbSource&,
                                                      const std::vector<std::uint64_t>&)
{
    unavailable();
}
std::size_t set_block_products_limit(std::size_t) { return 0; }
std::size_t set_piece_products_limit(std::size_t) { return 0; }
std::size_t set_warp_garner_limit(std::size_t) { return 0; }
void multiply_magnitudes_summed(const std::uint64_t*, std::size_t, std::size_t, const std::uint64_t*, std::size_t,
                                std::size_t, unsigned, const std::vector<std::uint64_t>&, std::size_t, std::uint64_t*)
{
    unavailable();
}

void divide_mod(const DeviceWords&, const std::uint64_t*, std::size_t, std::uint64_t, const std::uint64_t*, std::size_t,
                std::uint64_t*, std::uint64_t*, Algorithm) { unavailable(); }
DeviceWords power_mod(const DeviceWords&, std::uint64_t, std::uint64_t, Algorithm) { unavailable(); }
void big_prime_transform(const std::uint64_t*, std::uint64_t*, std::size_t, const std::uint64_t*, std::size_t,
                         const std::uint64_t*, bool) { unavailable(); }
void big_prime_convolve(const std::uint64_t*, std::size_t, const std::uint64_t*, std::size_t, std::size_t,
                        const std::uint64_t*, std::size_t, const std::uint64_t*, const std::uint64_t*, std::uint64_t*,
                        std::size_t, std::uint64_t) { unavailable(); }

bool generalized_fermat_transform_takes(std::uint64_t, std::size_t, std::size_t) { return false; }
void big_prime_transform_gf(const std::uint64_t*, std::uint64_t*, std::size_t, std::uint64_t, std::size_t,
                            const std::uint64_t*, bool) { unavailable(); }

}  // namespace cas::gpu
