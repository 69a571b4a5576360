#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

namespace ctrl::workqueue::internal {

// An open-addressing hash index from keys to nodes the caller owns (each node has a `key`
// member): one flat array of (hash, node) slots, linear probing, deletion by backward shift (no
// tombstones). A lookup of an absent key reads only the array, and growing rehashes from the
// stored hashes without touching a node, so a queue of 100,000 keys costs about one cache miss
// per insert instead of the several of a node-based map. The caller passes each key's Hash
// value (so it can hash outside its lock) and guards the object. Never shrinks, as
// std::unordered_map's buckets do not.
template <typename Node, typename Eq>
class NodeIndex final {
  public:
    // The node whose key equals key (whose hash is hash), or null.
    template <typename K>
    Node* Find(const K& key, std::size_t hash) const {
        if (size_ == 0)
            return nullptr;
        for (std::size_t i = Home(hash);; i = (i + 1) & mask_) {
            const Slot& slot = slots_[i];
            if (slot.node == nullptr)
                return nullptr;
            if (slot.hash == hash && Eq{}(slot.node->key, key))
                return slot.node;
        }
    }

    // Adds node, whose key (hashing to hash) must not be in the index.
    void Insert(Node* node, std::size_t hash) {
        if (2 * (size_ + 1) > capacity_)
            Grow();
        Place(Slot{hash, node});
        ++size_;
    }

    // Removes node, which must be in the index under hash.
    void Erase(const Node* node, std::size_t hash) {
        std::size_t hole = Home(hash);
        while (slots_[hole].node != node)
            hole = (hole + 1) & mask_;
        // Moves back every later slot of the run that may sit at the hole, so lookups that
        // pass the hole still find it.
        for (std::size_t next = (hole + 1) & mask_; slots_[next].node != nullptr; next = (next + 1) & mask_) {
            const std::size_t home = Home(slots_[next].hash);
            const bool stays = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next);
            if (!stays) {
                slots_[hole] = slots_[next];
                hole = next;
            }
        }
        slots_[hole] = Slot{};
        --size_;
    }

    // Calls fn(node) for every node, in no particular order.
    template <typename Fn>
    void ForEach(Fn&& fn) const {
        for (std::size_t i = 0; i < capacity_; ++i) {
            if (slots_[i].node != nullptr)
                fn(slots_[i].node);
        }
    }

    std::size_t Size() const { return size_; }

    // Forgets every node (the caller frees them); keeps the array.
    void Clear() {
        for (std::size_t i = 0; i < capacity_; ++i)
            slots_[i] = Slot{};
        size_ = 0;
    }

  private:
    struct Slot {
        std::size_t hash = 0;
        Node* node = nullptr;  // null: empty
    };

    static constexpr std::size_t kMinCapacity = 16;

    // Fibonacci hashing: the top bits of hash * 2^64/phi, so keys whose hashes differ only in
    // high bits (or are small integers, as std::hash<int> gives) still spread.
    std::size_t Home(std::size_t hash) const {
        return static_cast<std::size_t>((static_cast<uint64_t>(hash) * 0x9e3779b97f4a7c15ULL) >> shift_);
    }

    void Place(Slot slot) {
        std::size_t i = Home(slot.hash);
        while (slots_[i].node != nullptr)
            i = (i + 1) & mask_;
        slots_[i] = slot;
    }

    void Grow() {
        const std::size_t capacity = capacity_ == 0 ? kMinCapacity : 2 * capacity_;
        std::unique_ptr<Slot[]> old = std::exchange(slots_, std::make_unique<Slot[]>(capacity));
        const std::size_t old_capacity = std::exchange(capacity_, capacity);
        mask_ = capacity - 1;
        shift_ = 64;
        for (std::size_t c = capacity; c > 1; c >>= 1)
            --shift_;
        for (std::size_t i = 0; i < old_capacity; ++i) {
            if (old[i].node != nullptr)
                Place(old[i]);
        }
    }

    std::unique_ptr<Slot[]> slots_;
    std::size_t capacity_ = 0;  // a power of two, or 0
    std::size_t mask_ = 0;
    unsigned shift_ = 64;  // 64 - log2(capacity_)
    std::size_t size_ = 0;
};

}  // namespace ctrl::workqueue::internal
