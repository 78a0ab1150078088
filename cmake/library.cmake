# What the areas make together.
#
# cuzk_internal: every area of the library, for the tools, tests and benchmarks inside this repository
# (internal symbols included).
#
# libcuzk, for everyone else, in <build>/lib/, from the areas' position-independent twins
# (cuzk_<area>_pic, cmake/areas.cmake):
#   libcuzk.so -> libcuzk.so.<major> -> libcuzk.so.<version>: every object of the library's areas,
#       linked with --no-undefined (a dependency missing from an area's LIBS fails the link). The areas
#       are compiled with hidden visibility, so the CUZK_API functions of include/cuzk/ are all it exports.
#   libcuzk.a: the same objects combined into one relocatable object (ld -r) whose hidden symbols are
#       then made local (objcopy --localize-hidden), so that a static link sees only the API as well and
#       cannot collide with a program's own fp_mul.
# `cmake --install` (make install) puts both, the public headers and cuzk.pc under the prefix.
add_library(cuzk_internal INTERFACE)
foreach(area ${CUZK_LIB_AREAS})
  target_link_libraries(cuzk_internal INTERFACE cuzk_${area})
endforeach()

# The fuzz build instruments some areas for libFuzzer, whose hooks only its fuzz targets provide.
if(CUZK_FUZZ)
  return()
endif()

# The areas' position-independent objects and the external libraries the areas link.
set(cuzk_lib_objects "")
set(cuzk_lib_targets "")
set(cuzk_lib_external "")
foreach(area ${CUZK_LIB_AREAS})
  list(APPEND cuzk_lib_targets cuzk_${area}_pic)
  list(APPEND cuzk_lib_objects $<TARGET_OBJECTS:cuzk_${area}_pic>)
  get_target_property(libs cuzk_${area} LINK_LIBRARIES)
  foreach(l ${libs})
    if(NOT l MATCHES "^cuzk_")
      list(APPEND cuzk_lib_external ${l})
    endif()
  endforeach()
endforeach()
list(REMOVE_DUPLICATES cuzk_lib_external)

set(CUZK_LIB_DIR ${CMAKE_BINARY_DIR}/lib)
file(MAKE_DIRECTORY ${CUZK_LIB_DIR})

add_library(cuzk_shared SHARED ${cuzk_lib_objects})
target_link_libraries(cuzk_shared PRIVATE ${cuzk_lib_external})
target_link_options(cuzk_shared PRIVATE -Wl,--no-undefined)
set_target_properties(cuzk_shared PROPERTIES
  OUTPUT_NAME cuzk
  VERSION ${PROJECT_VERSION}
  SOVERSION ${PROJECT_VERSION_MAJOR}
  LIBRARY_OUTPUT_DIRECTORY ${CUZK_LIB_DIR})

set(cuzk_static ${CUZK_LIB_DIR}/libcuzk.a)
set(cuzk_static_obj ${CMAKE_BINARY_DIR}/CMakeFiles/libcuzk_static.o)
add_custom_command(
  OUTPUT ${cuzk_static}
  COMMAND ${CMAKE_COMMAND} -E rm -f ${cuzk_static} ${cuzk_static_obj}
  COMMAND ${CMAKE_LINKER} -r -o ${cuzk_static_obj} ${cuzk_lib_objects}
  COMMAND ${CMAKE_OBJCOPY} --localize-hidden ${cuzk_static_obj}
  COMMAND ${CMAKE_AR} rcs ${cuzk_static} ${cuzk_static_obj}
  DEPENDS ${cuzk_lib_targets} ${cuzk_lib_objects}
  COMMENT "Combining the library's areas into lib/libcuzk.a"
  VERBATIM COMMAND_EXPAND_LISTS)
add_custom_target(cuzk_static ALL DEPENDS ${cuzk_static})

# Installation: headers, both libraries, cuzk.pc (written at install time, for the prefix in force then).
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/cuzk DESTINATION include FILES_MATCHING PATTERN "*.h")
install(TARGETS cuzk_shared LIBRARY DESTINATION lib)
install(FILES ${cuzk_static} DESTINATION lib)
install(CODE "
  set(CUZK_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  set(CUZK_PC_VERSION \"${PROJECT_VERSION}\")
  configure_file(\"${CMAKE_SOURCE_DIR}/cmake/cuzk.pc.in\" \"${CMAKE_BINARY_DIR}/pkgconfig/cuzk.pc\" @ONLY)
  file(INSTALL DESTINATION \"\${CMAKE_INSTALL_PREFIX}/lib/pkgconfig\" TYPE FILE
       FILES \"${CMAKE_BINARY_DIR}/pkgconfig/cuzk.pc\")
")
