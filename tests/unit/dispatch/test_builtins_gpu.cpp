// gpus(), gpus(n) and gpuinfo() (interpreter/builtins_gpu.cpp) and the report gpuinfo() prints
// (algebra/dispatch/dispatch.cpp: gpu_report): on every machine, with or without GPUs.
#include "algebra/dispatch/dispatch.hpp"
#include "gpu/ntt.hpp"
#include "interpreter_support.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

using cas::test::error_message;
using cas::test::Session;

namespace {

// Restores the limit on the GPUs used when the test ends.
struct GpuLimitGuard {
  int saved;
  GpuLimitGuard() : saved(cas::set_gpus_used(0)) { cas::set_gpus_used(saved); }
  ~GpuLimitGuard() { cas::set_gpus_used(saved); }
};

bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

}  // namespace

TEST_CASE("gpus() counts the GPUs in use, 0 without one", "[dispatch][gpus]") {
  GpuLimitGuard guard;
  Session s;
  const cas::Value n = s.eval("gpus()");
  REQUIRE(n.is(cas::Kind::Int));
  CHECK(s.show("gpus()") == std::to_string(cas::gpus_in_use()));
  if (!cas::gpu_usable()) CHECK(s.show("gpus()") == "0");
  else CHECK(cas::gpus_in_use() >= 1);
}

TEST_CASE("gpus(n) limits the GPUs in use and returns nothing", "[dispatch][gpus]") {
  GpuLimitGuard guard;
  Session s;
  const int all = cas::gpus_in_use();
  CHECK(s.eval("gpus(1)").is(cas::Kind::None));
  CHECK(s.show("gpus()") == std::to_string(std::min(all, 1)));
  // A limit above the GPUs there are only bounds: all of them (none without a GPU).
  CHECK(s.eval("gpus(10^30)").is(cas::Kind::None));
  CHECK(s.show("gpus()") == std::to_string(all));
  CHECK(s.eval("gpus(2)").is(cas::Kind::None));
  CHECK(s.show("gpus()") == std::to_string(std::min(all, 2)));
}

TEST_CASE("gpus(n) wants an integer of at least 1", "[dispatch][gpus]") {
  GpuLimitGuard guard;
  CHECK(error_message("gpus(0)") == "gpus: argument 1 must be at least 1, not 0");
  CHECK(error_message("gpus(-2)") == "gpus: argument 1 must be at least 1, not -2");
  CHECK(error_message("gpus(-10^30)") == "gpus: argument 1 must be at least 1, not -1000000000000000000000000000000");
  CHECK(starts_with(error_message("gpus(1.5)"), "gpus: argument 1 must be an integer, not "));
  CHECK(starts_with(error_message("gpus(\"all\")"), "gpus: argument 1 must be an integer, not "));
  CHECK(starts_with(error_message("gpus(2 mod 5)"), "gpus: argument 1 must be an integer, not "));
  CHECK_FALSE(error_message("gpus(1, 2)").empty());
}

TEST_CASE("gpuinfo() prints the report: the device first, then the mode", "[dispatch][gpus]") {
  Session s;
  cas::set_crossovers(cas::Crossovers{});
  CHECK(s.eval("gpuinfo()").is(cas::Kind::None));
  std::string expected;
  for (const auto& line : cas::gpu_report()) expected += line + "\n";
  CHECK(s.out.str() == expected);
  const std::vector<std::string> report = cas::gpu_report();
  REQUIRE(report.size() >= 3);
  CHECK(starts_with(report[0], "device: "));
  if (cas::gpus_in_use() <= 1) {
    // One GPU or none: the device as the engine describes it, and nothing about several.
    CHECK(starts_with(report[0], "device: " + cas::gpu::describe()));
    CHECK(starts_with(report[1], "mode: "));
    CHECK(std::find(report.begin(), report.end(), "crossovers (defaults):") != report.end());
    CHECK(std::none_of(report.begin(), report.end(), [](const std::string& l) { return starts_with(l, "  GPU "); }));
  } else {
    const int n = cas::gpus_in_use();
    CHECK(starts_with(report[0], "device: " + std::to_string(n) + " GPUs in use"));
    for (int d = 0; d < n; d++) CHECK(starts_with(report[1 + d], "  GPU " + std::to_string(d) + ": "));
    CHECK(starts_with(report[1 + n], "mode: "));
    CHECK(std::find(report.begin(), report.end(), "crossovers (defaults; they apply to each GPU):") != report.end());
  }
  if (!cas::gpu_usable()) {
    // Without a GPU the report is the device's reason, the mode and the tables, as ever.
    CHECK(report[0] == "device: " + cas::gpu::describe());
    CHECK(report[1] == std::string("mode: ") + cas::gpu_mode_name(cas::gpu_mode()) +
                           " (no usable GPU: everything runs on the CPU)");
    CHECK(report[2] == "crossovers (defaults):");
  }
}
