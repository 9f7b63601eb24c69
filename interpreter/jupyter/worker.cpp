#include "worker.hpp"

#include "interpreter/interrupt_mask.hpp"

#include <flint/flint.h>


#include <stdexcept>

namespace cas::jupyter {

namespace {
constexpr size_t interpreter_stack_bytes = size_t{1} << 30;  // as main.cpp's thread: reserved, not used
}

Worker::Worker() {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, interpreter_stack_bytes);
  started_ = pthread_create(&thread_, &attr, thread_main, this) == 0;
  pthread_attr_destroy(&attr);
  if (!started_) throw std::runtime_error("cannot start the interpreter's thread");
}

Worker::~Worker() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (started_) pthread_join(thread_, nullptr);
}

void* Worker::thread_main(void* self) {
  static_cast<Worker*>(self)->serve();
  flint_cleanup();  // FLINT's per-thread caches, which die with this thread
  return nullptr;
}

void Worker::serve() {
  // The kernel blocks SIGINT in its other threads (a signal would break their sockets' waits):
  // an interrupt from Jupyter reaches this thread, which runs the cells.
  unblock_interrupts_in_this_thread();
  std::unique_lock lock(mutex_);
  while (true) {
    changed_.wait(lock, [&] { return stopping_ || job_; });
    if (stopping_) return;
    std::function<void()> job = std::move(job_);
    job_ = nullptr;
    lock.unlock();
    job();
    lock.lock();
    busy_ = false;
    changed_.notify_all();
  }
}

void Worker::start(std::function<void()> job) {
  {
    std::lock_guard lock(mutex_);
    job_ = std::move(job);
    busy_ = true;
  }
  changed_.notify_all();
}

bool Worker::wait_for(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] { return !busy_; });
}

}  // namespace cas::jupyter
