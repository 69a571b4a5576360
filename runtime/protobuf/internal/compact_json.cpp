#include <cctype>
#include <string>
#include <string_view>

#include "runtime/protobuf/internal/go_json.hpp"

// AppendCompactJson: a validating recursive-descent pass that copies the value without
// whitespace, re-escaping strings as encoding/json's compact with HTML escaping does (it keeps
// the escapes it finds and escapes `<`, `>`, `&`, U+2028 and U+2029).
namespace ctrl::protobuf::internal {
namespace {

constexpr int kMaxDepth = 1000;

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

    bool String() {
        const std::size_t start = ++pos_;
        while (pos_ < in_.size() && in_[pos_] != '"') {
            const auto c = static_cast<unsigned char>(in_[pos_]);
            if (c < 0x20) {
                return false;
            }
            if (c == '\\') {
                ++pos_;
                if (pos_ >= in_.size()) {
                    return false;
                }
                const char e = in_[pos_];
                if (e == 'u') {
                    for (int i = 1; i <= 4; ++i) {
                        if (pos_ + static_cast<std::size_t>(i) >= in_.size() ||
                            !std::isxdigit(static_cast<unsigned char>(in_[pos_ + static_cast<std::size_t>(i)]))) {
                            return false;
                        }
                    }
                    pos_ += 4;
                } else if (std::string_view("\"\\/bfnrt").find(e) == std::string_view::npos) {
                    return false;
                }
            }
            ++pos_;
        }
        if (pos_ >= in_.size()) {
            return false;
        }
        // Escapes already present stay as they are; AppendGoString's rules apply to the rest.
        out_ += '"';
        std::size_t run = start;
        for (std::size_t i = start; i < pos_; ++i) {
            if (in_[i] == '\\') {
                AppendPlain(in_.substr(run, i - run));
                const std::size_t len = in_[i + 1] == 'u' ? 6 : 2;
                out_.append(in_.substr(i, len));
                i += len - 1;
                run = i + 1;
            }
        }
        AppendPlain(in_.substr(run, pos_ - run));
        out_ += '"';
        ++pos_;
        return true;
    }

    void AppendPlain(std::string_view s) { AppendGoStringContents(out_, s); }

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
