#include <cctype>
#include <string>
#include <string_view>

#include "ctrl/protobuf/internal/go_json.hpp"

// AppendCompactJson: a validating recursive-descent pass that copies the value without
// whitespace, escaping in strings what encoding/json's compact with HTML escaping does. The API
// server's FieldsV1 are compact already: a first pass only checks the bytes, and when they need no
// change (no whitespace, nothing to escape) they are copied in one piece.
namespace ctrl::protobuf::internal {
namespace {

constexpr int kMaxDepth = 1000;

// The bytes inside a string Compactor::String stops at: the closing quote, escapes, control
// characters, what encoding/json escapes ('<', '>', '&') and non-ASCII bytes (checked as UTF-8;
// U+2028 and U+2029 escaped).
struct StopTable {
    bool stop[256] = {};
    constexpr StopTable() {
        for (int c = 0; c < 256; ++c) {
            stop[c] = c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&';
        }
    }
};
constexpr StopTable kStop;

// kWrite: copy into out; without it, only check, and note in changed() whether the copy would differ.
template <bool kWrite>
class Compactor {
  public:
    Compactor(std::string& out, std::string_view in) : out_(out), in_(in) {}

    // Whether the copy differs from the input (a check-only pass stops at the first difference).
    bool changed() const { return changed_; }

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
        const std::size_t from = pos_;
        while (pos_ < in_.size() && (in_[pos_] == ' ' || in_[pos_] == '\t' || in_[pos_] == '\n' || in_[pos_] == '\r')) {
            ++pos_;
        }
        changed_ |= pos_ != from;
    }
    void Put(char c) {
        if constexpr (kWrite) {
            out_ += c;
        }
    }
    void Put(std::string_view text) {
        if constexpr (kWrite) {
            out_.append(text);
        }
    }
    // A copy that differs from the input: a check-only pass can stop here.
    bool Differs() {
        changed_ = true;
        return kWrite;
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
        Put(in_[pos_++]);
        SkipSpace();
        if (pos_ < in_.size() && in_[pos_] == close) {
            Put(in_[pos_++]);
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
                Put(in_[pos_++]);
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
            Put(c);
            if (c == close) {
                return true;
            }
            if (c != ',') {
                return false;
            }
        }
    }

    // Copies a string, keeping the escapes it has; like encoding/json's compact it escapes '<',
    // '>', '&', U+2028 and U+2029 and copies other bytes as they are. Invalid UTF-8 fails.
    bool String() {
        Put('"');
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
                Put(in_.substr(run, pos_ - run));
                Put('"');
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
            if (c >= 0x80) {
                unsigned code = 0;
                const std::size_t n = Utf8SequenceLength(in_, pos_, code);
                if (n == 0) {
                    return false;
                }
                if (code == 0x2028 || code == 0x2029) {
                    if (!Differs()) {
                        return false;
                    }
                    Put(in_.substr(run, pos_ - run));
                    Put(code == 0x2028 ? "\\u2028" : "\\u2029");
                    run = pos_ + n;
                }
                pos_ += n;
                continue;
            }
            if (!Differs()) {  // '<', '>' or '&'
                return false;
            }
            Put(in_.substr(run, pos_ - run));
            Put(c == '<' ? "\\u003c" : c == '>' ? "\\u003e" : "\\u0026");
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
        Put(word);
        pos_ += word.size();
        return true;
    }

    // A number as JSON's grammar has it: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
    bool Number() {
        const std::size_t start = pos_;
        const auto digit = [&] { return pos_ < in_.size() && in_[pos_] >= '0' && in_[pos_] <= '9'; };
        const auto digits = [&] {
            const std::size_t from = pos_;
            while (digit()) {
                ++pos_;
            }
            return pos_ > from;
        };
        if (pos_ < in_.size() && in_[pos_] == '-') {
            ++pos_;
        }
        if (pos_ < in_.size() && in_[pos_] == '0') {
            ++pos_;
        } else if (!digits()) {
            return false;
        }
        if (pos_ < in_.size() && in_[pos_] == '.') {
            ++pos_;
            if (!digits()) {
                return false;
            }
        }
        if (pos_ < in_.size() && (in_[pos_] == 'e' || in_[pos_] == 'E')) {
            ++pos_;
            if (pos_ < in_.size() && (in_[pos_] == '+' || in_[pos_] == '-')) {
                ++pos_;
            }
            if (!digits()) {
                return false;
            }
        }
        Put(in_.substr(start, pos_ - start));
        return true;
    }

    std::string& out_;
    std::string_view in_;
    std::size_t pos_ = 0;
    bool changed_ = false;
};

}  // namespace

bool AppendCompactJson(std::string& out, std::string_view raw) {
    Compactor<false> check(out, raw);
    const bool valid = check.Run();
    if (valid && !check.changed()) {
        out.append(raw);
        return true;
    }
    if (!valid && !check.changed()) {
        return false;  // invalid before anything would have changed: the copying pass fails the same way
    }
    const std::size_t size = out.size();
    if (Compactor<true>(out, raw).Run()) {
        return true;
    }
    out.resize(size);
    return false;
}

}  // namespace ctrl::protobuf::internal
