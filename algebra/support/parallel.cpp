#include "algebra/support/parallel.hpp"

#include <pthread.h>

#include <condition_variable>
#include <csignal>
#include <mutex>
#include <system_error>

namespace cas::detail {

namespace {

// One call of run_tasks: its tasks are handed out in order (next), and the call returns once
// `done` reaches `count`. Guarded by the pool's mutex; tasks are coarse (a range of at least a
// grain), so one lock a task costs nothing that shows.
struct Job {
  std::size_t count;
  void (*call)(void*, std::size_t);
  void* context;
  std::size_t next = 0, done = 0;
};

// core_count() - 1 workers, started on first use and never stopped (they sleep when there is no
// work; at exit the process ends them). A worker takes a task of the newest job with tasks left,
// so the tasks of a nested call come before those of the call around it.
class Pool {
 public:
  // The workers start with every signal blocked (they inherit the mask): Ctrl-C must reach the
  // thread that reads the REPL's input, whose pending read it interrupts (repl.cpp).
  Pool() {
    sigset_t all, saved;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &saved);
    try {
      for (std::size_t i = 1; i < core_count(); i++) workers_.emplace_back([this] { work(); });
    } catch (const std::system_error&) {
      // out of threads: fewer workers, and the callers take the tasks left over
    }
    pthread_sigmask(SIG_SETMASK, &saved, nullptr);
    for (std::thread& worker : workers_) worker.detach();
  }

  void run(Job& job) {
    {
      const std::lock_guard<std::mutex> hold(mutex_);
      open_.push_back(&job);
    }
    // Every worker, even for two tasks: workers woken by every call are awake for the next one,
    // whose tasks may be more. Waking only as many as a call has tasks for halves what one call of
    // two ranges costs (cas-bench-cpu --pool 1), yet makes products on 16 cores 3-20% slower (a
    // Z[x] product of 2^12 coefficients 43%): docs/measurements.md, "The pool of workers".
    work_to_do_.notify_all();
    for (std::size_t t; take(job, t);) finish(job, t);
    std::unique_lock<std::mutex> hold(mutex_);
    job_done_.wait(hold, [&] { return job.done == job.count; });
  }

 private:
  // Hands out the next task of job into t; false when all are out. A job leaves open_ with its
  // last task, so open_ holds only jobs with tasks left.
  bool take(Job& job, std::size_t& t) {
    const std::lock_guard<std::mutex> hold(mutex_);
    return take_locked(job, t);
  }

  bool take_locked(Job& job, std::size_t& t) {
    if (job.next == job.count) return false;
    t = job.next++;
    if (job.next == job.count) open_.erase(std::find(open_.begin(), open_.end(), &job));
    return true;
  }

  // Runs task t of job and counts it. Once `done` reaches `count` the caller of run may return and
  // destroy the job, so nothing touches it after that.
  void finish(Job& job, std::size_t t) {
    job.call(job.context, t);
    const std::lock_guard<std::mutex> hold(mutex_);
    if (++job.done == job.count) job_done_.notify_all();
  }

  void work() {
    for (;;) {
      Job* job;
      std::size_t t = 0;
      {
        std::unique_lock<std::mutex> hold(mutex_);
        work_to_do_.wait(hold, [&] { return !open_.empty(); });
        job = open_.back();
        take_locked(*job, t);
      }
      finish(*job, t);
    }
  }

  std::mutex mutex_;
  std::condition_variable work_to_do_, job_done_;
  std::vector<Job*> open_;  // oldest first
  std::vector<std::thread> workers_;
};

Pool& pool() {
  static Pool* const the_pool = new Pool;  // never destroyed: its detached workers use it until exit
  return *the_pool;
}

}  // namespace

void run_tasks(std::size_t count, void (*call)(void*, std::size_t), void* context) {
  Job job{count, call, context};
  pool().run(job);
}

}  // namespace cas::detail

namespace cas {

void zero_on_cores(fmpz* values, std::size_t count) {
  parallel_ranges(count, integer_grain, [values](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; i++) fmpz_zero(values + i);
  });
}

}  // namespace cas
