#pragma once
// One thread with the interpreter's large stack (the interpreter recurses on the C++ stack, as
// main.cpp explains) that runs a job while the thread that submitted it keeps serving: the
// kernel's thread publishes a cell's output and progress while the cell runs here.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <pthread.h>

namespace cas::jupyter {

class Worker {
 public:
  Worker();
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // Starts `job`; one job at a time.
  void start(std::function<void()> job);
  // Waits up to `timeout` for the job to end; true when it has.
  bool wait_for(std::chrono::milliseconds timeout);

 private:
  static void* thread_main(void* self);
  void serve();

  std::mutex mutex_;
  std::condition_variable changed_;
  std::function<void()> job_;
  bool busy_ = false, stopping_ = false;
  pthread_t thread_{};
  bool started_ = false;
};

}  // namespace cas::jupyter
