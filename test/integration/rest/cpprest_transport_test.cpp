// The cpprestsdk transport on its own, against the real control plane: requests and bodies,
// watches read as they arrive, TLS verification and its messages, deadlines and cancellation,
// and that every operation continues on the caller's executor. The shared conformance suite
// (conformance_test.cpp) covers it through RestClient as well.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <dirent.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include <boost/asio/io_context.hpp>

#include "ctrl/core/run_sync.hpp"
#include "ctrl/rest/cpprest_transport.hpp"
#include "test/integration/rest/rest_test_util.hpp"
#include "test/support/control_plane_environment.hpp"
#include "test/support/eventually.hpp"
#include "test/support/free_port.hpp"
#include "test/support/pki.hpp"

namespace ctrl::rest {
namespace {

using ::testing::HasSubstr;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

using test::ReadFile;

// A CA that did not sign the apiserver's certificate.
std::string OtherCaPem() {
    const std::string dir = testing::SharedControlPlane().WorkDir() + "/cpprest-other-ca";
    std::filesystem::create_directories(dir);
    StatusOr<testing::Pki> pki = testing::Pki::Create(dir);
    EXPECT_TRUE(pki.Ok()) << pki.GetStatus();
    return pki.Ok() ? ReadFile(pki->CaCert()) : "";
}

HttpRequest Get(std::string target) {
    HttpRequest request;
    request.method = "GET";
    request.target = std::move(target);
    request.SetHeader("Accept", "application/json");
    return request;
}

using ctrl::testing::Within;

class CppRestTransportTest : public ::testing::Test {
  protected:
    std::unique_ptr<Transport> New(TransportOptions options) {
        StatusOr<std::unique_ptr<Transport>> transport = NewCppRestTransport(io_.get_executor(), std::move(options));
        EXPECT_TRUE(transport.Ok()) << transport.GetStatus();
        return transport.Ok() ? std::move(transport).Value() : nullptr;
    }
    template <typename T>
    T Run(Task<T> task) {
        return RunSync(io_, std::move(task));
    }
    StatusOr<HttpResponse> Send(Transport& transport, HttpRequest request) {
        return Send(Within(20s), transport, std::move(request));
    }
    StatusOr<HttpResponse> Send(Context ctx, Transport& transport, HttpRequest request) {
        return Run(transport.Send(std::move(ctx), std::move(request)));
    }

