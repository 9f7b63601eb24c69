#pragma once
// `cas --jupyter-kernel -f CONNECTION_FILE`: cas as a Jupyter kernel on xeus. The same
// interpreter as the REPL runs each cell with the REPL's semantics (values shown, `;` silent,
// session commands, errors located in the cell, the state kept after an error or an interrupt).
#include <string>

namespace cas::jupyter {

// Serves the connection until the frontend shuts the kernel down; returns the exit status.
// Without xeus at build time it says so on stderr and returns 1.
int run_kernel(const std::string& connection_file);

}  // namespace cas::jupyter
