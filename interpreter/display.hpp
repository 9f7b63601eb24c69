#pragma once
// Where tables and pictures go. In a terminal or a script the teaching tables are text on the
// interpreter's output and a picture needs a file name; in a notebook (the Jupyter kernel) each
// table and picture is shown in the page as a rich display, its plain-text form beside it.
#include <string>
#include <utility>
#include <vector>

namespace cas {

// One thing to show, in several forms: (MIME type, content) pairs, "text/plain" always among them.
struct MimeBundle {
  std::vector<std::pair<std::string, std::string>> forms;
  const std::string* form(const std::string& mime_type) const {
    for (const auto& [type, content] : forms)
      if (type == mime_type) return &content;
    return nullptr;
  }
};

class Display {
 public:
  virtual ~Display() = default;
  // Shows the bundle after everything the statement printed so far.
  virtual void show(const MimeBundle& bundle) = 0;
};

}  // namespace cas
