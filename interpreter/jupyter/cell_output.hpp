#pragma once
// What a running notebook cell produces, in order: text on stdout and stderr, rich displays
// (tables, pictures) and statement values. The interpreter's thread appends; the kernel's
// thread takes the events every few milliseconds and publishes them, so that a long cell
// shows its output as it comes.
#include "interpreter/display.hpp"

#include <mutex>
#include <streambuf>
#include <string>
#include <vector>

namespace cas::jupyter {

struct OutputEvent {
  enum class Kind { stdout_text, stderr_text, display, value };
  Kind kind;
  std::string text;   // the streams
  MimeBundle bundle;  // display and value
};

class CellOutput : public Display {
 public:
  void append_text(OutputEvent::Kind stream, const char* text, size_t length);
  void show(const MimeBundle& bundle) override;
  void show_value(MimeBundle bundle);
  // The events since the last call, adjacent text on one stream merged.
  std::vector<OutputEvent> take();

 private:
  std::mutex mutex_;
  std::vector<OutputEvent> events_;
};

// An unbuffered stream buffer that appends everything written to one stream of a CellOutput.
class CellStreamBuf : public std::streambuf {
 public:
  CellStreamBuf(CellOutput& output, OutputEvent::Kind stream) : output_(output), stream_(stream) {}

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;

 private:
  CellOutput& output_;
  OutputEvent::Kind stream_;
};

}  // namespace cas::jupyter
