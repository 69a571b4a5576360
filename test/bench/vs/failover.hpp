#pragma once

// What the failover scenarios of ctrl-vs-probe (PROTOCOL.md, "failover") share: where the objects
// live and what they are called.

#include <cstdio>
#include <string>

#include "test/bench/vs/probe_args.hpp"

namespace ctrl::bench::vs {

// The namespace of the failover objects and of the replicas' Lease: <prefix>-failover.
inline std::string FailoverNamespace(const ProbeArgs& args) {
    return args.layout.prefix + "-failover";
}

// The i-th failover object (from 0): cm-00000, cm-00001, ...
inline std::string FailoverObjectName(int i) {
    char name[24];
    std::snprintf(name, sizeof name, "cm-%05d", i);
    return name;
}

}  // namespace ctrl::bench::vs
