#pragma once
// The functions of stdlib/*.cas, written in cas itself and compiled into the
// binary. They are parsed on first use of any of them, so start-up stays fast.
#include <string>
#include <utility>
#include <vector>

namespace cas {

const std::vector<std::pair<std::string, std::string>>& stdlib_sources();  // (file name, text)
bool stdlib_defines(const std::string& name);
std::vector<std::string> stdlib_function_names();

}  // namespace cas
