# What the areas make together: cuzk_internal, every area of the library for the tools, tests and
# benchmarks inside this repository (internal symbols included).
add_library(cuzk_internal INTERFACE)
foreach(area ${CUZK_AREAS})
  if(NOT area STREQUAL "server" AND NOT area STREQUAL "testkit")
    target_link_libraries(cuzk_internal INTERFACE cuzk_${area})
  endif()
endforeach()
