#include "algebra/dispatch/resident.hpp"

#include "algebra/support/words.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace cas {

namespace {

std::atomic<std::uint64_t> use_clock{0};

std::uint64_t tick() { return use_clock.fetch_add(1, std::memory_order_relaxed) + 1; }

void download_from_gpu(const gpu::DeviceWords& words, ulong* out, size_t count) {
  static_assert(sizeof(ulong) == sizeof(std::uint64_t), "FLINT's words are the engine's words");
  words.download(reinterpret_cast<std::uint64_t*>(out), count);
}

// The registry of kept arrays: weak references, so that a value freed frees its device memory
// at once; the bytes are counted over the live ones.
class ResidentCache {
 public:
  void add(const std::shared_ptr<ResidentWords>& words) {
    std::vector<std::shared_ptr<ResidentWords>> evicted;
    {
      std::lock_guard<std::mutex> guard(lock_);
      entries_.push_back(words);
      evicted = over_limit_locked(words.get());
    }
    for (auto& w : evicted) w->evict();  // downloads outside the registry's lock
  }

  ResidentUse use() {
    std::lock_guard<std::mutex> guard(lock_);
    ResidentUse u;
    u.limit = limit_locked();
    for (const auto& w : live_locked()) {
      if (!w->on_gpu()) continue;
      u.values++;
      u.bytes += w->bytes();
    }
    return u;
  }

  std::vector<std::shared_ptr<ResidentWords>> all() {
    std::lock_guard<std::mutex> guard(lock_);
    return live_locked();
  }

  void set_limit(size_t bytes) {
    std::lock_guard<std::mutex> guard(lock_);
    limit_ = bytes;
  }

 private:
  // The live entries (dropping the dead ones), whether on the GPU or already moved.
  std::vector<std::shared_ptr<ResidentWords>> live_locked() {
    std::vector<std::shared_ptr<ResidentWords>> live;
    std::vector<std::weak_ptr<ResidentWords>> still;
    for (const auto& w : entries_)
      if (auto p = w.lock()) {
        live.push_back(std::move(p));
        still.push_back(w);
      }
    entries_ = std::move(still);
    return live;
  }

  size_t limit_locked() {
    if (limit_ == 0) {
      try {
        limit_ = gpu::device_info().total_memory / 2;
      } catch (const gpu::Error&) {
        limit_ = 0;
      }
    }
    return limit_;
  }

  // The least recently used arrays to move to the host so that the rest fit the limit; `kept`
  // (the array just added) stays.
  std::vector<std::shared_ptr<ResidentWords>> over_limit_locked(const ResidentWords* kept) {
    std::vector<std::shared_ptr<ResidentWords>> on_gpu;
    size_t bytes = 0;
    for (auto& w : live_locked()) {
      if (!w->on_gpu()) continue;
      bytes += w->bytes();
      if (w.get() != kept) on_gpu.push_back(w);
    }
    const size_t limit = limit_locked();
    std::sort(on_gpu.begin(), on_gpu.end(),
              [](const auto& a, const auto& b) { return a->last_use() < b->last_use(); });
    std::vector<std::shared_ptr<ResidentWords>> evicted;
    for (auto& w : on_gpu) {
      if (bytes <= limit) break;
      bytes -= w->bytes();
      evicted.push_back(w);
    }
    return evicted;
  }

  std::mutex lock_;
  std::vector<std::weak_ptr<ResidentWords>> entries_;
  size_t limit_ = 0;
};

ResidentCache& cache() {
  static auto* c = new ResidentCache;  // never destroyed: no device frees after CUDA shut down
  return *c;
}

}  // namespace

ResidentWords::ResidentWords(gpu::DeviceWords words, size_t length, Download download)
    : device_(std::make_shared<const gpu::DeviceWords>(std::move(words))),
      length_(length),
      download_(download ? std::move(download) : Download(download_from_gpu)),
      last_use_(tick()) {}

ResidentWords::~ResidentWords() {
  if (host_) {
    if (bytes() >= large_words_from)
      free_large_words(host_, bytes());
    else
      flint_free(host_);
  }
}

std::shared_ptr<const gpu::DeviceWords> ResidentWords::device() {
  std::lock_guard<std::mutex> guard(lock_);
  last_use_.store(tick(), std::memory_order_relaxed);
  return device_;
}

bool ResidentWords::on_gpu() {
  std::lock_guard<std::mutex> guard(lock_);
  return device_ != nullptr;
}

ulong* ResidentWords::allocate_host() const {
  const size_t n = std::max(bytes(), sizeof(ulong));
  return static_cast<ulong*>(n >= large_words_from ? allocate_large_words(n) : flint_malloc(n));
}

ulong* ResidentWords::download_locked() {
  ulong* out = allocate_host();
  download_(*device_, out, length_);
  return out;
}

ulong* ResidentWords::take_host_copy() {
  std::lock_guard<std::mutex> guard(lock_);
  host_taken_ = true;
  if (host_) return std::exchange(host_, nullptr);
  return download_locked();
}

void ResidentWords::evict() {
  std::lock_guard<std::mutex> guard(lock_);
  if (!device_) return;
  if (!host_taken_ && !host_) host_ = download_locked();
  device_.reset();
}

std::shared_ptr<ResidentWords> keep_on_gpu(gpu::DeviceWords words, size_t length, ResidentWords::Download download) {
  auto kept = std::make_shared<ResidentWords>(std::move(words), length, std::move(download));
  cache().add(kept);
  return kept;
}

ResidentUse resident_use() { return cache().use(); }

void move_resident_to_host() {
  for (auto& w : cache().all()) w->evict();
}

void set_resident_limit(size_t bytes) { cache().set_limit(bytes); }

}  // namespace cas
