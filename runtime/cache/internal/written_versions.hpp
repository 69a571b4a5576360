#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ctrl/cache/written_version.hpp"

namespace ctrl::cache::internal {

// The writes of this process to one kind that its informers may not reflect yet: the latest of
// each namespace and name (read-your-own-writes). Cache::ObserveWrite records them; cached reads
// look them up, wait for their informer, and forget what it reflects. Empty is one atomic load:
// all a read pays while nothing of its kind is pending; Find of a key that has nothing pending
// while others do costs a hash and one more atomic load (a counting filter), no lock. Thread-safe.
class WrittenVersions final {
  public:
    struct Pending {
        std::string namespace_name;
        std::string name;
        WrittenVersion written;
    };

    bool Empty() const { return size_.load(std::memory_order_acquire) == 0; }
    std::size_t Size() const { return size_.load(std::memory_order_acquire); }

    // Records a write of namespace_name/name; an older comparable version than the one held is
    // ignored (writes may report out of order).
    void Record(std::string_view namespace_name, std::string_view name, WrittenVersion written);
    // The write pending for namespace_name/name, if any.
    std::optional<WrittenVersion> Find(std::string_view namespace_name, std::string_view name) const;
    // The writes pending in namespace_name ("" = every namespace).
    std::vector<Pending> In(std::string_view namespace_name) const;
    // Forgets the write of namespace_name/name if it is still `written` (a later one stays).
    void Forget(std::string_view namespace_name, std::string_view name, const WrittenVersion& written);
    // Forgets every write reflected says its informer reflects; how many are left.
    std::size_t ForgetReflected(const std::function<bool(const Pending&)>& reflected);

  private:
    using Key = std::pair<std::string, std::string>;  // namespace, name
    struct KeyLess {
        using is_transparent = void;
        template <typename A, typename B>
        bool operator()(const A& a, const B& b) const {
            return std::pair<std::string_view, std::string_view>(a.first, a.second) <
                   std::pair<std::string_view, std::string_view>(b.first, b.second);
        }
    };
    using Writes = std::map<Key, WrittenVersion, KeyLess>;

    // Pending keys per hash slot (a counting filter): a Find whose slot counts none needs no lock.
    // Changed with mu_ held.
    static constexpr std::size_t kSlots = 1024;
    static std::size_t SlotOf(std::string_view namespace_name, std::string_view name);
    // Erases it, keeping the counts; with mu_ held.
    Writes::iterator EraseLocked(Writes::iterator it);

    std::array<std::atomic<uint32_t>, kSlots> slots_{};
    std::atomic<std::size_t> size_{0};
    mutable std::mutex mu_;
    Writes writes_;
};

}  // namespace ctrl::cache::internal
