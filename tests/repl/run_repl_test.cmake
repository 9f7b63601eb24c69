# Types DIR/NAME.in into `cas -q` on a pseudo-terminal (script(1)) and checks that every
# non-empty line of DIR/NAME.expect appears in the session's output.
#   cmake -DCAS=<cas> -DSCRIPT=<script(1)> -DNAME=<name> -DDIR=<folder> -DWORK=<scratch> -P run_repl_test.cmake
if(NOT SCRIPT OR NOT EXISTS "${SCRIPT}")
  message("SKIPPED: script(1) from util-linux is not installed")
  return()
endif()
file(MAKE_DIRECTORY ${WORK})
# HOME in the scratch folder: the session's history file stays out of the user's home.
execute_process(COMMAND ${CMAKE_COMMAND} -E env HOME=${WORK} XDG_STATE_HOME=${WORK} NO_COLOR=1 TERM=dumb
                        ${SCRIPT} -qfec "${CAS} -q" /dev/null
                INPUT_FILE ${DIR}/${NAME}.in OUTPUT_VARIABLE session ERROR_VARIABLE session_err
                RESULT_VARIABLE status TIMEOUT 60)
string(REPLACE "\r" "" session "${session}")
file(WRITE ${WORK}/${NAME}.session "${session}")
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the session ended with status ${status}:\n${session}${session_err}")
endif()
file(STRINGS ${DIR}/${NAME}.expect expected)
set(missing "")
foreach(line IN LISTS expected)
  if(line STREQUAL "")
    continue()
  endif()
  string(FIND "${session}" "${line}" at)
  if(at EQUAL -1)
    string(APPEND missing "  ${line}\n")
  endif()
endforeach()
if(missing)
  message(FATAL_ERROR "the REPL session lacks:\n${missing}the session:\n${session}")
endif()
