// The Jupyter kernel's parts that need no Jupyter: how a cell splits into code and session
// commands, the ordered output of a running cell, the kernelspec, the notebook's forms of a
// value, and where the teaching builtins send tables and pictures. The protocol itself is
// tested through jupyter_client (tests/jupyter).
#include <catch2/catch.hpp>

#include "algebra/dispatch/dispatch.hpp"
#include "interpreter/commands.hpp"
#include "interpreter/jupyter/cell_output.hpp"
#include "interpreter/jupyter/cell_parts.hpp"
#include "interpreter/jupyter/kernelspec.hpp"
#include "interpreter/jupyter/rich_value.hpp"
#include "interpreter_support.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>

using namespace cas;
using namespace cas::jupyter;

namespace {

struct RecordingDisplay : Display {
  std::vector<MimeBundle> shown;
  void show(const MimeBundle& bundle) override { shown.push_back(bundle); }
};

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::vector<std::string> texts_of(const std::vector<CellPart>& parts) {
  std::vector<std::string> texts;
  for (const auto& p : parts) texts.push_back((p.kind == CellPart::Kind::command ? "cmd " : "code ") + p.text);
  return texts;
}

}  // namespace

TEST_CASE("a cell splits into code and session commands, in order", "[jupyter][cell]") {
  const auto parts = split_cell("a = 1\n:timer on\nb = a + 1\nb\n:explain");
  CHECK(texts_of(parts) ==
        std::vector<std::string>{"code a = 1\n", "cmd :timer on", "code b = a + 1\nb\n", "cmd :explain"});
  CHECK(parts[0].first_line == 1);
  CHECK(parts[2].first_line == 3);
  CHECK(parts[3].first_line == 5);
}

TEST_CASE("a ':' inside an open block is code, and ?name is a call of help", "[jupyter][cell]") {
  const auto parts = split_cell("\n\nfor i in [1, 2] {\n  :not a command\n}\n?gcd");
  REQUIRE(parts.size() == 1);
  CHECK(parts[0].kind == CellPart::Kind::code);
  CHECK(parts[0].first_line == 3);  // the blank lines before the code are not its start
  CHECK(parts[0].text == "for i in [1, 2] {\n  :not a command\n}\nhelp(gcd)\n");
  CHECK(split_cell("  \n\n").empty());
}

TEST_CASE("a cell's output keeps its order and merges adjacent text of one stream", "[jupyter][output]") {
  CellOutput output;
  CellStreamBuf out_buf(output, OutputEvent::Kind::stdout_text), err_buf(output, OutputEvent::Kind::stderr_text);
  std::ostream out(&out_buf), err(&err_buf);
  out << "one " << 1 << '\n';
  out << "two\n";
  err << "notice: x\n";
  output.show(MimeBundle{{{"text/plain", "table"}, {"text/html", "<table></table>"}}});
  out << "three\n";
  output.show_value(MimeBundle{{{"text/plain", "3"}}});
  const auto events = output.take();
  REQUIRE(events.size() == 5);
  CHECK(events[0].kind == OutputEvent::Kind::stdout_text);
  CHECK(events[0].text == "one 1\ntwo\n");
  CHECK(events[1].kind == OutputEvent::Kind::stderr_text);
  CHECK(events[2].kind == OutputEvent::Kind::display);
  CHECK(*events[2].bundle.form("text/html") == "<table></table>");
  CHECK(events[3].text == "three\n");
  CHECK(events[4].kind == OutputEvent::Kind::value);
  CHECK(output.take().empty());
}

TEST_CASE("the kernelspec's options, folder and kernel.json", "[jupyter][kernelspec]") {
  CHECK(parse_kernelspec_options({}).where == KernelspecTarget::Where::user);
  CHECK(parse_kernelspec_options({"--sys-prefix"}).where == KernelspecTarget::Where::sys_prefix);
  const KernelspecTarget prefix = parse_kernelspec_options({"--prefix", "/opt/x"});
  CHECK(prefix.where == KernelspecTarget::Where::prefix);
  CHECK(kernelspec_folder(prefix) == "/opt/x/share/jupyter/kernels/cas");
  CHECK_THROWS_AS(parse_kernelspec_options({"--prefix"}), std::invalid_argument);
  CHECK_THROWS_AS(parse_kernelspec_options({"--system"}), std::invalid_argument);

  const std::string json = kernel_json("/path with \"quotes\"/cas");
  CHECK_THAT(json, Catch::Contains(R"("argv": ["/path with \"quotes\"/cas", "--jupyter-kernel", "-f", "{connection_file}"])"));
  CHECK_THAT(json, Catch::Contains(R"("display_name": "cas")"));
  CHECK_THAT(json, Catch::Contains(R"("language": "cas")"));
  CHECK_THAT(json, Catch::Contains(R"("interrupt_mode": "signal")"));
}

TEST_CASE("the kernelspec is written with its logos", "[jupyter][kernelspec]") {
  const auto folder = std::filesystem::temp_directory_path() / ("cas-kernelspec-test-" + std::to_string(getpid()));
  std::filesystem::remove_all(folder);
  write_kernelspec((folder / "kernels" / "cas").string(), "/usr/bin/cas");
  const auto spec = folder / "kernels" / "cas";
  CHECK(read_file(spec / "kernel.json") == kernel_json("/usr/bin/cas"));
  for (const char* png : {"logo-32x32.png", "logo-64x64.png"}) CHECK(read_file(spec / png).substr(0, 8) == "\x89PNG\r\n\x1a\n");
  CHECK_THAT(read_file(spec / "logo-svg.svg"), Catch::StartsWith("<svg"));
  std::filesystem::remove_all(folder);
}

