# `cmake --install` (docs/architecture.md, "Installing"): the public headers under include/ctrl/
# with their paths in the tree (so `#include "runtime/manager/manager.hpp"` reads the same inside and
# outside), one library per layer, the CMake package ctrl (find_package(ctrl CONFIG) gives ctrl::runtime,
# ctrl::<layer> and ctrl::envtest), and bin/ctrl-setup-envtest. Every installed path is relative to
# the prefix, so the tree can be moved (hack/test-install.sh moves it before using it).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(CTRL_INSTALL_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}/ctrl")
set(CTRL_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/ctrl")

# The layers, bottom up (docs/architecture.md), then the static helper ctrl_discovery links privately
# (a static library's private dependencies are part of what a user links), and envtest.
set(CTRL_INSTALLED_LAYERS core metrics rest scheme api discovery workqueue client cache cluster controller manager fake)
set(CTRL_INSTALLED_TARGETS ctrl_runtime ctrl_discovery_documents ctrl_envtest)
foreach(layer IN LISTS CTRL_INSTALLED_LAYERS)
  list(APPEND CTRL_INSTALLED_TARGETS ctrl_${layer})
endforeach()

# ctrl_build_interface_only(<target> <property>): the include directories in the property hold for the
# build tree only (the layers' CMakeLists name the source tree; installed, it is include/ctrl).
function(ctrl_build_interface_only target property)
  get_target_property(dirs ${target} ${property})
  if(dirs)
    list(TRANSFORM dirs REPLACE "^(.+)$" "$<BUILD_INTERFACE:\\1>")
    set_target_properties(${target} PROPERTIES ${property} "${dirs}")
  endif()
endfunction()

foreach(target IN LISTS CTRL_INSTALLED_TARGETS)
  string(REGEX REPLACE "^ctrl_" "" name "${target}")
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
  ctrl_build_interface_only(${target} INTERFACE_INCLUDE_DIRECTORIES)
  ctrl_build_interface_only(${target} INTERFACE_SYSTEM_INCLUDE_DIRECTORIES)
endforeach()
# With BUILD_SHARED_LIBS every layer is a shared library, and the one explicitly static helper is
# linked into one of them.
# Installed, the libraries find each other beside themselves; a 0.x minor version may break the ABI.
if(BUILD_SHARED_LIBS)
  set_target_properties(ctrl_discovery_documents PROPERTIES POSITION_INDEPENDENT_CODE ON)
  foreach(target IN LISTS CTRL_INSTALLED_TARGETS)
    get_target_property(type ${target} TYPE)
    if(type STREQUAL "SHARED_LIBRARY")
      set_target_properties(${target} PROPERTIES INSTALL_RPATH "$ORIGIN" VERSION ${PROJECT_VERSION}
                                                 SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
    endif()
  endforeach()
endif()
# What the top-level CMakeLists.txt sets for the whole tree and a user's build needs too: C++20, and
# clang's co_await in Boost.Asio before 1.81 (see there).
target_compile_features(ctrl_core INTERFACE cxx_std_20)
target_compile_definitions(ctrl_core INTERFACE
  "$<INSTALL_INTERFACE:$<$<CXX_COMPILER_ID:Clang>:BOOST_ASIO_HAS_CO_AWAIT=1>>")

install(TARGETS ${CTRL_INSTALLED_TARGETS}
  EXPORT ctrlTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CTRL_INSTALL_INCLUDEDIR})
install(EXPORT ctrlTargets NAMESPACE ctrl:: DESTINATION ${CTRL_INSTALL_CMAKEDIR})

# Headers: every header of runtime/ outside internal/, and the internal headers those include
# (transitively): implementation detail a public header needs to compile, not API.
file(GLOB_RECURSE ctrl_all_headers RELATIVE "${PROJECT_SOURCE_DIR}" CONFIGURE_DEPENDS
  "${PROJECT_SOURCE_DIR}/runtime/*.hpp")
set(ctrl_headers "")
foreach(header IN LISTS ctrl_all_headers)
  if(NOT header MATCHES "/internal/")
    list(APPEND ctrl_headers "${header}")
  endif()
endforeach()
set(ctrl_pending "${ctrl_headers}")
while(ctrl_pending)
  list(POP_FRONT ctrl_pending header)
  file(STRINGS "${PROJECT_SOURCE_DIR}/${header}" includes REGEX "^#include \"runtime/")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "^#include \"([^\"]+)\".*" "\\1" included "${line}")
    if(NOT included IN_LIST ctrl_headers)
      list(APPEND ctrl_headers "${included}")
      list(APPEND ctrl_pending "${included}")
    endif()
  endforeach()
endwhile()
foreach(header IN LISTS ctrl_headers)
  get_filename_component(dir "${header}" DIRECTORY)
  install(FILES "${PROJECT_SOURCE_DIR}/${header}" DESTINATION "${CTRL_INSTALL_INCLUDEDIR}/${dir}")
endforeach()

# The package: ctrlConfig.cmake finds the dependencies, ctrlTargets.cmake has the targets.
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/ctrlConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/ctrlConfig.cmake" INSTALL_DESTINATION ${CTRL_INSTALL_CMAKEDIR})
# 0.x: a new minor version may break the API, so only the same minor version is compatible.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/ctrlConfigVersion.cmake"
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/ctrlConfig.cmake" "${PROJECT_BINARY_DIR}/ctrlConfigVersion.cmake"
  DESTINATION ${CTRL_INSTALL_CMAKEDIR})

# ctrl-setup-envtest builds the control plane binaries envtest runs; it reads the pinned versions from
# share/ctrl/versions.env beside its own directory.
install(PROGRAMS "${PROJECT_SOURCE_DIR}/hack/setup-envtest.sh" DESTINATION ${CMAKE_INSTALL_BINDIR}
  RENAME ctrl-setup-envtest)
install(FILES "${PROJECT_SOURCE_DIR}/hack/versions.env" DESTINATION ${CMAKE_INSTALL_DATADIR}/ctrl)
