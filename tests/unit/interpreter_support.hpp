#pragma once
// Helpers shared by the unit tests that drive the interpreter: evaluate a
// source and print the result, catch the error a source raises, and run a
// test on a thread with a large stack (as main.cpp runs the interpreter).
#include "algebra/dispatch/dispatch.hpp"
#include "algebra/values/format.hpp"
#include "interpreter/interpreter.hpp"

#include <catch2/catch.hpp>
#include <pthread.h>

#include <cstdlib>
#include <exception>
#include <functional>
#include <optional>
#include <sstream>
#include <string>

namespace cas::test {

// A fresh interpreter whose print() output is kept in `out`. The GPU mode is the process's, not the
// interpreter's: a source that sets it (gpu("off")) leaves it as it found it when the session ends,
// so the tests that follow see the mode they expect whatever the order they run in.
struct Session {
  std::ostringstream out;
  Interpreter interp{out};
  GpuMode mode_at_start = gpu_mode();
  Session() = default;
  ~Session() { set_gpu_mode(mode_at_start); }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  Value eval(const std::string& text) { return interp.eval_string(text, "<test>"); }
  // The printed form of the last statement's value (as scripts print it).
  std::string show(const std::string& text) { return format(eval(text)); }
  // The error `text` raises, or nothing when it runs without one.
  std::optional<Error> error(const std::string& text) {
    try {
      eval(text);
    } catch (const Error& e) {
      return e;
    }
    return std::nullopt;
  }
};

inline std::string show(const std::string& text) { return Session().show(text); }

// The message of the error `source` raises in a fresh session; empty when it raises none.
inline std::string error_message(const std::string& source) {
  auto e = Session().error(source);
  return e ? e->message() : "";
}

// The value of a boolean `source` in `s`.
inline bool holds(Session& s, const std::string& source) {
  Value v = s.eval(source);
  REQUIRE(v.is(Kind::Bool));
  return v.as_bool();
}

// Runs `body` on a thread with a stack of `bytes` (reserved, not used, until
// needed; 1 GiB unless told); rethrows what it throws. Deep recursion tests need it.
inline void on_big_stack(const std::function<void()>& body, size_t bytes = size_t{1} << 30) {
  struct Task {
    const std::function<void()>* body;
    std::exception_ptr failure;
  } task{&body, nullptr};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, bytes);
  pthread_t thread;
  auto run = [](void* p) -> void* {
    auto* t = static_cast<Task*>(p);
    try {
      (*t->body)();
    } catch (...) {
      t->failure = std::current_exception();
    }
    return nullptr;
  };
  REQUIRE(pthread_create(&thread, &attr, run, &task) == 0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
  if (task.failure) std::rethrow_exception(task.failure);
}

// Random trials scale with CAS_TEST_MULTIPLIER (FLINT's flint_test_multiplier()):
// quick by default, long on demand.
inline int trials(int base) {
  const char* m = std::getenv("CAS_TEST_MULTIPLIER");
  double factor = m ? std::atof(m) : 1.0;
  return std::max(1, static_cast<int>(base * factor));
}

}  // namespace cas::test
