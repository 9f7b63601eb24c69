# Writes OUT: one C++ initializer entry per stdlib file, as a raw string.
# Usage: cmake -DOUT=file.inc -DFILES="a.cas;b.cas" -P EmbedStdlib.cmake
set(content "")
foreach(file IN LISTS FILES)
  file(READ "${file}" text)
  get_filename_component(name "${file}" NAME)
  string(APPEND content "{\"stdlib/${name}\", R\"cas_stdlib(${text})cas_stdlib\"},\n")
endforeach()
file(WRITE "${OUT}.tmp" "${content}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUT}.tmp" "${OUT}")
