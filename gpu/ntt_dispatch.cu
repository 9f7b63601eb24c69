// The transform entry points: argument checks, the word size, the twiddle tables, the choice of
// kernel, and the inverse (the transform at w^-1 followed by the factor 1/n).
#include "gpu/detail.cuh"
#include "gpu/devices.cuh"

namespace cas::gpu {
namespace detail {
namespace {

template <class T>
__global__ void scale_kernel(T* data, std::size_t count, T scale, T scale_q, Modulus<T> m)
{
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
         i += std::size_t(gridDim.x) * blockDim.x)
        data[i] = mul_twiddle(data[i], scale, scale_q, m);
}

int log2_exact(std::size_t n)
{
    int k = 0;
    while ((std::size_t(1) << k) < n) ++k;
    if ((std::size_t(1) << k) != n) throw Error("transform length " + std::to_string(n) + " is not a power of two");
    return k;
}

}  // namespace

template <class T>
void scale_vector(T* data, std::size_t count, T scale, T scale_q, const Modulus<T>& m)
{
    if (count == 0) return;
    scale_kernel<<<grid_for(count, 256), 256, 0, stream()>>>(data, count, scale, scale_q, m);
    check_launch("scale_kernel");
}

template <class T>
void transform(T* data, std::size_t n, std::size_t batch, std::uint64_t p, std::uint64_t w, bool inverse,
               Algorithm algorithm, const Fusion<T>* fusion)
{
    if (fusion && algorithm != Algorithm::fast) throw Error("fused transforms need the fast algorithm");
    require_device();
    int log_n = log2_exact(n);
    if (log_n > 30) throw Error("transform length 2^" + std::to_string(log_n) + " is too large");
    if (sizeof(T) == 4 && p >= (std::uint64_t(1) << 31)) throw Error("32-bit words need p < 2^31");
    if (n == 1 || batch == 0) return;  // the transform of length 1 is the identity
    if (p < 3 || (p & 1) == 0) throw Error("transform modulus must be an odd prime");
    if (pow_mod(w, n / 2, p) != p - 1) throw Error("w is not a primitive n-th root of unity mod p");

    std::uint64_t root = inverse ? pow_mod(w, n - 1, p) : w;
    Modulus<T> m = make_modulus<T>(p);
    Twiddles<T> tw = twiddles<T>(p, n, root);
    T scale = 1, scale_q = shoup_companion(T(1), T(p));
    if (inverse) {
        scale = T(p - (p - 1) / n);  // 1/n = p - (p-1)/n mod p, since n divides p - 1
        scale_q = shoup_companion(scale, T(p));
    }
    switch (algorithm) {
    case Algorithm::radix2: ntt_radix2(data, log_n, batch, m, tw); break;
    case Algorithm::stockham: ntt_stockham(data, log_n, batch, m, tw); break;
    case Algorithm::fast: ntt_fast(data, log_n, batch, m, tw, scale, scale_q, fusion); return;
    }
    if (inverse) scale_vector(data, n * batch, scale, scale_q, m);
}

template void transform<std::uint32_t>(std::uint32_t*, std::size_t, std::size_t, std::uint64_t, std::uint64_t, bool,
                                       Algorithm, const Fusion<std::uint32_t>*);
template void transform<std::uint64_t>(std::uint64_t*, std::size_t, std::size_t, std::uint64_t, std::uint64_t, bool,
                                       Algorithm, const Fusion<std::uint64_t>*);
template void scale_vector<std::uint32_t>(std::uint32_t*, std::size_t, std::uint32_t, std::uint32_t,
                                          const Modulus<std::uint32_t>&);
template void scale_vector<std::uint64_t>(std::uint64_t*, std::size_t, std::uint64_t, std::uint64_t,
                                          const Modulus<std::uint64_t>&);

}  // namespace detail

template <class Word>
static void check_size(const DeviceArray<Word>& data, std::size_t n, std::size_t batch)
{
    if (n * batch > data.size()) throw Error("transform of " + std::to_string(batch) + " x " + std::to_string(n) +
                                             " words on an array of " + std::to_string(data.size()));
}

void forward(DeviceWords& data, std::size_t n, std::size_t batch, std::uint64_t p, std::uint64_t w, Algorithm a)
{
    check_size(data, n, batch);
    detail::transform(data.data(), n, batch, p, w, false, a);
}
void inverse(DeviceWords& data, std::size_t n, std::size_t batch, std::uint64_t p, std::uint64_t w, Algorithm a)
{
    check_size(data, n, batch);
    detail::transform(data.data(), n, batch, p, w, true, a);
}
void forward(DeviceWords32& data, std::size_t n, std::size_t batch, std::uint32_t p, std::uint32_t w, Algorithm a)
{
    check_size(data, n, batch);
    detail::transform(data.data(), n, batch, p, w, false, a);
}
void inverse(DeviceWords32& data, std::size_t n, std::size_t batch, std::uint32_t p, std::uint32_t w, Algorithm a)
{
    check_size(data, n, batch);
    detail::transform(data.data(), n, batch, p, w, true, a);
}