TEST_CASE("a value in a notebook: the REPL's text and LaTeX, or the whole value one click away", "[jupyter][value]") {
  cas::test::Session s;
  const MimeBundle small = value_bundle(s.eval("3*x^4 - 4*x^2"));
  CHECK(*small.form("text/plain") == "3*x^4 - 4*x^2");
  REQUIRE(small.form("text/latex"));
  CHECK_THAT(*small.form("text/latex"), Catch::Contains("3x^{4} - 4x^{2}"));
  CHECK(small.form("text/html") == nullptr);

  const MimeBundle long_one = value_bundle(s.eval("(1 + x)^80"));
  CHECK_THAT(*long_one.form("text/plain"), Catch::Contains("..."));
  REQUIRE(long_one.form("text/html"));
  const std::string& html = *long_one.form("text/html");
  CHECK_THAT(html, Catch::StartsWith("<details><summary>"));
  CHECK_THAT(html, Catch::Contains(format(s.eval("(1 + x)^80"))));  // the whole value, every term
  CHECK(long_one.form("text/latex") == nullptr);

  // Past max_unfolded_parts terms the whole value is not printed for the page at all.
  const MimeBundle huge = value_bundle(s.eval("randpoly(40000, 17)"));
  REQUIRE(huge.form("text/html"));
  CHECK_THAT(*huge.form("text/html"), Catch::Contains("print(ans) shows it whole"));
  CHECK(huge.form("text/html")->size() < 2000);
  // A long value that the REPL shows whole (an integer) stays a value with its LaTeX.
  const MimeBundle big_integer = value_bundle(s.eval("10^700000"));
  CHECK(big_integer.form("text/html") == nullptr);
  CHECK(big_integer.form("text/latex") != nullptr);
}

TEST_CASE("in a notebook the teaching tables and pictures go to the page, not to the output", "[jupyter][teaching]") {
  cas::test::Session s;
  RecordingDisplay display;
  s.interp.display = &display;
  CHECK(s.show("fftsteps([1, 2, 1, 2, 1, 2, 1, 2], 2 mod 17)") == "[12, 0, 0, 0, 13, 0, 0, 0] mod 17");
  CHECK(s.show("butterfly([1, 2, 1, 2, 1, 2, 1, 2], 2 mod 17, \"stockham\")") == "[12, 0, 0, 0, 13, 0, 0, 0] mod 17");
  s.eval("dftmatrix(4, 4 mod 17, \"svg\")");
  CHECK(s.out.str().empty());
  REQUIRE(display.shown.size() == 3);
  CHECK_THAT(*display.shown[0].form("text/html"), Catch::Contains("<table"));
  CHECK_THAT(*display.shown[0].form("text/plain"), Catch::Contains("stage"));
  CHECK_THAT(*display.shown[1].form("image/svg+xml"), Catch::Contains("<svg"));
  CHECK_THAT(*display.shown[1].form("text/plain"), Catch::Contains("Stockham"));
  CHECK_THAT(*display.shown[2].form("image/svg+xml"), Catch::Contains("<svg"));
  CHECK(take_notices().empty());
}

TEST_CASE("outside a notebook a picture without a file name is a notice, and the tables are text", "[jupyter][teaching]") {
  cas::test::Session s;
  take_notices();
  CHECK(s.show("butterfly([1, 2, 1, 2], 4 mod 17)") == "[6, 0, 15, 0] mod 17");
  const auto notices = take_notices();
  REQUIRE(notices.size() == 1);
  CHECK_THAT(notices[0], Catch::Contains("notebook") && Catch::Contains(".svg"));
  s.eval("fftsteps([1, 2, 1, 2], 4 mod 17)");
  CHECK_THAT(s.out.str(), Catch::Contains("stage"));
  CHECK(cas::test::error_message("butterfly([1, 2], 16 mod 17, \"stockham\", \"stockham\")") ==
        "butterfly: argument 3 must be the name of an SVG file, ending in .svg, or an ordering (\"cooley-tukey\" or "
        "\"stockham\"), not \"stockham\"");
}

TEST_CASE("the session commands shared by the REPL and the kernel", "[jupyter][commands]") {
  cas::test::Session s;
  SessionCommands commands(s.interp, false);
  std::ostringstream out, err;
  const auto ignore_value = [](const Value&) {};
  CHECK(commands.run(":timer on", out, err, ignore_value) == SessionCommands::Outcome::done);
  CHECK(commands.timer());
  commands.run(":timer sideways", out, err, ignore_value);
  CHECK(err.str() == "error: :timer takes on or off\n");
  CHECK(commands.timer());
  s.eval("zz = 5");
  commands.run(":vars", out, err, ignore_value);
  CHECK_THAT(out.str(), Catch::Contains("zz = 5   (int)"));
  CHECK(commands.run("  :quit", out, err, ignore_value) == SessionCommands::Outcome::quit);
  err.str("");
  commands.run(":frobnicate", out, err, ignore_value);
  CHECK(err.str() == "error: unknown command ':frobnicate' (try :help)\n");
  CHECK_THAT(commands.timer_line(1.5), Catch::StartsWith("1.5 ms ["));
  CHECK(expand_help_shorthand("  ?gcd") == "help(gcd)");
  CHECK(expand_help_shorthand("a ? b") == "a ? b");
  CHECK(needs_more_input("for i in [1] {"));
  CHECK_FALSE(needs_more_input("1 + 2"));
  CHECK_FALSE(needs_more_input("1 + )"));  // an error, but not one more lines can mend
}
