#include "ctrl/rest/request_builder.hpp"

namespace ctrl::rest {
namespace {

constexpr char kHex[] = "0123456789ABCDEF";

bool IsUnreserved(unsigned char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
           c == '.' || c == '~';
}

void AppendPercent(std::string& out, unsigned char c) {
    out += '%';
    out += kHex[c >> 4];
    out += kHex[c & 0xF];
}

// Checks a name used as a path segment, as client-go's IsValidPathSegmentName does.
Status ValidatePathSegment(std::string_view what, std::string_view segment) {
    if (segment == "." || segment == "..") {
        return BadRequestError(std::string(what) + " may not be '" + std::string(segment) + "'");
    }
    for (char c : segment) {
        if (c == '/' || c == '%') {
            return BadRequestError(std::string(what) + " \"" + std::string(segment) + "\" may not contain '" +
                                   std::string(1, c) + "'");
        }
    }
    return OkStatus();
}

}  // namespace

std::string EscapeQueryValue(std::string_view value) {
    std::string out;
    out.reserve(value.size());
    for (unsigned char c : value) {
        if (IsUnreserved(c)) {
            out += static_cast<char>(c);
        } else if (c == ' ') {
            out += '+';
        } else {
            AppendPercent(out, c);
        }
    }
    return out;
}

std::string EscapePathSegment(std::string_view segment) {
    std::string out;
    out.reserve(segment.size());
    for (unsigned char c : segment) {
        // Go's PathEscape keeps sub-delims and ':' '@' unescaped in a segment.
        const bool keep = IsUnreserved(c) || c == '$' || c == '&' || c == '+' || c == ',' || c == ';' || c == '=' ||
                          c == ':' || c == '@';
        if (keep) {
            out += static_cast<char>(c);
        } else {
            AppendPercent(out, c);
        }
    }
    return out;
}

RequestBuilder& RequestBuilder::GroupVersion(const ctrl::GroupVersion& gv) {
    group_version_ = gv;
    return *this;
}

RequestBuilder& RequestBuilder::Namespace(std::string_view namespace_name) {
    namespace_ = namespace_name;
    return *this;
}

RequestBuilder& RequestBuilder::Resource(std::string_view resource) {
    resource_ = resource;
    return *this;
}

RequestBuilder& RequestBuilder::Name(std::string_view name) {
    name_ = name;
    return *this;
}

RequestBuilder& RequestBuilder::SubResource(std::string_view subresource) {
    subresource_ = subresource;
    return *this;
}

RequestBuilder& RequestBuilder::AbsPath(std::string_view path) {
    abs_path_ = path;
    return *this;
}

RequestBuilder& RequestBuilder::Param(std::string_view key, std::string_view value) {
    params_.emplace_back(std::string(key), std::string(value));
    return *this;
}

RequestBuilder& RequestBuilder::List(const ListParams& p) {
    if (!p.label_selector.empty())
        Param("labelSelector", p.label_selector);
    if (!p.field_selector.empty())
        Param("fieldSelector", p.field_selector);
    if (p.limit)
        Param("limit", std::to_string(*p.limit));
    if (!p.continue_token.empty())
        Param("continue", p.continue_token);
    if (p.resource_version)
        Param("resourceVersion", *p.resource_version);
    if (!p.resource_version_match.empty())
        Param("resourceVersionMatch", p.resource_version_match);
    if (p.watch)
        Param("watch", "true");
    if (p.allow_watch_bookmarks)
        Param("allowWatchBookmarks", "true");
    if (p.send_initial_events)
        Param("sendInitialEvents", *p.send_initial_events ? "true" : "false");
    if (p.timeout_seconds)
        Param("timeoutSeconds", std::to_string(*p.timeout_seconds));
    return *this;
}

RequestBuilder& RequestBuilder::Write(const WriteParams& p) {
    if (p.dry_run)
        Param("dryRun", "All");
    if (!p.field_manager.empty())
        Param("fieldManager", p.field_manager);
    if (p.force)
        Param("force", *p.force ? "true" : "false");
    if (!p.field_validation.empty())
        Param("fieldValidation", p.field_validation);
    if (!p.propagation_policy.empty())
        Param("propagationPolicy", p.propagation_policy);
    if (p.grace_period_seconds)
        Param("gracePeriodSeconds", std::to_string(*p.grace_period_seconds));
    return *this;
}

RequestBuilder& RequestBuilder::Header(std::string name, std::string value) {
    request_.SetHeader(std::move(name), std::move(value));
    return *this;
}

RequestBuilder& RequestBuilder::Body(std::string body, std::string content_type) {
    request_.body = std::move(body);
    request_.SetHeader("Content-Type", std::move(content_type));
    return *this;
}

RequestBuilder& RequestBuilder::Timeout(std::chrono::milliseconds timeout) {
    request_.timeout = timeout;
    return *this;
}

StatusOr<HttpRequest> RequestBuilder::Build() const {
    std::string path;
    if (!abs_path_.empty()) {
        if (abs_path_.front() != '/')
            return BadRequestError("request path \"" + abs_path_ + "\" must start with '/'");
        path = abs_path_;
    } else {
        if (!group_version_ || group_version_->version.empty()) {
            return BadRequestError("request for resource \"" + resource_ + "\" has no group version");
        }
        path = group_version_->group.empty() ? "/api/" + group_version_->version
                                             : "/apis/" + group_version_->group + "/" + group_version_->version;
        if (!namespace_.empty()) {
            CTRL_RETURN_IF_ERROR(ValidatePathSegment("namespace", namespace_));
            path += "/namespaces/" + EscapePathSegment(namespace_);
        }
        if (!resource_.empty()) {
            CTRL_RETURN_IF_ERROR(ValidatePathSegment("resource", resource_));
            path += "/" + EscapePathSegment(resource_);
        }
        if (!name_.empty()) {
            if (resource_.empty())
                return BadRequestError("request names \"" + name_ + "\" but no resource");
            CTRL_RETURN_IF_ERROR(ValidatePathSegment("name", name_));
            path += "/" + EscapePathSegment(name_);
        }
        if (!subresource_.empty()) {
            if (name_.empty())
                return BadRequestError("subresource \"" + subresource_ + "\" needs a name");
            CTRL_RETURN_IF_ERROR(ValidatePathSegment("subresource", subresource_));
            path += "/" + EscapePathSegment(subresource_);
        }
    }
    HttpRequest request = request_;
    request.target = std::move(path);
    char separator = '?';
    for (const auto& [key, value] : params_) {
        request.target += separator;
        request.target += EscapeQueryValue(key);
        request.target += '=';
        request.target += EscapeQueryValue(value);
        separator = '&';
    }
    return request;
}

}  // namespace ctrl::rest
