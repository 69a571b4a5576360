#include "ctrl/server/access_reviewer.hpp"

#include <utility>

#include "ctrl/core/json_string.hpp"
#include "ctrl/core/object.hpp"

namespace ctrl::server {
namespace {

void AppendStringArray(std::string& out, const std::vector<std::string>& values) {
    out += '[';
    for (size_t i = 0; i < values.size(); ++i) {
        if (i > 0)
            out += ',';
        AppendJsonString(out, values[i]);
    }
    out += ']';
}

std::string TokenReviewJson(const std::string& token) {
    std::string json = R"({"apiVersion":"authentication.k8s.io/v1","kind":"TokenReview","spec":{"token":)";
    AppendJsonString(json, token);
    json += "}}";
    return json;
}

std::string SubjectAccessReviewJson(const TokenUser& user, const std::string& verb, const std::string& path) {
    std::string json = R"({"apiVersion":"authorization.k8s.io/v1","kind":"SubjectAccessReview","spec":{"user":)";
    AppendJsonString(json, user.username);
    json += R"(,"uid":)";
    AppendJsonString(json, user.uid);
    json += R"(,"groups":)";
    AppendStringArray(json, user.groups);
    json += R"(,"nonResourceAttributes":{"path":)";
    AppendJsonString(json, path);
    json += R"(,"verb":)";
    AppendJsonString(json, verb);
    json += "}}}";
    return json;
}

class ClientAccessReviewer final : public AccessReviewer {
  public:
    explicit ClientAccessReviewer(client::Client& client) : client_(client) {}

    Task<StatusOr<TokenUser>> ReviewToken(Context ctx, std::string token) override {
        CTRL_CO_ASSIGN_OR_RETURN(Object review, Object::Parse(TokenReviewJson(token)));
        CTRL_CO_RETURN_IF_ERROR(co_await client_.Create(ctx, review));
        TokenUser user;
        StatusOr<bool> authenticated = review.NestedBool({"status", "authenticated"});
        user.authenticated = authenticated.Ok() && *authenticated;
        if (!user.authenticated)
            co_return user;
        if (StatusOr<std::string> name = review.NestedString({"status", "user", "username"}); name.Ok())
            user.username = std::move(*name);
        if (StatusOr<std::string> uid = review.NestedString({"status", "user", "uid"}); uid.Ok())
            user.uid = std::move(*uid);
        if (StatusOr<std::vector<std::string>> groups = review.NestedStringSlice({"status", "user", "groups"});
            groups.Ok())
            user.groups = std::move(*groups);
        co_return user;
    }

    Task<StatusOr<bool>> ReviewAccess(Context ctx, TokenUser user, std::string verb, std::string path) override {
        CTRL_CO_ASSIGN_OR_RETURN(Object review, Object::Parse(SubjectAccessReviewJson(user, verb, path)));
        CTRL_CO_RETURN_IF_ERROR(co_await client_.Create(ctx, review));
        StatusOr<bool> allowed = review.NestedBool({"status", "allowed"});
        co_return allowed.Ok() && *allowed;
    }

  private:
    client::Client& client_;
};

}  // namespace

std::shared_ptr<AccessReviewer> NewClientAccessReviewer(client::Client& client) {
    return std::make_shared<ClientAccessReviewer>(client);
}

}  // namespace ctrl::server
