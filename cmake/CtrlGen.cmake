# ctrl_generate_kinds: C++ typed kinds generated from CRD manifests at build time by ctrl-gen.
#
#   ctrl_generate_kinds(TARGET <target> CRDS <crd.yaml>... NAMESPACE <c++ namespace>
#                       [OUTPUT_DIR <dir>] [INCLUDE_PREFIX <prefix>]
#                       [VERSIONS <version>...] [KINDS <kind>...]
#                       [EXTENSIONS <Kind=Template:header>...])
#
# Runs ctrl-gen on the CRDs (re-run when a CRD or ctrl-gen changes), compiles the generated code
# into <target> and adds OUTPUT_DIR to its public include directories, so its sources and its users
# include the kinds as "<INCLUDE_PREFIX>/<kind_snake>.hpp" and register them with the AddToScheme of
# "<INCLUDE_PREFIX>/<group label>_<version>.hpp" (<group label>_<version>_scheme.hpp when a kind's
# own file has that name: Gateway of gateway.networking.k8s.io in several versions). ctrl-gen's
# warnings (a pattern std::regex cannot compile, CEL rules not checked) show in the build's output.
# NAMESPACE may hold {group} and {version}
# (`ctrl-gen --help`). OUTPUT_DIR defaults to ${CMAKE_CURRENT_BINARY_DIR}/ctrl-gen/<target>;
# INCLUDE_PREFIX defaults to <target>. The generated code needs ctrl::scheme (linked PUBLIC).
# A CRD whose spec.conversion.strategy is Webhook, generated in several versions, gets its storage
# version as the conversion hub and the others as spokes declaring ConvertTo and ConvertFrom, which
# the target's own sources define (`ctrl-gen --conversion-stubs` writes a starting point once).
# EXTENSIONS add a hand-written CRTP base to a kind and its view (`ctrl-gen --help`, --extension);
# their headers are included as written, so they must be on the target's include path.
#
# ctrl-gen is the in-tree target when there is one, else the installed ctrl::ctrl-gen, else
# CTRL_GEN_EXECUTABLE, else `ctrl-gen` on the PATH.
function(ctrl_generate_kinds)
  cmake_parse_arguments(ARG "" "TARGET;NAMESPACE;OUTPUT_DIR;INCLUDE_PREFIX" "CRDS;VERSIONS;KINDS;EXTENSIONS" ${ARGN})
  if(NOT ARG_TARGET OR NOT ARG_CRDS OR NOT ARG_NAMESPACE)
    message(FATAL_ERROR "ctrl_generate_kinds: TARGET, CRDS and NAMESPACE are required")
  endif()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "ctrl_generate_kinds: unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_OUTPUT_DIR)
    set(ARG_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/ctrl-gen/${ARG_TARGET}")
  endif()
  if(NOT DEFINED ARG_INCLUDE_PREFIX)
    set(ARG_INCLUDE_PREFIX "${ARG_TARGET}")
  endif()

  if(TARGET ctrl::ctrl-gen)
    set(generator "$<TARGET_FILE:ctrl::ctrl-gen>")
    set(generator_dependency ctrl::ctrl-gen)
  elseif(CTRL_GEN_EXECUTABLE)
    set(generator "${CTRL_GEN_EXECUTABLE}")
    set(generator_dependency "${CTRL_GEN_EXECUTABLE}")
  else()
    find_program(CTRL_GEN_EXECUTABLE ctrl-gen REQUIRED)
    set(generator "${CTRL_GEN_EXECUTABLE}")
    set(generator_dependency "${CTRL_GEN_EXECUTABLE}")
  endif()

  set(crds "")
  foreach(crd IN LISTS ARG_CRDS)
    get_filename_component(crd "${crd}" ABSOLUTE)
    list(APPEND crds "${crd}")
  endforeach()
  set(options --namespace "${ARG_NAMESPACE}")
  if(NOT ARG_INCLUDE_PREFIX STREQUAL "")
    list(APPEND options --include-prefix "${ARG_INCLUDE_PREFIX}")
    set(dir "${ARG_OUTPUT_DIR}/${ARG_INCLUDE_PREFIX}")
  else()
    set(dir "${ARG_OUTPUT_DIR}")
  endif()
  if(ARG_VERSIONS)
    string(REPLACE ";" "," versions "${ARG_VERSIONS}")
    list(APPEND options --versions "${versions}")
  endif()
  if(ARG_KINDS)
    string(REPLACE ";" "," kinds "${ARG_KINDS}")
    list(APPEND options --kinds "${kinds}")
  endif()

  foreach(extension IN LISTS ARG_EXTENSIONS)
    list(APPEND options --extension "${extension}")
  endforeach()

  # ctrl-gen leaves unchanged files untouched; the bundle (one source including every generated
  # source) is a byproduct, so an unchanged regeneration rebuilds nothing.
  set(bundle "ctrl_gen_${ARG_TARGET}")
  set(stamp "${CMAKE_CURRENT_BINARY_DIR}/${bundle}.stamp")
  add_custom_command(
    OUTPUT "${stamp}"
    BYPRODUCTS "${dir}/${bundle}.hpp" "${dir}/${bundle}.cpp"
    COMMAND "${generator}" --output-dir "${dir}" ${options} --bundle "${bundle}" ${crds}
    COMMAND "${CMAKE_COMMAND}" -E touch "${stamp}"
    DEPENDS ${crds} ${generator_dependency}
    COMMENT "ctrl-gen: typed kinds of ${ARG_TARGET}"
    VERBATIM)
  target_sources(${ARG_TARGET} PRIVATE "${stamp}" "${dir}/${bundle}.cpp")
  target_include_directories(${ARG_TARGET} PUBLIC "$<BUILD_INTERFACE:${ARG_OUTPUT_DIR}>")
  if(TARGET ctrl::scheme)
    target_link_libraries(${ARG_TARGET} PUBLIC ctrl::scheme)
  endif()
endfunction()
