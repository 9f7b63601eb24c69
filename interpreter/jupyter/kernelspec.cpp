#include "kernelspec.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <utility>

namespace cas::jupyter {

namespace {

// The logos, embedded from interpreter/jupyter/logo/ at build time.
const std::vector<std::pair<std::string, std::string>> logo_files = {
#include "kernel_logos.inc"
};

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

// Jupyter's user data folder on Linux: $JUPYTER_DATA_DIR, else $XDG_DATA_HOME/jupyter, else
// ~/.local/share/jupyter.
std::string user_data_folder() {
  if (std::string dir = env("JUPYTER_DATA_DIR"); !dir.empty()) return dir;
  if (std::string xdg = env("XDG_DATA_HOME"); !xdg.empty()) return xdg + "/jupyter";
  if (std::string home = env("HOME"); !home.empty()) return home + "/.local/share/jupyter";
  throw std::runtime_error("neither JUPYTER_DATA_DIR, XDG_DATA_HOME nor HOME is set: use --prefix DIR");
}

// The prefix of the Python environment that runs Jupyter: an active virtual or conda
// environment, else what python3 calls sys.prefix.
std::string environment_prefix() {
  if (std::string venv = env("VIRTUAL_ENV"); !venv.empty()) return venv;
  if (std::string conda = env("CONDA_PREFIX"); !conda.empty()) return conda;
  std::unique_ptr<FILE, int (*)(FILE*)> python(popen("python3 -c 'import sys; print(sys.prefix)' 2>/dev/null", "r"),
                                               pclose);
  std::string prefix;
  if (python) {
    char buf[4096];
    while (fgets(buf, sizeof buf, python.get())) prefix += buf;
  }
  while (!prefix.empty() && (prefix.back() == '\n' || prefix.back() == '\r')) prefix.pop_back();
  if (prefix.empty()) throw std::runtime_error("--sys-prefix: no python3 to ask for its prefix; use --prefix DIR");
  return prefix;
}

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

void write_file(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream file(path, std::ios::binary);
  file << bytes;
  file.close();
  if (!file) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace

KernelspecTarget parse_kernelspec_options(const std::vector<std::string>& options) {
  KernelspecTarget target;
  for (size_t i = 0; i < options.size(); i++) {
    if (options[i] == "--user") {
      target.where = KernelspecTarget::Where::user;
    } else if (options[i] == "--sys-prefix") {
      target.where = KernelspecTarget::Where::sys_prefix;
    } else if (options[i] == "--prefix") {
      if (i + 1 >= options.size()) throw std::invalid_argument("--prefix needs a folder");
      target.where = KernelspecTarget::Where::prefix;
      target.prefix = options[++i];
    } else {
      throw std::invalid_argument("--install-kernel takes --user, --prefix DIR or --sys-prefix, not '" + options[i] +
                                  "'");
    }
  }
  return target;
}

std::string kernelspec_folder(const KernelspecTarget& target) {
  switch (target.where) {
    case KernelspecTarget::Where::prefix: return target.prefix + "/share/jupyter/kernels/cas";
    case KernelspecTarget::Where::sys_prefix: return environment_prefix() + "/share/jupyter/kernels/cas";
    case KernelspecTarget::Where::user: break;
  }
  return user_data_folder() + "/kernels/cas";
}

std::string kernel_json(const std::string& program_path) {
  return "{\n"
         "  \"argv\": [" + json_string(program_path) + ", \"--jupyter-kernel\", \"-f\", \"{connection_file}\"],\n"
         "  \"display_name\": \"cas\",\n"
         "  \"language\": \"cas\",\n"
         "  \"interrupt_mode\": \"signal\",\n"
         "  \"metadata\": {}\n"
         "}\n";
}

void write_kernelspec(const std::string& folder, const std::string& program_path) {
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error) throw std::runtime_error("cannot create " + folder + ": " + error.message());
  write_file(std::filesystem::path(folder) / "kernel.json", kernel_json(program_path));
  for (const auto& [name, bytes] : logo_files) write_file(std::filesystem::path(folder) / name, bytes);
}

bool kernel_built() {
#ifdef CAS_JUPYTER_KERNEL
  return true;
#else
  return false;
#endif
}

}  // namespace cas::jupyter
