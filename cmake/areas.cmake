# cuzk_area(<name> <dir> [PUBLIC_ONLY] [NOT_IN_LIBRARY] [DEPS <areas...>] [LIBS <external libraries...>]
#           [INCLUDES <external include directories...>] SOURCES <files...>)
#
# One layer of the library: the static library cuzk_<name> from SOURCES (relative to the calling
# CMakeLists.txt), linked to the areas in DEPS (names without the cuzk_ prefix) and to LIBS. Its
# headers are reachable as "<dir>/<file>.h" by itself and by the areas above it, never by those below:
# <build>/layers/<name>/<dir> is a link to src/<dir> (or <root>/<dir> for the testkit), and only
# cuzk_<name> and the targets linking it get that view on their include path.
# PUBLIC_ONLY: the area's DEPS are linked for their code only (an INTERFACE $<LINK_ONLY:...>, which reaches
# the programs linking the area but gives the area itself none of their views), so that it sees the public
# headers (include/cuzk/) and its own, nothing private below it (the engine).
# Every area but the NOT_IN_LIBRARY ones (server, testkit) is part of libcuzk: its sources are compiled a
# second time, as position-independent code, into the object library cuzk_<name>_pic, from which
# cmake/library.cmake makes libcuzk.so and libcuzk.a (same sources, views, options and flags; source
# properties such as cuzk_lane_build's apply to both).
set(CUZK_AREAS "" CACHE INTERNAL "")     # every area, bottom-up
set(CUZK_LIB_AREAS "" CACHE INTERNAL "") # those in libcuzk (all but NOT_IN_LIBRARY)

function(cuzk_area name dir)
  cmake_parse_arguments(A "PUBLIC_ONLY;NOT_IN_LIBRARY" "" "DEPS;LIBS;INCLUDES;SOURCES" ${ARGN})
  add_library(cuzk_${name} STATIC ${A_SOURCES})
  set(view ${CMAKE_BINARY_DIR}/layers/${name})
  get_filename_component(link_parent ${view}/${dir} DIRECTORY)
  file(MAKE_DIRECTORY ${link_parent})
  if(EXISTS ${CMAKE_SOURCE_DIR}/src/${dir})
    set(target_dir ${CMAKE_SOURCE_DIR}/src/${dir})
  else()
    set(target_dir ${CMAKE_SOURCE_DIR}/${dir})
  endif()
  if(NOT IS_SYMLINK ${view}/${dir})
    file(CREATE_LINK ${target_dir} ${view}/${dir} SYMBOLIC)
  endif()
  target_include_directories(cuzk_${name} PUBLIC ${view} ${CMAKE_SOURCE_DIR}/include)
  set(deps "")
  foreach(d ${A_DEPS})
    list(APPEND deps cuzk_${d})
  endforeach()
  if(A_PUBLIC_ONLY)
    list(TRANSFORM deps PREPEND "$<LINK_ONLY:")
    list(TRANSFORM deps APPEND ">")
    target_link_libraries(cuzk_${name} INTERFACE ${deps})
    target_link_libraries(cuzk_${name} PUBLIC ${A_LIBS})
  else()
    target_link_libraries(cuzk_${name} PUBLIC ${deps} ${A_LIBS})
  endif()
  target_include_directories(cuzk_${name} PRIVATE ${A_INCLUDES})
  if(NOT A_NOT_IN_LIBRARY AND NOT CUZK_FUZZ)
    add_library(cuzk_${name}_pic OBJECT ${A_SOURCES})
    set_target_properties(cuzk_${name}_pic PROPERTIES POSITION_INDEPENDENT_CODE ON)
    target_include_directories(cuzk_${name}_pic PRIVATE ${view} ${CMAKE_SOURCE_DIR}/include ${A_INCLUDES})
    if(A_PUBLIC_ONLY)
      target_link_libraries(cuzk_${name}_pic PRIVATE ${A_LIBS})
    else()
      target_link_libraries(cuzk_${name}_pic PRIVATE ${deps} ${A_LIBS}) # the views below; no objects
    endif()
  endif()
  set(CUZK_AREAS ${CUZK_AREAS} ${name} CACHE INTERNAL "")
  if(NOT A_NOT_IN_LIBRARY)
    set(CUZK_LIB_AREAS ${CUZK_LIB_AREAS} ${name} CACHE INTERNAL "")
  endif()
  set_property(TARGET cuzk_${name} PROPERTY CUZK_AREA_DEPS "${A_DEPS}")
  set_property(TARGET cuzk_${name} PROPERTY CUZK_AREA_DIR "${dir}")
  set_property(TARGET cuzk_${name} PROPERTY CUZK_AREA_PUBLIC_ONLY "${A_PUBLIC_ONLY}")
endfunction()

# cuzk_lane_build(<flags> <real source> [<emulated source>]): a SIMD kernel built twice from one template.
# The real build alone gets <flags> (e.g. "-mavx512f -mavx512ifma"), so nothing else can use those
# instructions; its kernels run only after the CPU check. The emulated build is the same source for the
# tests on plain C lanes, at -O2 in Release because -O3 spends minutes unrolling the emulated lanes for
# no benefit. Call it from the CMakeLists.txt that declares the area owning the sources.
include(CheckCCompilerFlag)
function(cuzk_lane_build flags real)
  string(MAKE_C_IDENTIFIER "CUZK_CC_HAS ${flags}" have)
  check_c_compiler_flag("${flags}" ${have})
  if(${have})
    separate_arguments(options UNIX_COMMAND "${flags}")
    set_source_files_properties(${real} PROPERTIES COMPILE_OPTIONS "${options}")
  endif()
  if(ARGC GREATER 2 AND CMAKE_BUILD_TYPE STREQUAL "Release")
    set_source_files_properties(${ARGV2} PROPERTIES COMPILE_OPTIONS "-O2")
  endif()
endfunction()
