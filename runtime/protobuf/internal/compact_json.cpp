#include <cctype>
#include <string>
#include <string_view>

#include "runtime/protobuf/internal/go_json.hpp"

// AppendCompactJson: a validating recursive-descent pass that copies the value without
// whitespace, escaping in strings what encoding/json's compact with HTML escaping does.
namespace ctrl::protobuf::internal {
namespace {

constexpr int kMaxDepth = 1000;

// The bytes inside a string Compactor::String stops at: the closing quote, escapes, control
// characters, what encoding/json escapes ('<', '>', '&') and 0xE2 (U+2028 and U+2029 start with it).
struct StopTable {
    bool stop[256] = {};
    constexpr StopTable() {
        for (int c = 0; c < 256; ++c) {
            stop[c] = c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' || c == 0xE2;
        }
    }
};
constexpr StopTable kStop;

class Compactor {
  public:
    Compactor(std::string& out, std::string_view in) : out_(out), in_(in) {}

    bool Run() {
        SkipSpace();
        if (!Value(0)) {
            return false;
        }
        SkipSpace();
        return pos_ == in_.size();
    }

  private:
    void SkipSpace() {
        while (pos_ < in_.size() && (in_[pos_] == ' ' || in_[pos_] == '\t' || in_[pos_] == '\n' || in_[pos_] == '\r')) {
            ++pos_;
        }
    }

    bool Value(int depth) {
        if (pos_ >= in_.size() || depth > kMaxDepth) {
            return false;
        }
        switch (in_[pos_]) {
            case '{':
                return Container(depth, '}', true);
            case '[':
                return Container(depth, ']', false);
            case '"':
                return String();
            case 't':
                return Literal("true");
            case 'f':
                return Literal("false");
            case 'n':
                return Literal("null");
            default:
                return Number();
        }
    }

    bool Container(int depth, char close, bool object) {
        out_ += in_[pos_++];
        SkipSpace();
        if (pos_ < in_.size() && in_[pos_] == close) {
            out_ += in_[pos_++];
            return true;
        }
        while (true) {
            SkipSpace();
            if (object) {
                if (pos_ >= in_.size() || in_[pos_] != '"' || !String()) {
                    return false;
                }
                SkipSpace();
                if (pos_ >= in_.size() || in_[pos_] != ':') {
                    return false;
                }
                out_ += in_[pos_++];
                SkipSpace();
            }
            if (!Value(depth + 1)) {
                return false;
            }
            SkipSpace();
            if (pos_ >= in_.size()) {
                return false;
            }
            const char c = in_[pos_++];
            out_ += c;
            if (c == close) {
                return true;
            }
            if (c != ',') {
                return false;
            }
        }
    }

    // Copies a string, keeping the escapes it has; like encoding/json's compact it escapes '<',
    // '>', '&', U+2028 and U+2029 and copies other bytes (valid UTF-8 or not) as they are.
    bool String() {
        out_ += '"';
        std::size_t run = ++pos_;
        const auto* bytes = reinterpret_cast<const unsigned char*>(in_.data());
        while (true) {
            while (pos_ < in_.size() && !kStop.stop[bytes[pos_]]) {
                ++pos_;
            }
            if (pos_ >= in_.size()) {
                return false;
            }
            const unsigned char c = bytes[pos_];
            if (c == '"') {
                out_.append(in_.substr(run, pos_ - run));
                out_ += '"';
                ++pos_;
                return true;
            }
            if (c < 0x20) {
                return false;
            }
            if (c == '\\') {
                if (!Escape()) {
                    return false;
                }
                continue;
            }
            if (c == 0xE2) {
                if (pos_ + 2 < in_.size() && bytes[pos_ + 1] == 0x80 && (bytes[pos_ + 2] & ~1u) == 0xA8) {
                    out_.append(in_.substr(run, pos_ - run));
                    out_ += bytes[pos_ + 2] == 0xA8 ? "\\u2028" : "\\u2029";
                    pos_ += 3;
                    run = pos_;
                } else {
                    ++pos_;
                }
                continue;
            }
            out_.append(in_.substr(run, pos_ - run));  // '<', '>' or '&'
            out_ += c == '<' ? "\\u003c" : c == '>' ? "\\u003e" : "\\u0026";
            run = ++pos_;
        }
    }

    // Checks the escape at pos_ (a backslash) and steps over it.
    bool Escape() {
        if (pos_ + 1 >= in_.size()) {
            return false;
        }
        const char e = in_[pos_ + 1];
        if (e == 'u') {
            for (std::size_t i = 2; i < 6; ++i) {
                if (pos_ + i >= in_.size() || !std::isxdigit(static_cast<unsigned char>(in_[pos_ + i]))) {
                    return false;
                }
            }
            pos_ += 6;
            return true;
        }
        if (std::string_view("\"\\/bfnrt").find(e) == std::string_view::npos) {
            return false;
        }
        pos_ += 2;
        return true;
    }

    bool Literal(std::string_view word) {
        if (in_.substr(pos_, word.size()) != word) {
            return false;
        }
        out_ += word;
        pos_ += word.size();
        return true;
    }

    bool Number() {
        const std::size_t start = pos_;
        if (pos_ < in_.size() && in_[pos_] == '-') {
            ++pos_;
        }
        const std::size_t digits = pos_;
        while (pos_ < in_.size() && std::string_view("0123456789.eE+-").find(in_[pos_]) != std::string_view::npos) {
            ++pos_;
        }
        if (pos_ == digits || !std::isdigit(static_cast<unsigned char>(in_[digits]))) {
            return false;
        }
        out_.append(in_.substr(start, pos_ - start));
        return true;
    }

    std::string& out_;
    std::string_view in_;
    std::size_t pos_ = 0;
};

}  // namespace

bool AppendCompactJson(std::string& out, std::string_view raw) {
    const std::size_t size = out.size();
    if (Compactor(out, raw).Run()) {
        return true;
    }
    out.resize(size);
    return false;
}

}  // namespace ctrl::protobuf::internal
