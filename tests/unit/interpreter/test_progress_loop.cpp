// The fraction of a statement's outermost `for` loop (interpreter/eval.cpp, ProgressLoop) and the
// print builtin's place in the progress display: a display registered here records the progress
// each time print takes it away, so a loop that prints shows what a display saw at each iteration.
#include "algebra/support/progress.hpp"
#include "interpreter_support.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

namespace {

// Records (iterations done, loop length) at each print; checks that print hides and shows in pairs.
class RecordingDisplay final : public cas::ProgressDisplay {
 public:
  RecordingDisplay() { cas::set_progress_display(this); }
  ~RecordingDisplay() override { cas::set_progress_display(nullptr); }
  void hide() override {
    const cas::ProgressSnapshot s = cas::progress_snapshot();
    seen.emplace_back(s.loop_done, s.loop_total);
    hidden++;
  }
  void show() override { hidden--; }

  std::vector<std::pair<uint64_t, uint64_t>> seen;
  int hidden = 0;
};

using Seen = std::vector<std::pair<uint64_t, uint64_t>>;

Seen loop_fractions(const std::string& source) {
  cas::test::Session s;
  RecordingDisplay display;
  cas::progress_reset();
  s.eval(source);
  CHECK(display.hidden == 0);
  return display.seen;
}

}  // namespace

TEST_CASE("a top-level for loop records its iterations over its length", "[progress][eval]") {
  CHECK(loop_fractions("for i in 1..4 { print(i) }") == Seen{{0, 4}, {1, 4}, {2, 4}, {3, 4}});
  CHECK(loop_fractions("for e in [7, 8, 9] { print(e) }") == Seen{{0, 3}, {1, 3}, {2, 3}});
  // continue counts the iteration; the loop's slot is free once it ends (break included)
  CHECK(loop_fractions("for i in 1..3 { if i == 2 { continue }; print(i) }\nprint(0)") ==
        Seen{{0, 3}, {2, 3}, {0, 0}});
  CHECK(loop_fractions("for i in 1..100 { print(i); if i == 2 { break } }\nprint(0)") ==
        Seen{{0, 100}, {1, 100}, {0, 0}});
  // inside an if at the top level it is still the statement's outermost loop
  CHECK(loop_fractions("if true { for i in 5..6 { print(i) } }") == Seen{{0, 2}, {1, 2}});
}

TEST_CASE("only the outermost loop of a top-level statement records a fraction", "[progress][eval]") {
  // a nested loop leaves it to the outer one
  CHECK(loop_fractions("for i in 1..2 { for j in 1..3 { print(j) } }") ==
        Seen{{0, 2}, {0, 2}, {0, 2}, {1, 2}, {1, 2}, {1, 2}});
  // a loop in a function's body records nothing, even when called at the top level
  CHECK(loop_fractions("fn f() { for k in 1..2 { print(k) } }\nf()") == Seen{{0, 0}, {0, 0}});
  // while loops have no known length; a for inside one is the outermost for
  CHECK(loop_fractions("n = 0\nwhile n < 1 { n = n + 1; for i in 1..2 { print(i) } }") == Seen{{0, 2}, {1, 2}});
  // an empty range, or one too long to count, takes no slot
  CHECK(loop_fractions("for i in 3..1 { print(i) }\nfor i in 1..1 { print(i) }") == Seen{{0, 1}});
  CHECK(loop_fractions("for i in 0..2^70 { print(i); break }") == Seen{{0, 0}});
}
