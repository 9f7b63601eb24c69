// Tasks 0 .. count - 1 run side by side, task 0 on the calling thread and task i on a kept
// thread of its own, started on first use and never stopped (gpu/devices.cu runs a device's work
// on each). Kept, not started a call: what a task makes stays with a live thread (FLINT keeps each
// thread's freed integers for that thread), and a call starts no thread. Its threads wait on it
// for good: make one with new and never destroy it. Plain C++: the CPU's tests run it
// (tests/unit/gpu/test_kept_threads.cpp).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include <pthread.h>
#include <signal.h>

namespace cas::gpu {

class KeptThreads {
public:
    // task(i) for every i < count, returning when all have; then rethrows the first failure (by
    // index). One call at a time: a second caller waits for the first.
    void run(int count, const std::function<void(int)>& task)
    {
        std::lock_guard<std::mutex> turn(turn_);
        std::vector<std::exception_ptr> failures(static_cast<std::size_t>(count > 0 ? count : 0));
        if (count <= 0) return;
        start_threads(count);
        {
            std::lock_guard<std::mutex> guard(lock_);
            task_ = &task;
            failures_ = &failures;
            count_ = count;
            pending_ = count - 1;
            ++generation_;
        }
        wake_.notify_all();
        run_task(0, task, failures);
        std::unique_lock<std::mutex> guard(lock_);
        finished_.wait(guard, [this] { return pending_ == 0; });
        for (const std::exception_ptr& failure : failures)
            if (failure) std::rethrow_exception(failure);
    }

    // The threads started so far (for tests).
    int threads_started()
    {
        std::lock_guard<std::mutex> turn(turn_);
        return started_;
    }

private:
    static void run_task(int i, const std::function<void(int)>& task, std::vector<std::exception_ptr>& failures)
    {
        try {
            task(i);
        } catch (...) {
            failures[std::size_t(i)] = std::current_exception();
        }
    }

    // Threads for tasks [1, count), with every signal blocked: Ctrl-C must reach the REPL's thread.
    void start_threads(int count)
    {
        sigset_t all, saved;
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &saved);
        try {
            while (started_ + 1 < count) {
                const int i = started_ + 1;
                const std::uint64_t seen = generation_;  // written under turn_ only, which run holds
                std::thread([this, i, seen] { work(i, seen); }).detach();
                started_ = i;
            }
        } catch (...) {
            pthread_sigmask(SIG_SETMASK, &saved, nullptr);
            throw;
        }
        pthread_sigmask(SIG_SETMASK, &saved, nullptr);
    }

    // Runs task i of every call after the one that `seen` counts.
    void work(int i, std::uint64_t seen)
    {
        for (;;) {
            const std::function<void(int)>* task = nullptr;
            std::vector<std::exception_ptr>* failures = nullptr;
            {
                std::unique_lock<std::mutex> guard(lock_);
                wake_.wait(guard, [&] { return generation_ != seen; });
                seen = generation_;
                if (i >= count_) continue;  // a call with fewer tasks
                task = task_;
                failures = failures_;
            }
            run_task(i, *task, *failures);
            std::lock_guard<std::mutex> guard(lock_);
            if (--pending_ == 0) finished_.notify_all();
        }
    }

    std::mutex turn_, lock_;
    std::condition_variable wake_, finished_;
    const std::function<void(int)>* task_ = nullptr;
    std::vector<std::exception_ptr>* failures_ = nullptr;
    int count_ = 0, pending_ = 0, started_ = 0;
    std::uint64_t generation_ = 0;
};

}  // namespace cas::gpu
