#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <unordered_map>
#include <utility>

namespace ctrl::workqueue::internal {

// The bookkeeping of client-go's queue without locks, waiting or timers: which keys are dirty
// (need processing), which are processing (handed out, no Done yet), and the FIFO of keys that
// are dirty and not processing. A key that is dirty or processing has one map node; the FIFO
// and the processing list point at nodes, so each operation hashes the key at most once. The
// caller supplies the times it wants recorded (for metrics) and guards the object with a lock.
template <typename T, typename Hash, typename Eq>
class KeySet final {
  public:
    using Clock = std::chrono::steady_clock;

    enum class Added {
        kDuplicate,  // already dirty: nothing changed
        kDeferred,   // dirty now, but processing: it joins the FIFO at its Done
        kQueued,     // dirty now and in the FIFO
    };
    enum class Finished {
        kNotProcessing,  // not handed out: nothing changed
        kIdle,           // finished and forgotten
        kRequeued,       // finished, and back in the FIFO (it was added meanwhile)
    };

    // Marks item dirty; now() is recorded as when it was added (called only if it was not dirty).
    template <typename U, typename Now>
    Added Add(U&& item, Now&& now) {
        auto [it, inserted] = entries_.try_emplace(std::forward<U>(item));
        Entry& entry = it->second;
        if (entry.dirty)
            return Added::kDuplicate;
        entry.dirty = true;
        entry.added = now();
        if (entry.processing)
            return Added::kDeferred;
        fifo_.push_back(&*it);
        return Added::kQueued;
    }

    // Hands out the head of the FIFO, which must not be empty: it stops being dirty and starts
    // processing at `now`. *added says when it was added.
    T Take(Clock::time_point now, Clock::time_point* added) {
        Node* node = fifo_.front();
        fifo_.pop_front();
        Entry& entry = node->second;
        entry.dirty = false;
        entry.processing = true;
        entry.started = now;
        entry.prev = tail_;
        entry.next = nullptr;
        (tail_ ? tail_->second.next : head_) = node;
        tail_ = node;
        ++processing_;
        *added = entry.added;
        return node->first;
    }

    // Ends the processing of item; *started says when it began.
    Finished Done(const T& item, Clock::time_point* started) {
        auto it = entries_.find(item);
        if (it == entries_.end() || !it->second.processing)
            return Finished::kNotProcessing;
        Node* node = &*it;
        Entry& entry = node->second;
        entry.processing = false;
        (entry.prev ? entry.prev->second.next : head_) = entry.next;
        (entry.next ? entry.next->second.prev : tail_) = entry.prev;
        entry.prev = entry.next = nullptr;
        --processing_;
        *started = entry.started;
        if (entry.dirty) {
            fifo_.push_back(node);
            return Finished::kRequeued;
        }
        entries_.erase(it);
        return Finished::kIdle;
    }

    bool HasQueued() const { return !fifo_.empty(); }
    std::size_t Queued() const { return fifo_.size(); }
    std::size_t Processing() const { return processing_; }

    // Calls fn(start time) for every key being processed, the longest-running first.
    template <typename Fn>
    void ForEachStart(Fn&& fn) const {
        for (const Node* node = head_; node != nullptr; node = node->second.next)
            fn(node->second.started);
    }

  private:
    struct Entry;
    using Node = std::pair<const T, Entry>;
    struct Entry {
        bool dirty = false;
        bool processing = false;
        Clock::time_point added{};
        Clock::time_point started{};
        Node* prev = nullptr;  // the processing list, in start order
        Node* next = nullptr;
    };

    std::unordered_map<T, Entry, Hash, Eq> entries_;
    std::deque<Node*> fifo_;
    Node* head_ = nullptr;
    Node* tail_ = nullptr;
    std::size_t processing_ = 0;
};

}  // namespace ctrl::workqueue::internal
