#include "ctrl/server/auth_filter.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <set>

#include <boost/asio/io_context.hpp>

#include "ctrl/core/run_sync.hpp"
#include "ctrl/server/internal/review_cache.hpp"

namespace ctrl::server {
namespace {

using ::testing::HasSubstr;

// Knows some tokens and which users may get which paths; counts the reviews asked of it.
class FakeReviewer final : public AccessReviewer {
  public:
    std::map<std::string, std::string> users;              // token -> username
    std::set<std::pair<std::string, std::string>> rights;  // (username, path)
    Status fail_with = OkStatus();
    int token_reviews = 0;
    int access_reviews = 0;
    std::string last_verb;

    Task<StatusOr<TokenUser>> ReviewToken(Context, std::string token) override {
        ++token_reviews;
        if (!fail_with.Ok())
            co_return fail_with;
        TokenUser user;
        if (auto it = users.find(token); it != users.end()) {
            user.authenticated = true;
            user.username = it->second;
            user.groups = {"system:authenticated"};
        }
        co_return user;
    }
    Task<StatusOr<bool>> ReviewAccess(Context, TokenUser user, std::string verb, std::string path) override {
        ++access_reviews;
        last_verb = verb;
        co_return rights.contains({user.username, path});
    }
};

class AuthFilterTest : public ::testing::Test {
  protected:
    void Build(AuthFilterOptions options = {}) {
        handler_ = WithAuthenticationAndAuthorization(
            reviewer_,
            [this](const ServerRequest&) -> Task<ServerResponse> {
                ++served_;
                co_return TextResponse(200, "metrics");
            },
            options);
    }
    ServerResponse Get(std::string authorization, std::string path = "/metrics") {
        ServerRequest request;
        request.method = "GET";
        request.path = std::move(path);
        if (!authorization.empty())
            request.headers.emplace_back("Authorization", std::move(authorization));
        return RunSync(io_, handler_(request));
    }

    boost::asio::io_context io_;
    std::shared_ptr<FakeReviewer> reviewer_ = std::make_shared<FakeReviewer>();
    HttpHandler handler_;
    int served_ = 0;
};

TEST_F(AuthFilterTest, NoOrMalformedTokenIs401WithoutAskingTheServer) {
    Build();
    EXPECT_EQ(Get("").status, 401);
    EXPECT_EQ(Get("Basic dXNlcjpwdw==").status, 401);
    EXPECT_EQ(Get("Bearer ").status, 401);
    EXPECT_EQ(reviewer_->token_reviews, 0);
    EXPECT_EQ(served_, 0);
}

TEST_F(AuthFilterTest, InvalidTokenIs401) {
    Build();
    EXPECT_EQ(Get("Bearer forged").status, 401);
    EXPECT_EQ(reviewer_->access_reviews, 0);
}

TEST_F(AuthFilterTest, UserWithoutTheRightIs403AndWithItReachesTheHandler) {
    reviewer_->users = {{"t-alice", "alice"}, {"t-bob", "bob"}};
    reviewer_->rights = {{"alice", "/metrics"}};
    Build();
    ServerResponse denied = Get("Bearer t-bob");
    EXPECT_EQ(denied.status, 403);
    EXPECT_THAT(denied.body, HasSubstr("Authorization denied for user bob"));
    ServerResponse allowed = Get("bearer t-alice");
    EXPECT_EQ(allowed.status, 200);
    EXPECT_EQ(allowed.body, "metrics");
    EXPECT_EQ(reviewer_->last_verb, "get");
    EXPECT_EQ(served_, 1);
    // The right is per path.
    EXPECT_EQ(Get("Bearer t-alice", "/metrics/extra").status, 403);
}

TEST_F(AuthFilterTest, VerdictsAreCachedPerToken) {
    reviewer_->users = {{"t-alice", "alice"}, {"t-bob", "bob"}};
    reviewer_->rights = {{"alice", "/metrics"}};
    Build();
    for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(Get("Bearer t-alice").status, 200);
        EXPECT_EQ(Get("Bearer t-bob").status, 403);
        EXPECT_EQ(Get("Bearer nobody").status, 401);
    }
    EXPECT_EQ(reviewer_->token_reviews, 3);
    EXPECT_EQ(reviewer_->access_reviews, 2);
}

TEST_F(AuthFilterTest, ExpiredVerdictsAreAskedAgain) {
    reviewer_->users = {{"t-bob", "bob"}};
    AuthFilterOptions options;
    options.denied_ttl = std::chrono::milliseconds(0);
    Build(options);
    EXPECT_EQ(Get("Bearer t-bob").status, 403);
    reviewer_->rights = {{"bob", "/metrics"}};  // RBAC granted meanwhile
    EXPECT_EQ(Get("Bearer t-bob").status, 200);
    EXPECT_EQ(reviewer_->token_reviews, 1);  // the user is still cached
    EXPECT_EQ(reviewer_->access_reviews, 2);
}

TEST_F(AuthFilterTest, ServerErrorsAre500AndNotCached) {
    reviewer_->users = {{"t-alice", "alice"}};
    reviewer_->rights = {{"alice", "/metrics"}};
    reviewer_->fail_with = UnavailableError("connection refused");
    Build();
    ServerResponse failed = Get("Bearer t-alice");
    EXPECT_EQ(failed.status, 500);
    EXPECT_THAT(failed.body, ::testing::Not(HasSubstr("connection refused")));
    reviewer_->fail_with = OkStatus();
    EXPECT_EQ(Get("Bearer t-alice").status, 200);
}

TEST(ReviewCacheTest, BoundedDroppingExpiredThenSoonestToExpire) {
    using Clock = std::chrono::steady_clock;
    internal::ReviewCache<int> cache(2);
    const Clock::time_point now = Clock::now();
    cache.Put("a", 1, now + std::chrono::seconds(10), now);
    cache.Put("b", 2, now + std::chrono::seconds(5), now);
    cache.Put("c", 3, now + std::chrono::seconds(20), now);  // full: b expires first, goes
    EXPECT_EQ(cache.Size(), 2u);
    EXPECT_EQ(cache.Get("a", now), 1);
    EXPECT_FALSE(cache.Get("b", now).has_value());
    EXPECT_EQ(cache.Get("c", now), 3);
    EXPECT_FALSE(cache.Get("a", now + std::chrono::seconds(11)).has_value());  // expired
    EXPECT_EQ(cache.Size(), 1u);
}

}  // namespace
}  // namespace ctrl::server
