#include "rich_value.hpp"

#include "algebra/values/format.hpp"
#include "algebra/teaching/teaching_html.hpp"
#include "algebra/values/latex.hpp"
#include "interpreter/repl.hpp"

namespace cas::jupyter {

namespace {

using teaching::escape_html;

// The elided form as the summary of a <details> whose body is the whole value.
std::string unfoldable_html(const std::string& elided, const std::string& whole) {
  std::string html = "<details><summary><code>" + escape_html(elided) + "</code></summary>";
  if (whole.size() <= max_unfolded_characters)
    html += "<pre style=\"white-space: pre-wrap; word-break: break-all\">" + escape_html(whole) + "</pre>";
  else
    html += "<p>" + std::to_string(whole.size()) + " characters: too long for the page; print(ans) shows it.</p>";
  return html + "</details>";
}

}  // namespace

MimeBundle value_bundle(const Value& v) {
  const std::string shown = format(v, repl_format_options());
  MimeBundle bundle{{{"text/plain", shown}}};
  FormatOptions whole_options = repl_format_options();
  whole_options.elide_above = 0;
  const std::string whole = format(v, whole_options);
  if (whole != shown) {
    bundle.forms.emplace_back("text/html", unfoldable_html(shown, whole));
  } else if (std::string latex = format_latex(v, repl_format_options()); !latex.empty()) {
    bundle.forms.emplace_back("text/latex", std::move(latex));
  }
  return bundle;
}

}  // namespace cas::jupyter
