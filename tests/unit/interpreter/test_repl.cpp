// The REPL's answer to Ctrl-C (interrupt_response in interpreter/repl.cpp): the signal handler
// only applies it, so the decisions are tested here; the REPL tests under tests/repl type into
// a terminal and cannot time a Ctrl-C against a running operation.
#include <catch2/catch.hpp>

#include "interpreter/repl.hpp"
#include "interpreter_support.hpp"

using cas::InterruptResponse;
using cas::interrupt_response;

TEST_CASE("Ctrl-C at the prompt or at the first press asks the statement to stop", "[repl][interrupt]") {
  CHECK(interrupt_response(false, false, 0) == InterruptResponse::request_stop);
  // at the prompt nothing waits, however many presses came before
  CHECK(interrupt_response(false, true, 0) == InterruptResponse::request_stop);
  CHECK(interrupt_response(false, true, 5) == InterruptResponse::request_stop);
  // a running statement whose earlier stop was already taken (it threw "interrupted")
  CHECK(interrupt_response(true, false, 0) == InterruptResponse::request_stop);
  CHECK(interrupt_response(true, false, 1) == InterruptResponse::request_stop);
}

TEST_CASE("Ctrl-C while a stop waits on one operation explains, then quits", "[repl][interrupt]") {
  CHECK(interrupt_response(true, true, 0) == InterruptResponse::explain_wait);
  CHECK(interrupt_response(true, true, 1) == InterruptResponse::quit);
  CHECK(interrupt_response(true, true, 2) == InterruptResponse::quit);
}

TEST_CASE("a pending Ctrl-C stops a statement before its value is assigned or used", "[repl][interrupt]") {
  cas::test::Session s;
  s.eval("a = 1");
  // set while `2 * 3` ran: the product returns, and the statement stops before the assignment
  cas::interrupt_requested = true;
  auto e = s.error("a = 2 * 3");
  REQUIRE(e);
  CHECK(e->message() == "interrupted");
  CHECK_FALSE(cas::interrupt_requested);  // taken by the statement it stopped
  CHECK(s.show("a") == "1");
  // no operator, no call: the assignment itself looks first
  cas::interrupt_requested = true;
  e = s.error("a = 5");
  REQUIRE(e);
  CHECK(e->message() == "interrupted");
  CHECK(e->where().offset == 4);
  CHECK(s.show("a") == "1");
  CHECK(s.show("a = 6") == "6");  // and the next statement runs
}
