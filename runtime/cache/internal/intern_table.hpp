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

// The strings one store's objects repeat, each held once and named by a small number, so an
// encoded object spends a byte or two on each instead of the text (CompactValue):
// - member names ("metadata", "containerPort", "app.kubernetes.io/name"), interned on first sight,
//   except names that look unique to one object (managedFields' "k:{...}" and "v:..." keys, names
//   over kMaxNameBytes);
// - string values of kMinValueBytes to kMaxValueBytes ("registry.example.com/shop/web:2.14.3",
//   "ClusterFirst", a namespace, a node name), interned when a second object shows them within a
//   short span of values (a small table of fingerprints remembers the recent first sights and
//   which object showed them), so the values a Deployment's pods or a namespace's objects share
//   are held once and values unique to one object (uids, names, IPs; also a volume name it
//   repeats in each container) stay in the object.
// Each kind stops growing at its maximum (kMaxNames, kMaxValues, kMaxValueTextBytes), so the
// table's size is bounded whatever the objects hold; a string not interned is stored inline.
//
// The Intern calls run with Lock() held, from one thread at a time. Name(id) and Value(id) are
// lock-free and may run on any thread that learned id through a happens-before edge from the
// Intern that returned it (the store's lock publishes the encoded objects that carry ids).
class InternTable {
  public:
    static constexpr std::size_t kMaxNameBytes = 40;
    static constexpr uint32_t kMaxNames = 8192;
    static constexpr std::size_t kMinValueBytes = 4;
    static constexpr std::size_t kMaxValueBytes = 128;
    static constexpr uint32_t kMaxValues = 65536;
    static constexpr std::size_t kMaxValueTextBytes = std::size_t{4} << 20;

    // At most max_names names and max_values values (0 interns none of that kind: every such
    // string is stored inline in each object).
    explicit InternTable(uint32_t max_names = kMaxNames, uint32_t max_values = kMaxValues);
    InternTable(const InternTable&) = delete;
    InternTable& operator=(const InternTable&) = delete;
    ~InternTable();

    // Holds the table for a series of Intern calls (one object's strings).
    std::unique_lock<std::mutex> Lock() { return std::unique_lock(mu_); }
    // With Lock() held: the values that follow belong to another object than those before.
    void NextObjectLocked() { ++object_; }
    // The id of a member name, adding it when allowed; nullopt when it is not to be interned.
    std::optional<uint32_t> InternNameLocked(std::string_view name);
    // The id of a member name as InternNameLocked gives it, tried first as the name the last
    // object encoded had at the same `position` (its position-th member name, in document order):
    // objects of a kind hold their names in the same order, so most are found by one comparison,
    // without hashing.
    std::optional<uint32_t> InternNameAtLocked(std::string_view name, std::size_t position);
    std::optional<uint32_t> InternName(std::string_view name) {
        auto lock = Lock();
        return InternNameLocked(name);
    }
    // The id of a string value when it is interned, or becomes so now (a recent first sight was in
    // another object); nullopt otherwise.
    std::optional<uint32_t> InternValueLocked(std::string_view value);
    std::optional<uint32_t> InternValue(std::string_view value) {
        auto lock = Lock();
        return InternValueLocked(value);
    }
    // The string of an id the Intern calls returned.
    std::string_view Name(uint32_t id) const { return names_.Get(id); }
    std::string_view Value(uint32_t id) const { return values_.Get(id); }
    // How many names / values are interned.
    uint32_t NameCount() const;
    uint32_t ValueCount() const;
    // Heap bytes held (strings, blocks, lookup tables and the fingerprints), roughly.
    std::size_t BytesHeld() const;

  private:
    // One kind's strings: ids in order of interning, found by an open-addressing hash table, read
    // lock-free through blocks of views that never move.
    class Strings {
      public:
        static constexpr uint32_t kBlockSize = 256;
        static constexpr uint32_t kMaxBlocks = kMaxValues / kBlockSize;

        explicit Strings(uint32_t max) : max_(max < kBlockSize * kMaxBlocks ? max : kBlockSize * kMaxBlocks) {}
        ~Strings();
        // The id of s, or nullopt when absent.
        std::optional<uint32_t> Find(std::string_view s, uint64_t hash) const;
        // Adds s (absent); nullopt when full.
        std::optional<uint32_t> Add(std::string_view s, uint64_t hash);
        std::string_view Get(uint32_t id) const {
            return blocks_[id / kBlockSize].load(std::memory_order_acquire)[id % kBlockSize];
        }
        uint32_t Size() const { return static_cast<uint32_t>(strings_.size()); }
        bool Full() const { return strings_.size() >= max_; }
        std::size_t TextBytes() const { return text_bytes_; }
        std::size_t BytesHeld() const;

      private:
        // The high half of each string's hash (0 marks a free slot; never 0 otherwise) and its id:
        // eight bytes, so a look-up that finds nothing (most values are unique to one object)
        // reads one cache line of a table that stays small.
        struct Slot {
            uint32_t fingerprint = 0;
            uint32_t id = 0;
        };
        void Grow();

        const uint32_t max_;
        std::deque<std::string> strings_;  // never moves an element
        std::vector<Slot> slots_ = std::vector<Slot>(64);
        std::array<std::atomic<std::string_view*>, kMaxBlocks> blocks_{};
        std::size_t text_bytes_ = 0;
    };

    static bool InternableName(std::string_view name);
    static uint64_t Hash(std::string_view s);
    // The high half of a hash, never 0 (which marks a free slot or sight).
    static uint32_t Fingerprint(uint64_t hash) { return static_cast<uint32_t>(hash >> 32) | 1; }

    mutable std::mutex mu_;
    Strings names_;
    Strings values_;
    // The interned name the last object had at each position (up to kGuessedPositions), with its
    // text, for InternNameAtLocked; data null: none.
    struct Guess {
        const char* data = nullptr;
        uint32_t size = 0;
        uint32_t id = 0;
    };
    static constexpr std::size_t kGuessedPositions = 4096;
    std::vector<Guess> guesses_;
    // A recent first sight of a value: its fingerprint (0: none) and the object that showed it.
    struct Sight {
        uint32_t fingerprint = 0;
        uint32_t object = 0;
    };
    // Hash-indexed, made on first use.
    std::unique_ptr<Sight[]> seen_;
    uint32_t object_ = 0;  // NextObjectLocked's count
};

}  // namespace ctrl::cache::internal
