# Writes OUT: one C++ initializer entry {"name", "bytes"} per file, the bytes as hex escapes,
# so that binary files (the kernelspec's logos) travel inside the program.
# Usage: cmake -DOUT=file.inc -DFILES="a.png;b.svg" -P EmbedFiles.cmake
set(content "")
foreach(file IN LISTS FILES)
  file(READ "${file}" hex HEX)
  string(REGEX REPLACE "(..)" "\\\\x\\1" escaped "${hex}")
  get_filename_component(name "${file}" NAME)
  file(SIZE "${file}" size)
  string(APPEND content "{\"${name}\", std::string(\"${escaped}\", ${size})},\n")
endforeach()
file(WRITE "${OUT}.tmp" "${content}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUT}.tmp" "${OUT}")
