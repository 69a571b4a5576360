#include "ctrl/rest/watch_stream.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <cstring>
#include <string>
#include <variant>
#include <vector>

#include "ctrl/core/run_sync.hpp"
#include "test/support/eventually.hpp"
#include "test/support/read_file.hpp"
#include "test/support/repo_path.hpp"

namespace ctrl::rest {
namespace {

using ctrl::testing::TestContext;
using ::testing::Each;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using Type = WatchEvent::Type;

std::string ReadTestdata(const std::string& name) {
    return ::ctrl::testing::ReadFile(::ctrl::testing::RepoPath(CTRL_TESTDATA_DIR) + "/" + name);
}

// What a FakeBodyStream saw, kept by the test after the stream is gone.
struct BodyLog {
    std::vector<std::size_t> reads;  // the size asked by each ReadSome
    int closes = 0;
};

// A watch body in memory: each step of the script is bytes (handed out in pieces when a read asks for
// fewer) or an error; after the script the body ends cleanly.
class FakeBodyStream final : public BodyStream {
  public:
    using Step = std::variant<std::string, Status>;

    FakeBodyStream(std::vector<Step> script, std::shared_ptr<BodyLog> log)
        : script_(std::move(script)), log_(std::move(log)) {}

    int StatusCode() const override { return 200; }
    const std::vector<Header>& Headers() const override { return headers_; }

    Task<StatusOr<std::size_t>> ReadSome(Context ctx, char* data, std::size_t size) override {
        log_->reads.push_back(size);
        if (Status err = ctx.Err(); !err.Ok())
            co_return err;
        if (log_->closes > 0)
            co_return CancelledError("read from a closed body");
        if (next_ == script_.size())
            co_return std::size_t{0};
        if (const Status* status = std::get_if<Status>(&script_[next_])) {
            ++next_;
            co_return *status;
        }
        const std::string& bytes = std::get<std::string>(script_[next_]);
        const std::size_t count = std::min(size, bytes.size() - offset_);
        std::memcpy(data, bytes.data() + offset_, count);
        offset_ += count;
        if (offset_ == bytes.size()) {
            ++next_;
            offset_ = 0;
        }
        co_return count;
    }

    void Close() override { ++log_->closes; }

  private:
    std::vector<Step> script_;
    std::shared_ptr<BodyLog> log_;
    std::vector<Header> headers_{{"Content-Type", "application/json"}};
    std::size_t next_ = 0;
    std::size_t offset_ = 0;
};

// A WatchStream over a scripted body, and the io_context its Next runs on.
class WatchStreamTest : public ::testing::Test {
  protected:
    WatchStream Open(std::vector<FakeBodyStream::Step> script, WatchStreamOptions options = {}) {
        return WatchStream(std::make_unique<FakeBodyStream>(std::move(script), log_), options);
    }
    StatusOr<std::optional<WatchEvent>> Next(WatchStream& stream, Context ctx = TestContext()) {
        return RunSync(io_, stream.Next(ctx));
    }
    // Every event until the end or an error, which is returned.
    Status ReadAll(WatchStream& stream, std::vector<WatchEvent>& events) {
        while (true) {
            auto event = Next(stream);
            if (!event.Ok())
                return event.GetStatus();
            if (!event->has_value())
                return OkStatus();
            events.push_back(std::move(**event));
        }
    }

