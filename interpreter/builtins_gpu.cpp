// gpu(mode), gpus(n) and gpuinfo(): the engine choice, visible and settable from scripts.
#include "algebra/dispatch/dispatch.hpp"
#include "builtin_args.hpp"
#include "interpreter.hpp"

#include <climits>
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

// gpus(): how many GPUs are in use; gpus(n): at most n of them. A limit above the GPUs there are
// (any n on a machine without one) is accepted: it only bounds.
Value gpus_builtin(CallContext& c) {
  if (c.args.empty()) return Value::integer(gpus_in_use());
  const fmpz* n = int_arg(c, 0, "gpus");
  if (fmpz_cmp_si(n, 1) < 0) throw DomainError(arg_name("gpus", 0) + " must be at least 1, not " + fmpz_to_string(n));
  set_gpus_used(fmpz_cmp_si(n, INT_MAX) > 0 ? INT_MAX : static_cast<int>(fmpz_get_si(n)));
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
  r.reg("gpus", 0, 1, gpus_builtin,
        "gpus(n): use at most n of the GPUs (n >= 1; CUDA_VISIBLE_DEVICES chooses and orders them, "
        "CAS_GPU_DEVICES sets the limit at startup). Large multi-modular products, convolutions and powers in Z[x], "
        "integer products, products modulo a big p through primes and Z[x] resultants are shared among the GPUs in "
        "use, and long products modulo one NTT prime between two of them, with the same results as on one; "
        "everything else runs on the first. gpus() returns how many are in "
        "use, 0 without a GPU.");
  r.reg("gpuinfo", 0, gpuinfo,
        "gpuinfo(): the GPUs in use, their memory, whether they share work, the mode and the crossover lengths in "
        "force.");
}

}  // namespace cas
