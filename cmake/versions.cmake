# The control plane versions pinned in hack/versions.env (its one source of truth), as CMake
# variables: CTRL_KUBE_VERSION, CTRL_KUBE_FALLBACK_VERSIONS (space-separated, newest first) and
# CTRL_ETCD_VERSION. runtime/envtest compiles them in (where it looks for the binaries) and the
# tests check the control plane they run against.
set(CTRL_VERSIONS_ENV "${PROJECT_SOURCE_DIR}/hack/versions.env")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${CTRL_VERSIONS_ENV}")
foreach(name KUBE_VERSION KUBE_FALLBACK_VERSIONS ETCD_VERSION)
  file(STRINGS "${CTRL_VERSIONS_ENV}" line REGEX "^${name}=")
  string(REGEX REPLACE "^${name}=\"?([^\"]*)\"?$" "\\1" CTRL_${name} "${line}")
endforeach()