    boost::asio::io_context io_;
    std::shared_ptr<BodyLog> log_ = std::make_shared<BodyLog>();
};

const std::string kAdded = R"({"type":"ADDED","object":{"kind":"Pod","metadata":{"name":"a"}}})"
                           "\n";
const std::string kModified = R"({"type":"MODIFIED","object":{"kind":"Pod","metadata":{"name":"a"}}})"
                              "\n";

TEST_F(WatchStreamTest, DecodesEventsSplitAcrossReadsThenEndsCleanly) {
    const std::string body = ReadTestdata("watch_events.ndjson");
    WatchStream stream = Open({body.substr(0, 100), body.substr(100, 1000), body.substr(1100)});
    std::vector<WatchEvent> events;
    ASSERT_TRUE(ReadAll(stream, events).Ok());
    std::vector<Type> types;
    for (const WatchEvent& event : events)
        types.push_back(event.type);
    EXPECT_THAT(
        types, ElementsAre(Type::kAdded, Type::kAdded, Type::kModified, Type::kBookmark, Type::kDeleted, Type::kError));
    EXPECT_EQ(events[3].object.ResourceVersion(), "1210");
    EXPECT_EQ(stream.BytesRead(), body.size());
    EXPECT_EQ(log_->closes, 1) << "the body is released at its end";
    // The end is for good.
    auto again = Next(stream);
    ASSERT_TRUE(again.Ok());
    EXPECT_FALSE(again->has_value());
    EXPECT_EQ(stream.StatusCode(), 200);
}

TEST_F(WatchStreamTest, ReadsInBlocksOnlyWhenNoEventIsBuffered) {
    WatchStream stream = Open({kAdded + kModified + kAdded, kModified});
    for (int i = 0; i < 3; ++i) {
        auto event = Next(stream);
        ASSERT_TRUE(event.Ok() && event->has_value()) << i;
        EXPECT_EQ(log_->reads.size(), 1u) << "event " << i << " was buffered";
    }
    auto fourth = Next(stream);
    ASSERT_TRUE(fourth.Ok() && fourth->has_value());
    EXPECT_EQ((*fourth)->type, Type::kModified);
    EXPECT_EQ(log_->reads.size(), 2u);
    EXPECT_THAT(log_->reads, Each(65536u));
}

TEST_F(WatchStreamTest, ReadsTheBlockSizeAskedFor) {
    WatchStream stream = Open({kAdded + kModified}, {.read_block_bytes = 7, .decoder = {}});
    std::vector<WatchEvent> events;
    ASSERT_TRUE(ReadAll(stream, events).Ok());
    EXPECT_EQ(events.size(), 2u);
    EXPECT_THAT(log_->reads, Each(7u));
    EXPECT_EQ(log_->reads.size(), (kAdded.size() + kModified.size() + 6) / 7 + 1);
}

TEST_F(WatchStreamTest, AnErrorEventIsAnEventThatConvertsToGone) {
    WatchStream stream = Open({kAdded + R"json({"type":"ERROR","object":{"kind":"Status","apiVersion":"v1",)json"
                                        R"json("metadata":{},"status":"Failure","message":"too old resource )json"
                                        R"json(version: 5 (9)","reason":"Expired","code":410}})json"
                                        "\n"});
    std::vector<WatchEvent> events;
    ASSERT_TRUE(ReadAll(stream, events).Ok());
    ASSERT_EQ(events.size(), 2u);
    EXPECT_TRUE(StatusFromWatchEvent(events[0]).Ok());
    ASSERT_EQ(events[1].type, Type::kError);
    const Status status = StatusFromWatchEvent(events[1]);
    EXPECT_TRUE(IsGone(status)) << status;
    EXPECT_EQ(status.HttpCode(), 410);
    EXPECT_EQ(status.Reason(), "Expired");
    EXPECT_EQ(status.Message(), "too old resource version: 5 (9)");
}

TEST_F(WatchStreamTest, EndingMidEventIsUnavailable) {
    const std::string cut = R"({"type":"MODIFIED","object":{"kind":"Po)";
    WatchStream stream = Open({kAdded, cut});
    auto first = Next(stream);
    ASSERT_TRUE(first.Ok() && first->has_value());
    auto second = Next(stream);
    ASSERT_FALSE(second.Ok());
    EXPECT_TRUE(IsUnavailable(second.GetStatus()));
    EXPECT_THAT(second.GetStatus().Message(), HasSubstr("watch stream ended mid-event after " +
                                                        std::to_string(kAdded.size() + cut.size()) + " bytes"));
    EXPECT_EQ(Next(stream).GetStatus(), second.GetStatus());
    EXPECT_EQ(log_->closes, 1);
}

TEST_F(WatchStreamTest, AReadErrorEndsTheStreamAndClosesIt) {
    WatchStream stream = Open({kAdded, UnavailableError("connection reset by peer")});
    auto first = Next(stream);
    ASSERT_TRUE(first.Ok() && first->has_value());
    auto second = Next(stream);
    EXPECT_TRUE(IsUnavailable(second.GetStatus()));
    EXPECT_THAT(second.GetStatus().Message(), HasSubstr("connection reset by peer"));
    EXPECT_EQ(log_->closes, 1);
    const std::size_t reads = log_->reads.size();
    EXPECT_EQ(Next(stream).GetStatus(), second.GetStatus());
    EXPECT_EQ(log_->reads.size(), reads) << "no read after an error";
}

TEST_F(WatchStreamTest, AMalformedEventIsBadRequest) {
    WatchStream stream = Open({kAdded + "{\"type\":\"ADDED\",\"object\":{]}\n" + kModified});
    ASSERT_TRUE(Next(stream).Ok());
    auto bad = Next(stream);
    EXPECT_TRUE(IsBadRequest(bad.GetStatus()));
    EXPECT_THAT(bad.GetStatus().Message(), HasSubstr("byte offset " + std::to_string(kAdded.size() + 26)));
    EXPECT_EQ(log_->closes, 1);
}

