#include "rich_value.hpp"

#include "algebra/values/format.hpp"
#include "algebra/teaching/teaching_html.hpp"
#include "algebra/values/latex.hpp"
#include "interpreter/repl.hpp"

#include <optional>

namespace cas::jupyter {

namespace {

using teaching::escape_html;

// The terms, entries and 64-bit words of digits of v, counted up to `limit` (then limit + 1).
size_t parts_of(const Value& v, size_t limit) {
  switch (v.kind()) {
    case Kind::Int: return 1 + fmpz_size(v.as_int());
    case Kind::ZPoly: return static_cast<size_t>(v.as_zpoly().length());
    case Kind::ModPoly: return static_cast<size_t>(v.as_modpoly().length());
    case Kind::Str: return 1 + v.as_str().size() / 8;
    case Kind::Vec: {
      if (v.packed_residues() || v.vec_size() > limit) return v.vec_size();
      size_t parts = 1;
      for (const Value& item : v.as_vec()) {
        parts += parts_of(item, limit);
        if (parts > limit) return limit + 1;
      }
      return parts;
    }
    default: return 1;
  }
}

// The whole value's text, or nothing when it has more parts or characters than the page takes.
std::optional<std::string> whole_text(const Value& v) {
  if (parts_of(v, max_unfolded_parts) > max_unfolded_parts) return std::nullopt;
  FormatOptions whole_options = repl_format_options();
  whole_options.elide_above = 0;
  std::string whole = format(v, whole_options);
  if (whole.size() > max_unfolded_characters) return std::nullopt;
  return whole;
}

// The elided form as the summary of a <details> whose body is the whole value.
std::string unfoldable_html(const std::string& elided, const std::optional<std::string>& whole) {
  std::string html = "<details><summary><code>" + escape_html(elided) + "</code></summary>";
  if (whole)
    html += "<pre style=\"white-space: pre-wrap; word-break: break-all\">" + escape_html(*whole) + "</pre>";
  else
    html += "<p>too long for the page; print(ans) shows it whole.</p>";
  return html + "</details>";
}

}  // namespace

MimeBundle value_bundle(const Value& v) {
  const std::string shown = format(v, repl_format_options());
  MimeBundle bundle{{{"text/plain", shown}}};
  const std::optional<std::string> whole = whole_text(v);
  // Without the whole text, the elision's "..." tells (printed values are valid input: no "..."
  // but inside a string).
  const bool elided = whole ? *whole != shown : shown.find("...") != std::string::npos;
  if (elided) {
    bundle.forms.emplace_back("text/html", unfoldable_html(shown, whole));
  } else if (std::string latex = format_latex(v, repl_format_options()); !latex.empty()) {
    bundle.forms.emplace_back("text/latex", std::move(latex));
  }
  return bundle;
}

}  // namespace cas::jupyter
