#pragma once
// Which threads take Ctrl-C (SIGINT). The signal goes to any thread that does not block it, and
// it belongs to the thread that runs statements (the REPL's, the script runner's, the kernel's
// worker): every other thread cas starts blocks it.
#include <pthread.h>

#include <csignal>
#include <thread>
#include <utility>

namespace cas {

inline void set_interrupts_in_this_thread(int how) {  // SIG_BLOCK or SIG_UNBLOCK
  sigset_t interrupt;
  sigemptyset(&interrupt);
  sigaddset(&interrupt, SIGINT);
  pthread_sigmask(how, &interrupt, nullptr);
}

inline void block_interrupts_in_this_thread() { set_interrupts_in_this_thread(SIG_BLOCK); }
inline void unblock_interrupts_in_this_thread() { set_interrupts_in_this_thread(SIG_UNBLOCK); }

// Holds SIGINT back from the calling thread while it lives; one that comes meanwhile is handled
// when it ends, on this thread.
class InterruptsHeld {
 public:
  InterruptsHeld() {
    sigset_t interrupt;
    sigemptyset(&interrupt);
    sigaddset(&interrupt, SIGINT);
    pthread_sigmask(SIG_BLOCK, &interrupt, &previous_);
  }
  ~InterruptsHeld() { pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }
  InterruptsHeld(const InterruptsHeld&) = delete;
  InterruptsHeld& operator=(const InterruptsHeld&) = delete;

 private:
  sigset_t previous_;
};

// A thread that blocks SIGINT from its start (it inherits the mask it is created with).
template <class Body>
std::thread thread_without_interrupts(Body&& body) {
  sigset_t interrupt, previous;
  sigemptyset(&interrupt);
  sigaddset(&interrupt, SIGINT);
  pthread_sigmask(SIG_BLOCK, &interrupt, &previous);
  std::thread thread(std::forward<Body>(body));
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  return thread;
}

}  // namespace cas
