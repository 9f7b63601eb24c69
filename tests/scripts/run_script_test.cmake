# Runs one script test (see CMakeLists.txt beside this file):
#   cmake -DCAS=path/to/cas -DNAME=name [-DDIR=folder of NAME.cas] [-DACTUAL_DIR=dir] -P run_script_test.cmake
# The script runs in DIR (default: the current folder) and is given by its bare name. Compares stdout with NAME.out, stderr with NAME.err
# when that file exists (or matches it against the regular expression in NAME.errmatch,
# for messages that depend on the machine), and the exit status; prints a unified diff
# of what differs.
if(NOT CAS OR NOT NAME)
  message(FATAL_ERROR "usage: cmake -DCAS=<cas binary> -DNAME=<test name> -P run_script_test.cmake")
endif()
if(NOT DIR)
  set(DIR ${CMAKE_CURRENT_SOURCE_DIR})  # in script mode: the current folder
endif()
if(NOT ACTUAL_DIR)
  set(ACTUAL_DIR /tmp/cas-script-tests)  # where the actual outputs are kept for a look
endif()
file(MAKE_DIRECTORY ${ACTUAL_DIR})

execute_process(COMMAND ${CAS} ${NAME}.cas WORKING_DIRECTORY ${DIR}
                OUTPUT_VARIABLE actual_out ERROR_VARIABLE actual_err RESULT_VARIABLE actual_status)

set(expected_status 0)
if(EXISTS ${DIR}/${NAME}.err OR EXISTS ${DIR}/${NAME}.errmatch)
  set(expected_status 1)
endif()
if(EXISTS ${DIR}/${NAME}.status)
  file(STRINGS ${DIR}/${NAME}.status expected_status LIMIT_COUNT 1)
endif()

find_program(DIFF diff)
set(failures "")

# Writes the actual text beside the build, compares it with the expected file, and
# appends a diff (or both texts when diff is missing) to `failures` when they differ.
function(compare what expected_file actual_text)
  set(actual_file ${ACTUAL_DIR}/${NAME}.${what})
  file(WRITE ${actual_file} "${actual_text}")
  file(READ ${expected_file} expected_text)
  if(expected_text STREQUAL actual_text)
    return()
  endif()
  if(DIFF)
    execute_process(COMMAND ${DIFF} -u --label expected/${NAME}.${what} --label actual/${NAME}.${what}
                            ${expected_file} ${actual_file}
                    OUTPUT_VARIABLE difference)
  else()
    set(difference "expected:\n${expected_text}\nactual:\n${actual_text}\n")
  endif()
  set(failures "${failures}${NAME}.${what} differs:\n${difference}\n" PARENT_SCOPE)
endfunction()

if(NOT EXISTS ${DIR}/${NAME}.out)
  message(FATAL_ERROR "${DIR}/${NAME}.out is missing; the script printed:\n${actual_out}${actual_err}")
endif()
compare(out ${DIR}/${NAME}.out "${actual_out}")
if(EXISTS ${DIR}/${NAME}.err)
  compare(err ${DIR}/${NAME}.err "${actual_err}")
endif()
if(EXISTS ${DIR}/${NAME}.errmatch)
  file(STRINGS ${DIR}/${NAME}.errmatch pattern LIMIT_COUNT 1)
  if(NOT actual_err MATCHES "${pattern}")
    set(failures "${failures}${NAME}: stderr does not match the regular expression\n  ${pattern}\nstderr:\n${actual_err}\n")
  endif()
endif()
if(NOT actual_status STREQUAL expected_status)
  set(failures "${failures}exit status ${actual_status}, expected ${expected_status}\nstderr:\n${actual_err}\n")
endif()

if(failures)
  message("${failures}")  # plain message: printed as is, unlike FATAL_ERROR's reflowed text
  message(FATAL_ERROR "script test ${NAME} failed")
endif()
