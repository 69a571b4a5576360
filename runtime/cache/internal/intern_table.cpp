#include "ctrl/cache/internal/intern_table.hpp"

#include <algorithm>
#include <cstring>

namespace ctrl::cache::internal {

namespace {

// Recent first sights of values remembered (direct-mapped). A value objects share recurs within
// one or two objects' worth of values (a few hundred), so it is rarely pushed out before a second
// object shows it.
constexpr std::size_t kSeenSlots = 2048;

// Whether the n bytes at a and b are equal: inline, in a few overlapping word compares with few
// branches on n (memcmp is a call, and a byte loop's exit is mispredicted as lengths vary).
bool SameBytes(const char* a, const char* b, std::size_t n) {
    const auto word = [](const char* p, auto zero) {
        decltype(zero) w = 0;
        std::memcpy(&w, p, sizeof w);
        return w;
    };
    if (n >= 8) {
        for (std::size_t i = 0; i + 8 < n; i += 8) {
            if (word(a + i, uint64_t{}) != word(b + i, uint64_t{}))
                return false;
        }
        return word(a + n - 8, uint64_t{}) == word(b + n - 8, uint64_t{});
    }
    if (n >= 4)
        return word(a, uint32_t{}) == word(b, uint32_t{}) && word(a + n - 4, uint32_t{}) == word(b + n - 4, uint32_t{});
    // 0-3 bytes: the first, middle and last cover them all.
    return n == 0 || (a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1]);
}

}  // namespace

InternTable::InternTable(uint32_t max_names, uint32_t max_values)
    : names_(max_names < kMaxNames ? max_names : kMaxNames),
      values_(max_values < kMaxValues ? max_values : kMaxValues) {}

InternTable::~InternTable() = default;

InternTable::Strings::~Strings() {
    for (auto& block : blocks_)
        delete[] block.load(std::memory_order_relaxed);
}

bool InternTable::InternableName(std::string_view name) {
    // managedFields' set-element keys embed values ("k:{\"uid\":\"...\"}", "v:\"10.0.0.1\""): one per object.
    return name.size() <= kMaxNameBytes && !name.starts_with("k:{") && !name.starts_with("v:");
}

uint64_t InternTable::Hash(std::string_view s) {
    // Eight bytes at a time, multiplied and rotated: strings are short and the table is private.
    constexpr uint64_t kMul = 0x9e3779b97f4a7c15ULL;
    uint64_t h = s.size() * kMul;
    std::size_t i = 0;
    for (; i + 8 <= s.size(); i += 8) {
        uint64_t word = 0;
        std::memcpy(&word, s.data() + i, 8);
        h = ((h ^ word) * kMul);
        h ^= h >> 29;
    }
    uint64_t tail = 0;  // byte by byte: a memcpy of a variable length is a call
    for (std::size_t j = 0; i + j < s.size(); ++j)
        tail |= static_cast<uint64_t>(static_cast<uint8_t>(s[i + j])) << (8 * j);
    h = (h ^ tail) * kMul;
    // A multiply carries a byte only upwards: mix the high bits down (MurmurHash3's finalizer), as
    // the tables index by the low bits ("value-1" and "value-2" differ in their 7th byte only).
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h | 1;  // never 0, which marks a free slot
}

std::optional<uint32_t> InternTable::Strings::Find(std::string_view s, uint64_t hash) const {
    const std::size_t mask = slots_.size() - 1;
    const uint32_t fingerprint = Fingerprint(hash);
    for (std::size_t i = hash & mask; slots_[i].fingerprint != 0; i = (i + 1) & mask) {
        const Slot& slot = slots_[i];
        if (slot.fingerprint != fingerprint)
            continue;
        const std::string_view found = Get(slot.id);
        if (found.size() == s.size() && SameBytes(found.data(), s.data(), s.size()))
            return slot.id;
    }
    return std::nullopt;
}

