#pragma once
// `cas --install-kernel`: the kernelspec that lets Jupyter start cas as a kernel: kernel.json
// (argv, display name "cas", language cas, interrupts by signal) and the logos, written to the
// user's Jupyter data folder, to DIR/share/jupyter/kernels/cas (--prefix DIR), or to the same
// place under the running Python environment's prefix (--sys-prefix).
#include <string>
#include <vector>

namespace cas::jupyter {

struct KernelspecTarget {
  enum class Where { user, prefix, sys_prefix } where = Where::user;
  std::string prefix;  // for Where::prefix
};

// Reads the options after --install-kernel; throws std::invalid_argument on anything else.
KernelspecTarget parse_kernelspec_options(const std::vector<std::string>& options);

// The folder the kernelspec goes to: .../share/jupyter/kernels/cas or <user data>/kernels/cas.
std::string kernelspec_folder(const KernelspecTarget& target);

// kernel.json for the program at `program_path`.
std::string kernel_json(const std::string& program_path);

// Writes kernel.json and the logos into `folder` (created as needed); throws std::runtime_error
// naming the file that could not be written.
void write_kernelspec(const std::string& folder, const std::string& program_path);

// True when this build has the kernel (xeus was found when cas was built).
bool kernel_built();

}  // namespace cas::jupyter
