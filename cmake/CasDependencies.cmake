# Finds cas's dependencies (all from Debian: libgmp-dev libflint-dev tao-pegtl-dev
# catch2 libedit-dev) and gives a clear message naming the package when one is missing.

set(CAS_APT_PACKAGES "libgmp-dev libflint-dev tao-pegtl-dev catch2 libedit-dev")

function(cas_require found what package)
  if(NOT ${found})
    message(FATAL_ERROR
      "cas needs ${what}, which was not found.\n"
      "On Debian/Ubuntu: apt-get install ${package}\n"
      "(all of cas's dependencies: apt-get install ${CAS_APT_PACKAGES})")
  endif()
endfunction()

find_path(GMP_INCLUDE_DIR gmp.h)
find_library(GMP_LIBRARY gmp)
cas_require(GMP_LIBRARY "GMP" libgmp-dev)
cas_require(GMP_INCLUDE_DIR "GMP headers (gmp.h)" libgmp-dev)

find_path(FLINT_INCLUDE_DIR flint/flint.h)
find_library(FLINT_LIBRARY flint)
cas_require(FLINT_LIBRARY "FLINT" libflint-dev)
cas_require(FLINT_INCLUDE_DIR "FLINT headers (flint/flint.h)" libflint-dev)

add_library(cas_flint INTERFACE)
target_include_directories(cas_flint INTERFACE ${FLINT_INCLUDE_DIR} ${FLINT_INCLUDE_DIR}/flint ${GMP_INCLUDE_DIR})
target_link_libraries(cas_flint INTERFACE ${FLINT_LIBRARY} ${GMP_LIBRARY})

find_package(pegtl 3 QUIET CONFIG)
if(NOT pegtl_FOUND)
  find_path(PEGTL_INCLUDE_DIR tao/pegtl.hpp)
  cas_require(PEGTL_INCLUDE_DIR "PEGTL 3 (tao/pegtl.hpp)" tao-pegtl-dev)
  add_library(taocpp::pegtl INTERFACE IMPORTED)
  set_target_properties(taocpp::pegtl PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${PEGTL_INCLUDE_DIR})
endif()

find_path(EDIT_INCLUDE_DIR histedit.h)
find_library(EDIT_LIBRARY edit)
cas_require(EDIT_LIBRARY "libedit (line editing)" libedit-dev)
cas_require(EDIT_INCLUDE_DIR "libedit headers (histedit.h)" libedit-dev)
add_library(cas_edit INTERFACE)
target_include_directories(cas_edit INTERFACE ${EDIT_INCLUDE_DIR})
target_link_libraries(cas_edit INTERFACE ${EDIT_LIBRARY})

find_package(Threads REQUIRED)

if(CAS_BUILD_TESTS)
  find_package(Catch2 2 QUIET CONFIG)
  cas_require(Catch2_FOUND "Catch2 2.x" catch2)
endif()

# The Jupyter kernel needs xeus (Debian's xeus-dev, with cppzmq-dev and nlohmann-json3-dev);
# without it cas builds without the kernel and `cas --install-kernel` says so.
find_package(xeus 2 QUIET)
if(xeus_FOUND)
  message(STATUS "Jupyter kernel: on (xeus ${xeus_VERSION})")
else()
  message(STATUS "Jupyter kernel: off (xeus-dev, cppzmq-dev and nlohmann-json3-dev not found)")
endif()