std::optional<uint32_t> InternTable::Strings::Add(std::string_view s, uint64_t hash) {
    const auto id = static_cast<uint32_t>(strings_.size());
    if (id >= max_)
        return std::nullopt;
    const std::string& stored = strings_.emplace_back(s);
    text_bytes_ += s.size();
    std::string_view* block = blocks_[id / kBlockSize].load(std::memory_order_relaxed);
    if (block == nullptr) {
        block = new std::string_view[kBlockSize];
        blocks_[id / kBlockSize].store(block, std::memory_order_release);
    }
    block[id % kBlockSize] = stored;
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = hash & mask;
    while (slots_[i].fingerprint != 0)
        i = (i + 1) & mask;
    slots_[i] = Slot{Fingerprint(hash), id};
    if (strings_.size() * 2 > slots_.size())
        Grow();
    return id;
}

void InternTable::Strings::Grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.size() * 2, Slot{});
    const std::size_t mask = slots_.size() - 1;
    for (const Slot& slot : old) {
        if (slot.fingerprint == 0)
            continue;
        std::size_t i = Hash(Get(slot.id)) & mask;  // the slot keeps only the hash's high half
        while (slots_[i].fingerprint != 0)
            i = (i + 1) & mask;
        slots_[i] = slot;
    }
}

std::size_t InternTable::Strings::BytesHeld() const {
    std::size_t blocks = 0;
    for (const auto& block : blocks_)
        blocks += block.load(std::memory_order_relaxed) != nullptr ? 1 : 0;
    return text_bytes_ + strings_.size() * sizeof(std::string) + slots_.size() * sizeof(Slot) +
           blocks * kBlockSize * sizeof(std::string_view);
}

std::optional<uint32_t> InternTable::InternNameLocked(std::string_view name) {
    if (!InternableName(name))
        return std::nullopt;
    const uint64_t hash = Hash(name);
    if (std::optional<uint32_t> id = names_.Find(name, hash))
        return id;
    return names_.Add(name, hash);
}

std::optional<uint32_t> InternTable::InternNameAtLocked(std::string_view name, std::size_t position) {
    if (position < guesses_.size()) {
        const Guess& guess = guesses_[position];
        if (guess.data != nullptr && guess.size == name.size() && SameBytes(guess.data, name.data(), name.size()))
            return guess.id;
    }
    const std::optional<uint32_t> id = InternNameLocked(name);
    if (id && position < kGuessedPositions) {
        if (position >= guesses_.size())
            guesses_.resize(std::min(kGuessedPositions, std::max(position + 1, guesses_.size() * 2)));
        const std::string_view interned = names_.Get(*id);
        guesses_[position] = Guess{interned.data(), static_cast<uint32_t>(interned.size()), *id};
    }
    return id;
}

std::optional<uint32_t> InternTable::InternValueLocked(std::string_view value) {
    if (value.size() < kMinValueBytes || value.size() > kMaxValueBytes)
        return std::nullopt;
    const uint64_t hash = Hash(value);
    if (std::optional<uint32_t> id = values_.Find(value, hash))
        return id;
    if (values_.Full() || values_.TextBytes() + value.size() > kMaxValueTextBytes)
        return std::nullopt;
    if (!seen_)
        seen_ = std::make_unique<Sight[]>(kSeenSlots);
    const uint32_t fingerprint = Fingerprint(hash);
    Sight& seen = seen_[(hash >> 1) % kSeenSlots];
    if (seen.fingerprint != fingerprint) {
        seen = Sight{fingerprint, object_};  // the first sight: inline this time
        return std::nullopt;
    }
    if (seen.object == object_)
        return std::nullopt;  // again in the object that showed it first: not shared (yet)
    seen = Sight{};
    return values_.Add(value, hash);
}

uint32_t InternTable::NameCount() const {
    std::lock_guard lock(mu_);
    return names_.Size();
}

uint32_t InternTable::ValueCount() const {
    std::lock_guard lock(mu_);
    return values_.Size();
}

std::size_t InternTable::BytesHeld() const {
    std::lock_guard lock(mu_);
    return names_.BytesHeld() + values_.BytesHeld() + (seen_ ? kSeenSlots * sizeof(Sight) : 0) +
           guesses_.capacity() * sizeof(Guess);
}

}  // namespace ctrl::cache::internal
