#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ctrl::cache::internal {

// The member names of one store's objects ("metadata", "containerPort", "app.kubernetes.io/name"),
// each held once and named by a small number, so an encoded object spends one byte on most
// names. Names that look unique to one object (managedFields' "k:{...}" and "v:..." keys, long
// names) are not interned, and the table stops growing at kMaxKeys, so its size is bounded
// whatever the objects hold.
//
// Intern may be called from one thread at a time or several (it locks). Name(id) is lock-free
// and may run on any thread that learned id through a happens-before edge from the Intern that
// returned it (the store's lock publishes the encoded objects that carry ids).
class KeyTable {
  public:
    static constexpr std::size_t kMaxKeyBytes = 40;
    static constexpr uint32_t kBlockSize = 256;
    static constexpr uint32_t kMaxBlocks = 32;
    static constexpr uint32_t kMaxKeys = kBlockSize * kMaxBlocks;  // 8192

    // At most max_keys names (0 interns none: every name is stored inline in each object).
    explicit KeyTable(uint32_t max_keys = kMaxKeys) : max_keys_(max_keys < kMaxKeys ? max_keys : kMaxKeys) {}
    KeyTable(const KeyTable&) = delete;
    KeyTable& operator=(const KeyTable&) = delete;
    ~KeyTable();

    // Holds the table for a series of InternLocked calls (one object's names).
    std::unique_lock<std::mutex> Lock() { return std::unique_lock(mu_); }
    // The id of name, adding it when allowed; nullopt when name is not to be interned.
    std::optional<uint32_t> Intern(std::string_view name) {
        auto lock = Lock();
        return InternLocked(name);
    }
    // Intern with Lock() held.
    std::optional<uint32_t> InternLocked(std::string_view name);
    // The name of an id Intern returned.
    std::string_view Name(uint32_t id) const {
        return blocks_[id / kBlockSize].load(std::memory_order_acquire)[id % kBlockSize];
    }
    // How many names are interned.
    uint32_t Size() const;
    // Heap bytes held (names, blocks and the lookup map), roughly.
    std::size_t BytesHeld() const;

  private:
    static bool Internable(std::string_view name);
    static uint64_t Hash(std::string_view name);
    void GrowLocked();

    // Open addressing, linear probing: the hash (0 marks a free slot) and the id of each name.
    struct Slot {
        uint64_t hash = 0;
        uint32_t id = 0;
    };

    const uint32_t max_keys_;
    mutable std::mutex mu_;
    std::deque<std::string> names_;  // never moves an element
    std::vector<Slot> slots_ = std::vector<Slot>(256);
    std::array<std::atomic<std::string_view*>, kMaxBlocks> blocks_{};
    std::size_t name_bytes_ = 0;
};

}  // namespace ctrl::cache::internal
