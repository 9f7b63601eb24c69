// The command line: `cas` (REPL), `cas file.cas [args]`, `cas -e 'expr'`, `cas -`.
#include "algebra/dispatch/calibrate.hpp"
#include "algebra/dispatch/dispatch.hpp"
#include "algebra/support/error.hpp"
#include "algebra/values/format.hpp"
#include "gpu/ntt.hpp"
#include "gpu/ranks.hpp"
#include "interpreter/interpreter.hpp"
#include "interpreter/interrupt_mask.hpp"
#include "interpreter/jupyter/kernel.hpp"
#include "interpreter/jupyter/kernelspec.hpp"
#include "interpreter/repl.hpp"
#include "interpreter/report.hpp"
#include "interpreter/stdout_flush.hpp"

#include <flint/flint.h>
#include <pthread.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

const char* usage =
    "usage: cas [options] [file.cas [args...]]\n"
    "  cas                 start the interactive session (REPL)\n"
    "  cas file.cas [args] run a script; its arguments are in the vector `args`\n"
    "  cas -e 'expr'       evaluate statements and print their values\n"
    "  cas -               read a script from standard input\n"
    "options:\n"
    "  -q, --quiet         no banner in the REPL\n"
    "  --calibrate         measure the engines here (FLINT against the CPU's transforms, the GPU\n"
    "                      against the CPU when there is one, FLINT's gcd, resultant, roots and\n"
    "                      multipoint routines against cas's algorithms) and save the crossovers\n"
    "  --install-kernel [--user | --prefix DIR | --sys-prefix]\n"
    "                      install the Jupyter kernelspec cas for this user (the default), under\n"
    "                      DIR/share/jupyter/kernels/cas, or under the running Python environment\n"
    "  --jupyter-kernel -f CONNECTION_FILE\n"
    "                      serve as a Jupyter kernel (Jupyter starts this from the kernelspec)\n"
    "  -h, --help          this text\n"
    "  --version           the version\n";

struct Options {
  bool quiet = false;
  bool calibrate = false;
  bool install_kernel = false;
  std::vector<std::string> kernelspec_options;  // after --install-kernel
  std::string kernel_connection_file;           // --jupyter-kernel -f FILE
  std::vector<std::string> expressions;
  std::string script;  // "-" for stdin
  std::vector<std::string> script_args;
};

// Returns false (after a message) on bad usage.
bool parse_arguments(int argc, char** argv, Options& o, int& exit_status) {
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    if (!o.script.empty()) {
      o.script_args.push_back(a);
    } else if (a == "-h" || a == "--help") {
      std::cout << usage;
      exit_status = 0;
      return false;
    } else if (a == "--version") {
      std::cout << "cas " CAS_VERSION "\n";
      exit_status = 0;
      return false;
    } else if (a == "--calibrate") {
      o.calibrate = true;
    } else if (a == "--install-kernel") {
      o.install_kernel = true;
      o.kernelspec_options.assign(argv + i + 1, argv + argc);
      return true;
    } else if (a == "--jupyter-kernel") {
      if (i + 2 >= argc || std::string(argv[i + 1]) != "-f") {
        std::cerr << "cas: --jupyter-kernel needs -f CONNECTION_FILE\n" << usage;
        exit_status = 2;
        return false;
      }
      o.kernel_connection_file = argv[i + 2];
      i += 2;
    } else if (a == "-q" || a == "--quiet") {
      o.quiet = true;
    } else if (a == "-e") {
      if (i + 1 >= argc) {
        std::cerr << "cas: -e needs an expression\n" << usage;
        exit_status = 2;
        return false;
      }
      o.expressions.push_back(argv[++i]);
    } else if (a == "-" || a[0] != '-') {
      o.script = a;
    } else {
      std::cerr << "cas: unknown option '" << a << "'\n" << usage;
      exit_status = 2;
      return false;
    }
  }
  return true;
}

// Scripts print every statement not ended by ';', in full, passed on while the script runs on.
void print_value(const cas::Value& v, const cas::Statement& s) {
  if (!s.silent) {
    std::cout << cas::format(v) << "\n";
    cas::flush_soon(std::cout);
  }
  cas::report_notices(std::cout, std::cerr);
}

int run_source(cas::Interpreter& interp, const std::string& name, const std::string& text) {
  std::string body = text.rfind("#!", 0) == 0 ? text.substr(std::min(text.find('\n'), text.size())) : text;
  try {
    interp.run(interp.parse(std::make_shared<cas::Source>(cas::Source{name, body})), print_value);
  } catch (const cas::Error& e) {
    std::cout.flush();
    cas::report_notices(std::cout, std::cerr);
    cas::report_error(std::cerr, e, false, cas::color_wanted(2));
    return 1;
  }
  cas::report_notices(std::cout, std::cerr);
  return 0;
}

