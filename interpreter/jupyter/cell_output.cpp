#include "cell_output.hpp"

namespace cas::jupyter {

void CellOutput::append_text(OutputEvent::Kind stream, const char* text, size_t length) {
  std::lock_guard lock(mutex_);
  if (!events_.empty() && events_.back().kind == stream)
    events_.back().text.append(text, length);
  else
    events_.push_back(OutputEvent{stream, std::string(text, length), {}});
}

void CellOutput::show(const MimeBundle& bundle) {
  std::lock_guard lock(mutex_);
  events_.push_back(OutputEvent{OutputEvent::Kind::display, {}, bundle});
}

void CellOutput::show_value(MimeBundle bundle) {
  std::lock_guard lock(mutex_);
  events_.push_back(OutputEvent{OutputEvent::Kind::value, {}, std::move(bundle)});
}

std::vector<OutputEvent> CellOutput::take() {
  std::lock_guard lock(mutex_);
  std::vector<OutputEvent> taken;
  taken.swap(events_);
  return taken;
}

CellStreamBuf::int_type CellStreamBuf::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  const char ch = traits_type::to_char_type(c);
  output_.append_text(stream_, &ch, 1);
  return c;
}

std::streamsize CellStreamBuf::xsputn(const char* s, std::streamsize n) {
  output_.append_text(stream_, s, static_cast<size_t>(n));
  return n;
}

}  // namespace cas::jupyter
