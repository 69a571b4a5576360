// podlister: lists every pod in every namespace, paged, as `kubectl get pods -A` prints them (or
// as JSON with -o json). See --help, and hack/run-local.sh, which runs it against a local
// control plane.

#include <iostream>

#include "controllers/podlister/app.hpp"

int main(int argc, char** argv) {
    return ctrl::podlister::RunPodLister(argc, argv, std::cout, std::cerr);
}
