// run_kernel for a build without xeus: the kernel cannot start, and says what is missing.
#include "kernel.hpp"

#include <iostream>

namespace cas::jupyter {

int run_kernel(const std::string&) {
  std::cerr << "cas: this cas was built without the Jupyter kernel: install xeus-dev, cppzmq-dev and "
               "nlohmann-json3-dev (sh .ci/setup does) and build again\n";
  return 1;
}

}  // namespace cas::jupyter
