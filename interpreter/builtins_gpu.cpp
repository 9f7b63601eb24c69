// gpu(mode) and gpuinfo(): the engine choice, visible and settable from scripts.
#include "algebra/dispatch/dispatch.hpp"
#include "builtin_args.hpp"
#include "interpreter.hpp"

#include <ostream>

namespace cas {

namespace {

Value gpu_mode_builtin(CallContext& c) {
  if (c.args.empty()) return Value::str(gpu_mode_name(gpu_mode()));
  GpuMode mode;
  if (!parse_gpu_mode(str_arg(c, 0, "gpu"), mode))
    throw DomainError("gpu: the mode must be \"auto\", \"on\" or \"off\", not " + describe(c.args[0]));
  set_gpu_mode(mode);
  if (std::string caveat = gpu_mode_caveat(mode); !caveat.empty()) post_notice(std::move(caveat));
  return Value();
}

Value gpuinfo(CallContext& c) {
  for (const auto& line : gpu_report()) c.interp.out() << line << "\n";
  return Value();
}

}  // namespace

void register_gpu_builtins(Registry& r) {
  r.reg("gpu", 0, 1, gpu_mode_builtin,
        "gpu(\"auto\" | \"on\" | \"off\"): where large products and transforms run. auto: on the GPU from the "
        "crossover lengths measured by `cas --calibrate`; on: on the GPU whenever it can; off: never on the GPU "
        "(FLINT, and cas's transforms on the cores for long operands). gpu() returns the current mode. Without a "
        "GPU everything runs on the CPU.");
  r.reg("gpuinfo", 0, gpuinfo, "gpuinfo(): the GPU device, its memory, the mode and the crossover lengths in force.");
}

}  // namespace cas
