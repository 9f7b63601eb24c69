# Runs every chapter of the tutorial and checks that each line of FACTS (a number or
# result the lecture shows, as cas prints it; '#' starts a comment line) occurs in
# their combined standard output, so that a chapter that loses one of them fails.
#   cmake -DCAS=path/to/cas -DDIR=examples/tutorial -DFACTS=lecture_facts.txt -P check_lecture_facts.cmake
if(NOT CAS OR NOT DIR OR NOT FACTS)
  message(FATAL_ERROR "usage: cmake -DCAS=<cas> -DDIR=<tutorial folder> -DFACTS=<facts file> -P check_lecture_facts.cmake")
endif()

file(GLOB chapters ${DIR}/*.cas)
list(SORT chapters)
set(output "")
foreach(chapter IN LISTS chapters)
  get_filename_component(name ${chapter} NAME)
  execute_process(COMMAND ${CAS} ${name} WORKING_DIRECTORY ${DIR}
                  OUTPUT_VARIABLE chapter_out ERROR_VARIABLE chapter_err RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${name} failed (exit status ${status}):\n${chapter_err}")
  endif()
  string(APPEND output "${chapter_out}")
endforeach()

file(STRINGS ${FACTS} facts)
set(missing "")
set(checked 0)
foreach(fact IN LISTS facts)
  string(STRIP "${fact}" fact)
  if(fact STREQUAL "" OR fact MATCHES "^#")
    continue()
  endif()
  math(EXPR checked "${checked} + 1")
  string(FIND "${output}" "${fact}" at)
  if(at EQUAL -1)
    string(APPEND missing "  ${fact}\n")
  endif()
endforeach()
if(missing)
  message(FATAL_ERROR "the tutorial's output lacks these lecture facts:\n${missing}")
endif()
message(STATUS "all ${checked} lecture facts found")
