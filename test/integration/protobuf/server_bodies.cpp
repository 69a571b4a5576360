#include "test/integration/protobuf/server_bodies.hpp"

#include <gtest/gtest.h>

#include <chrono>

#include "ctrl/core/context.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/protobuf/transcode.hpp"
#include "ctrl/protobuf/watch_frames.hpp"
#include "test/support/kubeconfig_config.hpp"

namespace ctrl::protobuf::test {
namespace {

Task<StatusOr<std::string>> DoRequest(rest::RestClient& client, rest::HttpRequest request) {
    Context ctx = Context::WithTimeout(Context::Background(), std::chrono::seconds(30));
    StatusOr<rest::HttpResponse> response = co_await client.Do(ctx, std::move(request));
    if (!response.Ok()) {
        co_return response.GetStatus();
    }
    co_return std::move(response).Value().body;
}

Task<StatusOr<std::string>> ReadWatch(rest::RestClient& client, rest::HttpRequest request,
                                      bool (*done)(const std::string& body)) {
    Context ctx = Context::WithTimeout(Context::Background(), std::chrono::seconds(30));
    StatusOr<std::unique_ptr<rest::BodyStream>> stream = co_await client.Stream(ctx, std::move(request));
    if (!stream.Ok()) {
        co_return stream.GetStatus();
    }
    std::unique_ptr<rest::BodyStream> body_stream = std::move(stream).Value();
    std::string body;
    char buffer[65536];
    while (!done(body)) {
        StatusOr<std::size_t> n = co_await body_stream->ReadSome(ctx, buffer, sizeof buffer);
        if (!n.Ok()) {
            co_return n.GetStatus();
        }
        if (*n == 0) {
            break;
        }
        body.append(buffer, *n);
    }
    body_stream->Close();
    co_return body;
}

}  // namespace

ServerBodies::ServerBodies() {
    StatusOr<std::unique_ptr<rest::RestClient>> client =
        rest::RestClient::New(ctrl::testing::SharedAdminConfig(), io_.get_executor());
    EXPECT_TRUE(client.Ok()) << client.GetStatus();
    if (client.Ok()) {
        client_ = std::move(client).Value();
    }
}

StatusOr<std::string> ServerBodies::Get(const std::string& target, const std::string& accept) {
    rest::HttpRequest request;
    request.target = target;
    request.SetHeader("Accept", accept);
    return RunSync(io_, DoRequest(*client_, std::move(request)));
}

StatusOr<std::string> ServerBodies::Send(const std::string& method, const std::string& target, const std::string& body,
                                         const std::string& content_type) {
    rest::HttpRequest request;
    request.method = method;
    request.target = target;
    request.body = body;
    request.SetHeader("Accept", "application/json");
    request.SetHeader("Content-Type", content_type);
    return RunSync(io_, DoRequest(*client_, std::move(request)));
}

StatusOr<std::string> ServerBodies::WatchList(const std::string& collection, const std::string& accept,
                                              bool (*done)(const std::string& body)) {
    rest::HttpRequest request;
    request.target = collection +
                     "?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion="
                     "&allowWatchBookmarks=true&timeoutSeconds=20";
    request.SetHeader("Accept", accept);
    return RunSync(io_, ReadWatch(*client_, std::move(request), done));
}

std::vector<std::string> JsonWatchEvents(const std::string& body) {
    std::vector<std::string> events;
    std::size_t start = 0;
    while (start < body.size()) {
        std::size_t end = body.find('\n', start);
        if (end == std::string::npos) {
            end = body.size();
        }
        events.push_back(body.substr(start, end - start));
        start = end + 1;
    }
    return events;
}

std::vector<std::string> TranscodedWatchEvents(const std::string& body) {
    std::vector<std::string> events;
    WatchFrameReader reader;
    reader.Append(body);
    while (true) {
        StatusOr<std::optional<std::string_view>> frame = reader.Next();
        EXPECT_TRUE(frame.Ok()) << frame.GetStatus();
        if (!frame.Ok() || !frame->has_value()) {
            break;
        }
        std::string json;
        const Status status = AppendJsonForWatchEvent(**frame, json);
        EXPECT_TRUE(status.Ok()) << status;
        events.push_back(std::move(json));
    }
    EXPECT_EQ(reader.Pending(), 0u);
    return events;
}

}  // namespace ctrl::protobuf::test