TEST_F(WatchStreamTest, CloseStopsTheStream) {
    WatchStream stream = Open({kAdded + kModified});
    ASSERT_TRUE(Next(stream).Ok());
    stream.Close();
    stream.Close();
    EXPECT_EQ(log_->closes, 1);
    auto after = Next(stream);
    EXPECT_TRUE(IsCancelled(after.GetStatus())) << after.GetStatus();
}

TEST_F(WatchStreamTest, ACancelledContextIsCancelledWithoutReading) {
    WatchStream stream = Open({kAdded});
    Context ctx = Context::WithCancel(TestContext());
    ctx.Cancel();
    auto event = Next(stream, ctx);
    EXPECT_TRUE(IsCancelled(event.GetStatus())) << event.GetStatus();
    EXPECT_TRUE(log_->reads.empty());
}

TEST_F(WatchStreamTest, DestroyingTheStreamClosesTheBody) {
    { WatchStream stream = Open({kAdded}); }
    EXPECT_EQ(log_->closes, 1);
}

// StatusFromWatchEvent on an ERROR event carrying this metav1.Status.
Status ErrorEventStatus(const std::string& status_json) {
    WatchEvent event{Type::kError, *Object::Parse(status_json)};
    return StatusFromWatchEvent(event);
}

TEST(StatusFromWatchEventTest, MapsReasonsAndCodesKeepingMessageCodeAndReason) {
    const std::tuple<std::string, int, StatusCode> cases[] = {
        {"Expired", 410, StatusCode::kGone},
        {"Gone", 410, StatusCode::kGone},
        {"", 410, StatusCode::kGone},
        {"NotFound", 404, StatusCode::kNotFound},
        {"Forbidden", 403, StatusCode::kForbidden},
        {"Unauthorized", 401, StatusCode::kUnauthorized},
        {"InternalError", 500, StatusCode::kInternal},
        {"", 500, StatusCode::kInternal},
        {"Timeout", 504, StatusCode::kTimeout},
        {"ServerTimeout", 500, StatusCode::kTimeout},
        {"ServiceUnavailable", 503, StatusCode::kUnavailable},
        {"Conflict", 409, StatusCode::kConflict},
        {"AlreadyExists", 409, StatusCode::kAlreadyExists},
        {"BadRequest", 400, StatusCode::kBadRequest},
        {"MethodNotAllowed", 405, StatusCode::kMethodNotAllowed},
        {"", 418, StatusCode::kUnknown},
    };
    for (const auto& [reason, code, want] : cases) {
        const Status status = ErrorEventStatus(R"({"kind":"Status","apiVersion":"v1","status":"Failure",)"
                                               R"("message":"the message","reason":")" +
                                               reason + R"(","code":)" + std::to_string(code) + "}");
        EXPECT_EQ(status.Code(), want) << reason << " " << code << ": " << status;
        EXPECT_EQ(status.Message(), "the message");
        EXPECT_EQ(status.HttpCode(), code);
        EXPECT_EQ(status.Reason(), reason);
    }
}

TEST(StatusFromWatchEventTest, KeepsCausesAndRetryAfter) {
    const Status invalid = ErrorEventStatus(
        R"({"kind":"Status","status":"Failure","message":"Pod \"x\" is invalid","reason":"Invalid","code":422,)"
        R"("details":{"name":"x","kind":"Pod","causes":[{"reason":"FieldValueRequired","message":"Required value",)"
        R"("field":"spec.containers"}]}})");
    EXPECT_TRUE(IsInvalid(invalid)) << invalid;
    EXPECT_THAT(invalid.Causes(), ElementsAre(StatusCause{"FieldValueRequired", "Required value", "spec.containers"}));

    const Status throttled =
        ErrorEventStatus(R"({"kind":"Status","message":"slow down","reason":"TooManyRequests","code":429,)"
                         R"("details":{"retryAfterSeconds":7}})");
    EXPECT_TRUE(IsTooManyRequests(throttled)) << throttled;
    EXPECT_EQ(throttled.RetryAfter(), std::chrono::seconds(7));
}

TEST(StatusFromWatchEventTest, AnErrorWithoutAStatusIsUnknownAndOtherEventsAreOk) {
    const Status odd = ErrorEventStatus(R"({"kind":"Pod"})");
    EXPECT_EQ(odd.Code(), StatusCode::kUnknown);
    EXPECT_THAT(odd.Message(), HasSubstr("ERROR event"));
    EXPECT_TRUE(StatusFromWatchEvent(WatchEvent{Type::kDeleted, Object()}).Ok());
}

}  // namespace
}  // namespace ctrl::rest
