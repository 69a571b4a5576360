#include "runtime/cache/internal/key_table.hpp"

#include <cstring>

namespace ctrl::cache::internal {

KeyTable::~KeyTable() {
    for (auto& block : blocks_)
        delete[] block.load(std::memory_order_relaxed);
}

bool KeyTable::Internable(std::string_view name) {
    // managedFields' set-element keys embed values ("k:{\"uid\":\"...\"}", "v:\"10.0.0.1\""): one per object.
    return name.size() <= kMaxKeyBytes && !name.starts_with("k:{") && !name.starts_with("v:");
}

uint64_t KeyTable::Hash(std::string_view name) {
    // Eight bytes at a time, multiplied and rotated: names are short and the table is private.
    constexpr uint64_t kMul = 0x9e3779b97f4a7c15ULL;
    uint64_t h = name.size() * kMul;
    std::size_t i = 0;
    for (; i + 8 <= name.size(); i += 8) {
        uint64_t word = 0;
        std::memcpy(&word, name.data() + i, 8);
        h = ((h ^ word) * kMul);
        h ^= h >> 29;
    }
    uint64_t tail = 0;
    std::memcpy(&tail, name.data() + i, name.size() - i);
    h = (h ^ tail) * kMul;
    h ^= h >> 32;
    return h | 1;  // never 0, which marks a free slot
}

void KeyTable::GrowLocked() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.size() * 2, Slot{});
    const std::size_t mask = slots_.size() - 1;
    for (const Slot& slot : old) {
        if (slot.hash == 0)
            continue;
        std::size_t i = slot.hash & mask;
        while (slots_[i].hash != 0)
            i = (i + 1) & mask;
        slots_[i] = slot;
    }
}

std::optional<uint32_t> KeyTable::InternLocked(std::string_view name) {
    if (max_keys_ == 0 || !Internable(name))
        return std::nullopt;
    const uint64_t hash = Hash(name);
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = hash & mask;
    for (; slots_[i].hash != 0; i = (i + 1) & mask) {
        if (slots_[i].hash == hash && Name(slots_[i].id) == name)
            return slots_[i].id;
    }
    const auto id = static_cast<uint32_t>(names_.size());
    if (id >= max_keys_)
        return std::nullopt;
    const std::string& stored = names_.emplace_back(name);
    name_bytes_ += name.size();
    std::string_view* block = blocks_[id / kBlockSize].load(std::memory_order_relaxed);
    if (block == nullptr) {
        block = new std::string_view[kBlockSize];
        blocks_[id / kBlockSize].store(block, std::memory_order_release);
    }
    block[id % kBlockSize] = stored;
    slots_[i] = Slot{hash, id};
    if (names_.size() * 2 > slots_.size())
        GrowLocked();
    return id;
}

uint32_t KeyTable::Size() const {
    std::lock_guard lock(mu_);
    return static_cast<uint32_t>(names_.size());
}

std::size_t KeyTable::BytesHeld() const {
    std::lock_guard lock(mu_);
    std::size_t blocks = 0;
    for (const auto& block : blocks_)
        blocks += block.load(std::memory_order_relaxed) != nullptr ? 1 : 0;
    return name_bytes_ + names_.size() * sizeof(std::string) + slots_.size() * sizeof(Slot) +
           blocks * kBlockSize * sizeof(std::string_view);
}

}  // namespace ctrl::cache::internal
