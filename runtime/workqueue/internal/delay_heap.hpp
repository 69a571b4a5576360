#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ctrl::workqueue::internal {

// The items waiting for their AddAfter deadline: a binary min-heap on (deadline, arrival)
// over the nodes of a map from item to slot, so an item waits at most once and
// re-scheduling it only ever moves its deadline earlier (client-go's waiting queue). Not
// thread-safe: the queue guards it with its lock.
template <typename T, typename Hash = std::hash<T>, typename Eq = std::equal_to<T>>
class DelayHeap final {
  public:
    using Clock = std::chrono::steady_clock;

    // Schedules item for deadline, or moves its existing deadline earlier.
    void Push(const T& item, Clock::time_point deadline) {
        auto [it, inserted] = slots_.try_emplace(item);
        Slot& slot = it->second;
        if (inserted) {
            slot = Slot{deadline, next_arrival_++, heap_.size()};
            heap_.push_back(&*it);
            SiftUp(slot.index);
        } else if (deadline < slot.deadline) {
            slot.deadline = deadline;
            SiftUp(slot.index);
        }
    }

    bool Empty() const { return heap_.empty(); }
    std::size_t Size() const { return heap_.size(); }
    // The earliest deadline. Requires !Empty().
    Clock::time_point NextDeadline() const { return heap_.front()->second.deadline; }

    // Removes every item whose deadline is at or before now, earliest first, passing each to fn.
    template <typename Fn>
    void PopDue(Clock::time_point now, Fn&& fn) {
        while (!heap_.empty() && heap_.front()->second.deadline <= now) {
            Node* top = heap_.front();
            heap_.front() = heap_.back();
            heap_.front()->second.index = 0;
            heap_.pop_back();
            if (!heap_.empty())
                SiftDown(0);
            auto handle = slots_.extract(top->first);
            fn(std::move(handle.key()));
        }
    }

    void Clear() {
        heap_.clear();
        slots_.clear();
    }

  private:
    struct Slot {
        Clock::time_point deadline;
        uint64_t arrival = 0;  // breaks ties: equal deadlines leave in the order they came
        std::size_t index = 0;
    };
    using Map = std::unordered_map<T, Slot, Hash, Eq>;
    using Node = typename Map::value_type;

    static bool Before(const Node* a, const Node* b) {
        if (a->second.deadline != b->second.deadline)
            return a->second.deadline < b->second.deadline;
        return a->second.arrival < b->second.arrival;
    }

    void Place(Node* node, std::size_t index) {
        heap_[index] = node;
        node->second.index = index;
    }

    void SiftUp(std::size_t index) {
        Node* node = heap_[index];
        while (index > 0) {
            const std::size_t parent = (index - 1) / 2;
            if (!Before(node, heap_[parent]))
                break;
            Place(heap_[parent], index);
            index = parent;
        }
        Place(node, index);
    }

    void SiftDown(std::size_t index) {
        Node* node = heap_[index];
        const std::size_t size = heap_.size();
        while (true) {
            std::size_t child = 2 * index + 1;
            if (child >= size)
                break;
            if (child + 1 < size && Before(heap_[child + 1], heap_[child]))
                ++child;
            if (!Before(heap_[child], node))
                break;
            Place(heap_[child], index);
            index = child;
        }
        Place(node, index);
    }

    Map slots_;
    std::vector<Node*> heap_;
    uint64_t next_arrival_ = 0;
};

}  // namespace ctrl::workqueue::internal
