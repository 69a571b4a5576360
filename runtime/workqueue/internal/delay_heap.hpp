#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "ctrl/workqueue/internal/node_index.hpp"

namespace ctrl::workqueue::internal {

// The items waiting for their AddAfter deadline: a binary min-heap on (deadline, arrival) whose
// entries carry those two values beside a pointer to the item's node, so ordering never reads a
// node; a flat NodeIndex finds an item's node, so an item waits at most once and re-scheduling it
// only ever moves its deadline earlier (client-go's waiting queue). The caller may hash an item
// before taking its lock (HashOf). Not thread-safe: the queue guards it with its lock.
template <typename T, typename Hash = std::hash<T>, typename Eq = std::equal_to<T>>
class DelayHeap final {
  public:
    using Clock = std::chrono::steady_clock;

    DelayHeap() = default;
    DelayHeap(const DelayHeap&) = delete;
    DelayHeap& operator=(const DelayHeap&) = delete;
    ~DelayHeap() { Clear(); }

    // The hash Push takes; thread-safe (it touches no state).
    static std::size_t HashOf(const T& item) { return Hash{}(item); }

    // Schedules item for deadline at priority, or moves its existing deadline earlier and keeps
    // the higher of its priorities.
    void Push(const T& item, Clock::time_point deadline, int priority = 0) {
        Push(item, HashOf(item), deadline, priority);
    }
    void Push(const T& item, std::size_t hash, Clock::time_point deadline, int priority = 0) {
        if (Node* node = index_.Find(item, hash)) {
            node->priority = priority > node->priority ? priority : node->priority;
            Entry& entry = heap_[node->index];
            if (deadline < entry.deadline) {
                entry.deadline = deadline;
                SiftUp(node->index);
            }
            return;
        }
        if (heap_.size() == heap_.capacity())  // so nothing throws once the node exists
            heap_.reserve(2 * heap_.size() + 16);
        auto owned = std::make_unique<Node>(item, hash, heap_.size(), priority);
        index_.Insert(owned.get(), hash);
        heap_.push_back(Entry{deadline, next_arrival_++, owned.release()});
        SiftUp(heap_.size() - 1);
    }

    bool Empty() const { return heap_.empty(); }
    std::size_t Size() const { return heap_.size(); }
    // The earliest deadline. Requires !Empty().
    Clock::time_point NextDeadline() const { return heap_.front().deadline; }

    // Removes every item whose deadline is at or before now, earliest first, passing each and
    // its priority to fn.
    template <typename Fn>
    void PopDue(Clock::time_point now, Fn&& fn) {
        while (!heap_.empty() && heap_.front().deadline <= now) {
            std::unique_ptr<Node> top(heap_.front().node);
            heap_.front() = heap_.back();
            heap_.pop_back();
            if (!heap_.empty())
                SiftDown(0);
            index_.Erase(top.get(), top->hash);
            fn(std::move(top->key), top->priority);
        }
    }

    void Clear() {
        for (const Entry& entry : heap_)
            delete entry.node;
        heap_.clear();
        index_.Clear();
    }

  private:
    struct Node {
        Node(const T& item, std::size_t item_hash, std::size_t heap_index, int item_priority)
            : key(item), hash(item_hash), index(heap_index), priority(item_priority) {}

        T key;
        std::size_t hash;
        std::size_t index;  // of its entry in the heap
        int priority;
    };
    struct Entry {
        Clock::time_point deadline;
        uint64_t arrival = 0;  // breaks ties: equal deadlines leave in the order they came
        Node* node = nullptr;
    };

    static bool Before(const Entry& a, const Entry& b) {
        if (a.deadline != b.deadline)
            return a.deadline < b.deadline;
        return a.arrival < b.arrival;
    }

    void Place(const Entry& entry, std::size_t index) {
        heap_[index] = entry;
        entry.node->index = index;
    }

    void SiftUp(std::size_t index) {
        const Entry entry = heap_[index];
        while (index > 0) {
            const std::size_t parent = (index - 1) / 2;
            if (!Before(entry, heap_[parent]))
                break;
            Place(heap_[parent], index);
            index = parent;
        }
        Place(entry, index);
    }

    void SiftDown(std::size_t index) {
        const Entry entry = heap_[index];
        const std::size_t size = heap_.size();
        while (true) {
            std::size_t child = 2 * index + 1;
            if (child >= size)
                break;
            if (child + 1 < size && Before(heap_[child + 1], heap_[child]))
                ++child;
            if (!Before(heap_[child], entry))
                break;
            Place(heap_[child], index);
            index = child;
        }
        Place(entry, index);
    }

    NodeIndex<Node, Eq> index_;
    std::vector<Entry> heap_;
    uint64_t next_arrival_ = 0;
};

}  // namespace ctrl::workqueue::internal
