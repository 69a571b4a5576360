#pragma once

// Splitting one fuzzer input into parts, for the targets that need more than one document or a
// few choices (the chunk sizes of a stream, two objects to diff). The split is a pure function of
// the bytes, so a crashing input replays exactly.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ctrl/core/object.hpp"

namespace ctrl::fuzz {

// Reads an input front to back: a few choice bytes first, then the rest as text.
class FuzzInput {
  public:
    FuzzInput(const std::uint8_t* data, std::size_t size) : rest_(reinterpret_cast<const char*>(data), size) {}

    // The next byte as a number (0 when the input is used up).
    std::uint8_t TakeByte() {
        if (rest_.empty())
            return 0;
        const auto byte = static_cast<std::uint8_t>(rest_.front());
        rest_.remove_prefix(1);
        return byte;
    }
    // The text up to the first occurrence of separator (removed), or all the rest when there is none.
    std::string_view TakeUntil(std::string_view separator) {
        const std::size_t at = rest_.find(separator);
        if (at == std::string_view::npos)
            return TakeRest();
        const std::string_view part = rest_.substr(0, at);
        rest_.remove_prefix(at + separator.size());
        return part;
    }
    std::string_view TakeRest() {
        const std::string_view part = rest_;
        rest_ = {};
        return part;
    }
    bool Empty() const { return rest_.empty(); }

  private:
    std::string_view rest_;
};

// Whether a JSON object in the document has two members of one name. Object keeps both (the API
// server's decoder keeps the last), so neither equality nor a patch path can tell them apart:
// properties that compare documents skip these.
bool HasDuplicateMembers(const Object& object);

// Stops the run (PropertyFailed) when status is an error other than BadRequest, the code every
// parser here gives malformed input.
void ExpectOkOrBadRequest(const Status& status, std::string_view what);

// Stops the run with a message when a property the target checks does not hold: libFuzzer (and
// the corpus replay) report the abort with the input that caused it.
[[noreturn]] void PropertyFailed(std::string_view what, std::string_view detail);

}  // namespace ctrl::fuzz