static void require_whole_vectors(std::size_t count, std::size_t n)
{
    if (n == 0 || count % n != 0) throw Error("host transform: size is not a multiple of n");
}
// The host's words through 64-bit words on the device, from `in` into `out` (which may be `in`).
// The downloads fault a fresh `out` in on the copy workers (runtime.cu, fault_in).
static void host_transform_64(const std::uint64_t* in, std::uint64_t* out, std::size_t count, std::size_t n,
                              std::uint64_t p, std::uint64_t w, bool inverse_direction, Algorithm a)
{
    DeviceWords data(count);
    data.upload(in, count);
    detail::transform(data.data(), n, count / n, p, w, inverse_direction, a);
    data.download(out, count);
}
// The vector API keeps 64-bit words: the tests compare the 32-bit route below with it.
static std::vector<std::uint64_t> host_transform(const std::vector<std::uint64_t>& values, std::size_t n,
                                                 std::uint64_t p, std::uint64_t w, bool inverse_direction,
                                                 Algorithm a)
{
    require_whole_vectors(values.size(), n);
    std::vector<std::uint64_t> out(values.size());
    host_transform_64(values.data(), out.data(), out.size(), n, p, w, inverse_direction, a);
    return out;
}
// One vector longer than a single transform (2^30 words), or as long as the split threshold of
// one prime (set_prime_split_threshold), takes the four-step decomposition, shared among the
// devices that exchange data (gpu/ntt_split.cu); so does one that a device lacks the memory for.
static bool takes_four_steps(std::size_t count, std::size_t n)
{
    return count == n && n >= 4 && (n > (std::size_t(1) << 30) || n >= detail::prime_split_threshold());
}
static void four_step_into(const std::uint64_t* in, std::uint64_t* out, std::size_t n, std::uint64_t p,
                           std::uint64_t w, bool inverse_direction)
{
    const int devices = detail::devices_can_exchange() ? device_count() : 1;
    detail::four_step_transform(detail::team_of_devices(devices), in, out, n, p, w, inverse_direction);
}
// 32-bit words when p < 2^31 and every word fits them (entries below p do); 64-bit words otherwise.
// `in` is read whole before `out` is written, so out == in is safe.
static void one_transform_into(const std::uint64_t* in, std::uint64_t* out, std::size_t count, std::size_t n,
                               std::uint64_t p, std::uint64_t w, bool inverse_direction, Algorithm a)
{
    if (p < (std::uint64_t(1) << 31)) {
        DeviceWords32 narrow(count);
        if (detail::upload_narrowed(narrow.data(), in, count)) {
            detail::transform(narrow.data(), n, count / n, p, w, inverse_direction, a);
            detail::download_widened(out, narrow.data(), count);
            return;
        }
    }
    host_transform_64(in, out, count, n, p, w, inverse_direction, a);
}
static void host_transform_into(const std::uint64_t* in, std::uint64_t* out, std::size_t count, std::size_t n,
                                std::uint64_t p, std::uint64_t w, bool inverse_direction, Algorithm a)
{
    require_whole_vectors(count, n);
    detail::require_device();
    if (a == Algorithm::fast && takes_four_steps(count, n)) return four_step_into(in, out, n, p, w, inverse_direction);
    try {
        detail::record_split({1});
        one_transform_into(in, out, count, n, p, w, inverse_direction, a);
    } catch (const OutOfMemory&) {
        // out is written last: untouched when the memory ran out
        if (a != Algorithm::fast || count != n || n < 4 || !detail::devices_can_exchange()) throw;
        four_step_into(in, out, n, p, w, inverse_direction);
    }
}
void forward_into(const std::uint64_t* in, std::uint64_t* out, std::size_t count, std::size_t n, std::uint64_t p,
                  std::uint64_t w, Algorithm a)
{
    host_transform_into(in, out, count, n, p, w, false, a);
}
void inverse_into(const std::uint64_t* in, std::uint64_t* out, std::size_t count, std::size_t n, std::uint64_t p,
                  std::uint64_t w, Algorithm a)
{
    host_transform_into(in, out, count, n, p, w, true, a);
}

std::vector<std::uint64_t> forward(const std::vector<std::uint64_t>& v, std::size_t n, std::uint64_t p,
                                   std::uint64_t w, Algorithm a)
{
    return host_transform(v, n, p, w, false, a);
}
std::vector<std::uint64_t> inverse(const std::vector<std::uint64_t>& v, std::size_t n, std::uint64_t p,
                                   std::uint64_t w, Algorithm a)
{
    return host_transform(v, n, p, w, true, a);
}

}  // namespace cas::gpu
