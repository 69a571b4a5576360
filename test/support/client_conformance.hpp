#pragma once

// One table of read and write cases for any client::Client, run against the real API server
// through the direct client (test/integration/client) and against the fake client
// (test/unit/fake): the real server is the oracle the fake must match, Status codes included
// (issue 11, acceptance 4).

#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/client/client.hpp"
#include "ctrl/core/gvk.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/core/task.hpp"

namespace ctrl::testing {

// One case: a name for gtest and a coroutine that checks client in namespace ns. The namespace
// exists; the Widget CRD below is installed (the fake is built with it); a case may also write to
// "default" under names that contain ns. Checks are gtest expectations.
struct ClientConformanceCase {
    std::string name;
    Task<void> (*run)(client::Client& client, std::string ns);
};

inline void PrintTo(const ClientConformanceCase& c, std::ostream* os) {
    *os << c.name;
}

// Every case, reads then writes, patches and subresources.
std::vector<ClientConformanceCase> ClientConformanceCases();
// The cases of each file, in order.
std::vector<ClientConformanceCase> ReadConformanceCases();
std::vector<ClientConformanceCase> WriteConformanceCases();
std::vector<ClientConformanceCase> PatchConformanceCases();
std::vector<ClientConformanceCase> SubResourceConformanceCases();

// The test.ctrl.dev/v1 Widget CRD (namespaced; status and scale subresources) as JSON.
std::string_view WidgetCrdJson();
GroupVersionKind WidgetKind();

// The name of a case for gtest's parameterized tests.
inline std::string ConformanceCaseName(const ::testing::TestParamInfo<ClientConformanceCase>& info) {
    return info.param.name;
}

// Runs c against client in ns to its end (a Task RunSync can run: it cannot run a Task<void>).
Task<bool> RunConformanceCase(const ClientConformanceCase& c, client::Client& client, std::string ns);

// Expects status to have code and, when the error came from the server (or the fake standing in
// for it), http_code, reason and a message containing message_part. where names the call.
void ExpectServerStatus(const Status& status, StatusCode code, int http_code, std::string_view reason,
                        std::string_view message_part, std::string_view where);

}  // namespace ctrl::testing

// In a conformance case (a coroutine): fail and end the case when expr (a Status) is not OK.
#define CONFORMANCE_CO_ASSERT_OK(expr)                             \
    do {                                                           \
        const ::ctrl::Status conformance_status_ = (expr);         \
        if (!conformance_status_.Ok()) {                           \
            ADD_FAILURE() << #expr << ": " << conformance_status_; \
            co_return;                                             \
        }                                                          \
    } while (0)

// In a conformance case: fail and end the case when cond is false.
#define CONFORMANCE_CO_ASSERT(cond)            \
    do {                                       \
        if (!(cond)) {                         \
            ADD_FAILURE() << "failed: " #cond; \
            co_return;                         \
        }                                      \
    } while (0)