    boost::asio::io_context io_;
};

TEST_F(CppRestTransportTest, GetsVersionAndContinuesOnTheCallersThread) {
    std::unique_ptr<Transport> transport = New(test::AdminTransportOptions());
    ASSERT_NE(transport, nullptr);
    const std::thread::id caller = std::this_thread::get_id();
    auto scenario = [&]() -> Task<StatusOr<HttpResponse>> {
        StatusOr<HttpResponse> response = co_await transport->Send(Within(20s), Get("/version"));
        EXPECT_EQ(std::this_thread::get_id(), caller) << "resumed on cpprestsdk's thread pool";
        co_return response;
    };
    StatusOr<HttpResponse> response = Run(scenario());
    ASSERT_TRUE(response.Ok()) << response.GetStatus();
    EXPECT_EQ(response->status, 200);
    EXPECT_THAT(response->body, HasSubstr("\"gitVersion\": \"" + testing::SharedControlPlane().Version() + "\""));
    EXPECT_THAT(std::string(response->FindHeader("content-type").value_or("")), HasSubstr("application/json"));
}

TEST_F(CppRestTransportTest, SendsBodiesAndReturnsErrorStatusesAsResponses) {
    std::unique_ptr<Transport> transport = New(test::AdminTransportOptions());
    ASSERT_NE(transport, nullptr);
    const std::string name = "cpprest-" + std::to_string(Clock::now().time_since_epoch().count() % 1000000);
    HttpRequest create = Get("/api/v1/namespaces/default/configmaps");
    create.method = "POST";
    create.SetHeader("Content-Type", "application/json");
    create.body = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":")" + name + R"("},"data":{"k":"v"}})";
    StatusOr<HttpResponse> created = Send(*transport, create);
    ASSERT_TRUE(created.Ok()) << created.GetStatus();
    EXPECT_EQ(created->status, 201) << created->body;

    StatusOr<HttpResponse> again = Send(*transport, create);
    ASSERT_TRUE(again.Ok()) << again.GetStatus();
    EXPECT_EQ(again->status, 409);
    EXPECT_THAT(again->body, HasSubstr("AlreadyExists"));

    HttpRequest remove = Get("/api/v1/namespaces/default/configmaps/" + name);
    remove.method = "DELETE";
    StatusOr<HttpResponse> deleted = Send(*transport, remove);
    ASSERT_TRUE(deleted.Ok()) << deleted.GetStatus();
    EXPECT_EQ(deleted->status, 200) << deleted->body;
}

TEST_F(CppRestTransportTest, WatchBytesArriveAsTheServerSendsThem) {
    std::unique_ptr<Transport> transport = New(test::AdminTransportOptions());
    ASSERT_NE(transport, nullptr);
    const std::string name = "cpprest-watch-" + std::to_string(Clock::now().time_since_epoch().count() % 1000000);
    auto scenario = [&]() -> Task<Status> {
        auto opened = co_await transport->Open(
            Within(20s), Get("/api/v1/namespaces/default/configmaps?watch=true&fieldSelector=metadata.name%3D" + name));
        CTRL_CO_RETURN_IF_ERROR(opened.GetStatus());
        std::unique_ptr<BodyStream> stream = std::move(opened).Value();
        EXPECT_EQ(stream->StatusCode(), 200);
        HttpRequest create = Get("/api/v1/namespaces/default/configmaps");
        create.method = "POST";
        create.SetHeader("Content-Type", "application/json");
        create.body = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":")" + name + R"("}})";
        auto created = co_await transport->Send(Within(20s), create);
        CTRL_CO_RETURN_IF_ERROR(created.GetStatus());
        EXPECT_EQ(created->status, 201);

        // The stream stays open: the ADDED event must arrive without the body ending.
        std::string seen;
        const Context ctx = Within(20s);
        while (seen.find('\n') == std::string::npos) {
            char buffer[4096];
            auto n = co_await stream->ReadSome(ctx, buffer, sizeof buffer);
            CTRL_CO_RETURN_IF_ERROR(n.GetStatus());
            if (*n == 0)
                co_return InternalError("the watch ended early: " + seen);
            seen.append(buffer, *n);
        }
        EXPECT_THAT(seen, HasSubstr("\"type\":\"ADDED\""));
        EXPECT_THAT(seen, HasSubstr(name));
        stream->Close();
        char byte;
        auto after_close = co_await stream->ReadSome(ctx, &byte, 1);
        EXPECT_TRUE(IsCancelled(after_close.GetStatus())) << after_close.GetStatus();
        co_return OkStatus();
    };
    Status status = Run(scenario());
    EXPECT_TRUE(status.Ok()) << status;
}

// Each read would last as long as the watch (half an hour or more) but for the cancel or the
// deadline that ends it; the first one's context also ends with the test's wait.
TEST_F(CppRestTransportTest, CancellingEndsARead) {
    std::unique_ptr<Transport> transport = New(test::AdminTransportOptions());
    ASSERT_NE(transport, nullptr);
    StatusOr<std::unique_ptr<BodyStream>> stream = Run(transport->Open(
        Within(20s), Get("/api/v1/namespaces/default/configmaps?watch=true&fieldSelector=metadata.name%3Dnone")));
    ASSERT_TRUE(stream.Ok()) << stream.GetStatus();

    const Context test_wait = ctrl::testing::TestContext();
    const Context ctx = Context::WithCancel(test_wait);
    std::thread canceller([ctx] {
        std::this_thread::sleep_for(200ms);
        ctx.Cancel();
    });
    char buffer[1024];
    StatusOr<std::size_t> read = Run((*stream)->ReadSome(ctx, buffer, sizeof buffer));
    canceller.join();
    EXPECT_TRUE(IsCancelled(read.GetStatus())) << read.GetStatus();
    EXPECT_TRUE(test_wait.Err().Ok()) << "the read lasted until the test's deadline";

    // A deadline ends a read too, with Timeout; the stream is still usable afterwards.
    read = Run((*stream)->ReadSome(Within(300ms), buffer, sizeof buffer));
    EXPECT_TRUE(IsTimeout(read.GetStatus())) << read.GetStatus();
    EXPECT_THAT(read.GetStatus().Message(), HasSubstr("context deadline exceeded"));
}

TEST_F(CppRestTransportTest, RequestTimeoutAndContextDeadlineEndASend) {
    std::unique_ptr<Transport> transport = New(test::AdminTransportOptions());
    ASSERT_NE(transport, nullptr);
    // A watch never completes: Send waits for the whole body, so only the timeout ends it.
    HttpRequest watch = Get("/api/v1/namespaces/default/configmaps?watch=true");
    watch.timeout = 300ms;
    StatusOr<HttpResponse> response = Send(*transport, watch);
    EXPECT_TRUE(IsTimeout(response.GetStatus())) << response.GetStatus();
    EXPECT_THAT(response.GetStatus().Message(), HasSubstr("request timeout of 300 ms"));

    watch.timeout = 0ms;
    response = Send(Within(300ms), *transport, watch);
    EXPECT_TRUE(IsTimeout(response.GetStatus())) << response.GetStatus();
    EXPECT_THAT(response.GetStatus().Message(), HasSubstr("context deadline"));

    // The transport is fine afterwards.
    response = Send(*transport, Get("/version"));
    ASSERT_TRUE(response.Ok()) << response.GetStatus();
    EXPECT_EQ(response->status, 200);
}

TEST_F(CppRestTransportTest, WrongCaIsAClearTlsError) {
    TransportOptions options = test::AdminTransportOptions();
    options.tls.ca_pem = OtherCaPem();
    std::unique_ptr<Transport> transport = New(options);
    ASSERT_NE(transport, nullptr);
    StatusOr<HttpResponse> response = Send(*transport, Get("/version"));
    ASSERT_FALSE(response.Ok());
    EXPECT_TRUE(IsUnavailable(response.GetStatus())) << response.GetStatus();
    const std::string& message = response.GetStatus().Message();
    EXPECT_THAT(message, HasSubstr("TLS handshake with " + options.server + " failed"));
    EXPECT_THAT(message, HasSubstr("certificate verify failed"));
    EXPECT_THAT(message, HasSubstr("not signed by a trusted CA"));
    std::cout << "wrong CA: " << response.GetStatus() << std::endl;
}

TEST_F(CppRestTransportTest, InsecureSkipVerifyTrustsAnyServer) {
    TransportOptions options = test::AdminTransportOptions();
    options.tls.ca_pem = OtherCaPem();
    options.tls.insecure_skip_verify = true;
    std::unique_ptr<Transport> transport = New(options);
    ASSERT_NE(transport, nullptr);
    StatusOr<HttpResponse> response = Send(*transport, Get("/version"));
    ASSERT_TRUE(response.Ok()) << response.GetStatus();
    EXPECT_EQ(response->status, 200);
}

TEST_F(CppRestTransportTest, ServerNameIsVerified) {
    TransportOptions options = test::AdminTransportOptions();
    options.tls.server_name = "localhost";  // on the serving certificate, unlike the URL's 127.0.0.1
    std::unique_ptr<Transport> good = New(options);
    ASSERT_NE(good, nullptr);
    StatusOr<HttpResponse> response = Send(*good, Get("/version"));
    ASSERT_TRUE(response.Ok()) << response.GetStatus();
    EXPECT_EQ(response->status, 200);

    options.tls.server_name = "api.example.com";
    std::unique_ptr<Transport> wrong = New(options);
    ASSERT_NE(wrong, nullptr);
    response = Send(*wrong, Get("/version"));
    EXPECT_TRUE(IsUnavailable(response.GetStatus())) << response.GetStatus();
    EXPECT_THAT(response.GetStatus().Message(), HasSubstr("hostname mismatch"));
    EXPECT_THAT(response.GetStatus().Message(), HasSubstr("not valid for \"api.example.com\""));
}

TEST_F(CppRestTransportTest, ConnectionRefusedIsUnavailableNamingTheServer) {
    StatusOr<std::vector<int>> ports = testing::FreePorts(1);
    ASSERT_TRUE(ports.Ok()) << ports.GetStatus();
    TransportOptions options = test::AdminTransportOptions();
    options.server = "https://127.0.0.1:" + std::to_string(ports->front());
    std::unique_ptr<Transport> transport = New(options);
    ASSERT_NE(transport, nullptr);
    StatusOr<HttpResponse> response = Send(*transport, Get("/version"));
    EXPECT_TRUE(IsUnavailable(response.GetStatus())) << response.GetStatus();
    EXPECT_THAT(response.GetStatus().Message(), HasSubstr("connecting to " + options.server + " failed"));
}

TEST_F(CppRestTransportTest, MalformedOptionsAreBadRequests) {
    TransportOptions options = test::AdminTransportOptions();
    options.tls.ca_pem = "not PEM";
    auto transport = NewCppRestTransport(io_.get_executor(), options);
    EXPECT_TRUE(IsBadRequest(transport.GetStatus())) << transport.GetStatus();
    EXPECT_THAT(transport.GetStatus().Message(), HasSubstr("ca_pem"));

    options = test::AdminTransportOptions();
    options.tls.client_key_pem = ReadFile(testing::SharedControlPlane().CaFile());
    transport = NewCppRestTransport(io_.get_executor(), options);
    EXPECT_TRUE(IsBadRequest(transport.GetStatus())) << transport.GetStatus();

    options = test::AdminTransportOptions();
    options.server = "ftp://127.0.0.1";
    transport = NewCppRestTransport(io_.get_executor(), options);
    EXPECT_TRUE(IsBadRequest(transport.GetStatus())) << transport.GetStatus();
}

int ThreadCount() {
    int count = 0;
    if (DIR* dir = opendir("/proc/self/task")) {
        while (dirent* entry = readdir(dir))
            count += entry->d_name[0] != '.';
        closedir(dir);
    }
    return count;
}

TEST_F(CppRestTransportTest, StartsAFewThreadsNotForty) {
    std::unique_ptr<Transport> transport = New(test::AdminTransportOptions());
    ASSERT_NE(transport, nullptr);
    StatusOr<HttpResponse> response = Send(*transport, Get("/version"));
    ASSERT_TRUE(response.Ok()) << response.GetStatus();
    EXPECT_FALSE(InitializeCppRestThreads(8)) << "the pool was sized by the first transport";
    EXPECT_LT(ThreadCount(), 12);
}

}  // namespace
}  // namespace ctrl::rest