int run_script(cas::Interpreter& interp, const Options& o) {
  std::vector<cas::Value> args;
  for (const auto& a : o.script_args) args.push_back(cas::Value::str(a));
  interp.global(interp.global_slot("args")) = cas::Value::vec(std::move(args));
  if (o.script == "-") {
    std::stringstream text;
    text << std::cin.rdbuf();
    return run_source(interp, "<stdin>", text.str());
  }
  try {
    interp.run_file(o.script, print_value);
  } catch (const cas::Error& e) {
    std::cout.flush();
    cas::report_notices(std::cout, std::cerr);
    cas::report_error(std::cerr, e, false, cas::color_wanted(2));
    return 1;
  } catch (const cas::DomainError& e) {
    std::cout.flush();
    cas::report_notices(std::cout, std::cerr);
    std::cerr << "cas: " << e.what() << "\n";
    return 1;
  }
  cas::report_notices(std::cout, std::cerr);
  return 0;
}

// Measures, saves and reports the crossovers; the table goes to stderr, the file name to stdout.
int run_calibration() {
  try {
    cas::Crossovers c = cas::calibrate(std::cerr);
    cas::save_crossovers(c);
    cas::set_crossovers(c);
    for (const auto& line : cas::gpu_report()) std::cout << line << "\n";
    return 0;
  } catch (const cas::DomainError& e) {
    std::cerr << "cas: " << e.what() << "\n";
    return 1;
  }
}

// The path of this program, for the kernelspec's argv.
std::string this_program() {
  std::error_code error;
  const std::filesystem::path path = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) throw std::runtime_error("cannot find the path of this program: " + error.message());
  return path.string();
}

int install_kernel(const Options& o) {
  if (!cas::jupyter::kernel_built()) {
    std::cerr << "cas: this cas was built without the Jupyter kernel, so a kernelspec would fail: install "
                 "xeus-dev, cppzmq-dev and nlohmann-json3-dev (sh .ci/setup does) and build again\n";
    return 1;
  }
  try {
    const std::string folder = cas::jupyter::kernelspec_folder(cas::jupyter::parse_kernelspec_options(o.kernelspec_options));
    cas::jupyter::write_kernelspec(folder, this_program());
    std::cout << "installed the Jupyter kernelspec cas in " << folder << "\n";
    return 0;
  } catch (const std::invalid_argument& e) {
    std::cerr << "cas: " << e.what() << "\n" << usage;
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "cas: " << e.what() << "\n";
    return 1;
  }
}

int cas_main(int argc, char** argv) {
  Options o;
  int exit_status = 0;
  if (!parse_arguments(argc, argv, o, exit_status)) return exit_status;
  if (o.calibrate) return run_calibration();
  if (o.install_kernel) return install_kernel(o);
  if (!o.kernel_connection_file.empty()) {
    std::jthread warm_up(cas::gpu::warm_up);  // as in the REPL: the GPU's context while Jupyter connects
    return cas::jupyter::run_kernel(o.kernel_connection_file);
  }
  cas::Interpreter interp(std::cout);
  for (size_t i = 0; i < o.expressions.size(); i++)
    if (int status = run_source(interp, "<-e>", o.expressions[i])) return status;
  if (!o.script.empty()) return run_script(interp, o);
  if (!o.expressions.empty()) return 0;
  if (!isatty(0)) {  // piped input without a tty: run it as a script
    Options piped = o;
    piped.script = "-";
    return run_script(interp, piped);
  }
  cas::ReplOptions repl;
  repl.quiet = o.quiet;
  // The REPL waits for its user: the GPU's context is created meanwhile (0.26-0.35 s on the
  // H100 machine), not in the first statement that uses the GPU.
  std::jthread warm_up(cas::gpu::warm_up);  // joined when the REPL ends
  return cas::run_repl(interp, repl);
}

struct MainArgs {
  int argc;
  char** argv;
  int status;
};

}  // namespace

// The interpreter recurses on the C++ stack (nested expressions, recursive cas
// functions up to Interpreter::max_depth calls), so it runs on a thread with a
// large stack; the memory is reserved, not used, until needed.
int main(int argc, char** argv) {
  // Under mpirun, ranks other than 0 serve rank 0's GPU engine here and end with it.
  if (!cas::gpu::join_ranks(&argc, &argv)) return 0;
  MainArgs args{argc, argv, 0};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, size_t{1} << 30);
  pthread_t thread;
  // Ctrl-C must reach the interpreter's thread: in the REPL it interrupts that thread's pending
  // read (repl.cpp). This thread only waits, so it blocks SIGINT before the other starts, and the
  // other unblocks it (the kernel gives the signal to a thread that does not block it).
  cas::block_interrupts_in_this_thread();
  auto body = [](void* p) -> void* {
    cas::unblock_interrupts_in_this_thread();
    auto* a = static_cast<MainArgs*>(p);
    a->status = cas_main(a->argc, a->argv);
    flint_cleanup();  // FLINT's per-thread caches, which die with this thread
    return nullptr;
  };
  if (pthread_create(&thread, &attr, body, &args) != 0) {
    cas::unblock_interrupts_in_this_thread();
    return cas_main(argc, argv);
  }
  pthread_join(thread, nullptr);
  std::cout.flush();
  return args.status;
}
