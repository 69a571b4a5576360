#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "ctrl/workqueue/internal/node_index.hpp"

namespace ctrl::workqueue::internal {

// The bookkeeping of client-go's queue without locks, waiting or timers: which keys are dirty
// (need processing), which are processing (handed out, no Done yet), and the FIFO of keys that
// are dirty and not processing. A key that is dirty or processing has one node, found through a
// flat NodeIndex; the FIFO and the processing list are linked through the nodes, so an
// operation hashes the key once (the caller may hash it before taking its lock: HashOf). The
// nodes of the last kMaxKept finished keys are kept: Done then touches only the node (no erase
// from the index, no free), a re-Add of such a key finds its node, and a new key takes the
// oldest kept node over (no allocation). The caller supplies the times it wants recorded (for
// metrics) and guards the object with a lock.
//
// With priorities (Ordering::by_priority), the FIFO is one list per priority level and a key's
// place is its rank: the time it was queued plus a head start its priority buys, in units of
// Ordering::step per priority point (priorities count as clamped to [kMinAged, kMaxAged]). Take
// hands out the smallest rank among the levels' heads, so a key's effective priority rises with
// its wait (linear aging): a key that has waited 200 steps is ranked before any key queued after
// it, whatever its priority. Within a level ranks grow along the list, so Take reads only heads.
template <typename T, typename Hash, typename Eq>
class KeySet final {
  public:
    using Clock = std::chrono::steady_clock;

    // How the FIFO orders keys: one FIFO (priorities ignored), or by priority with aging.
    struct Ordering {
        bool by_priority = false;
        Clock::duration step{};  // the wait worth one priority point
    };
    // The priorities that age differently: a key of a priority outside counts as the bound.
    static constexpr int kMinAged = -100;
    static constexpr int kMaxAged = 100;

    enum class Added {
        kDuplicate,  // already dirty: nothing changed
        kDeferred,   // dirty now, but processing: it joins the FIFO at its Done
        kQueued,     // dirty now and in the FIFO
        kRaised,     // was waiting, and moved to a higher priority's level
    };
    enum class Finished {
        kNotProcessing,  // not handed out: nothing changed
        kIdle,           // finished, not dirty
        kRequeued,       // finished, and back in the FIFO (it was added meanwhile)
    };

    KeySet() : KeySet(Ordering{}) {}
    explicit KeySet(Ordering ordering) : ordering_(ordering) { levels_.push_back(Level{0}); }
    KeySet(const KeySet&) = delete;
    KeySet& operator=(const KeySet&) = delete;
    ~KeySet() {
        index_.ForEach([](Node* node) { delete node; });
    }

    // The hash the methods below take; thread-safe (it touches no state).
    static std::size_t HashOf(const T& item) { return Hash{}(item); }

    // Marks item dirty at priority 0; now() is recorded as when it was added (called only if it
    // was not dirty).
    template <typename U, typename Now>
    Added Add(U&& item, Now&& now) {
        const std::size_t hash = HashOf(item);
        return Add(std::forward<U>(item), hash, 0, std::forward<Now>(now));
    }
    template <typename U, typename Now>
    Added Add(U&& item, std::size_t hash, Now&& now) {
        return Add(std::forward<U>(item), hash, 0, std::forward<Now>(now));
    }
    // Marks item dirty at priority (ignored without Ordering::by_priority). A dirty key keeps the
    // higher of its priorities, and a waiting one moves to the new level when that ranks it
    // earlier (kRaised; *from says the level it left). now() is called for a key that was not
    // dirty, or is raised.
    template <typename U, typename Now>
    Added Add(U&& item, std::size_t hash, int priority, Now&& now, int* from = nullptr) {
        priority = ordering_.by_priority ? priority : 0;
        Node* node = index_.Find(item, hash);
        if (node == nullptr) {
            node = NewNode(std::forward<U>(item), hash);
        } else if (node->dirty) {
            return priority > node->priority ? Raise(node, priority, now(), from) : Added::kDuplicate;
        } else if (!node->processing) {
            Unlink(node, idle_head_, idle_tail_);  // a kept node comes back
            --idle_;
        }
        node->dirty = true;
        node->priority = priority;
        node->added = now();
        if (node->processing) {
            node->level = LevelFor(priority);  // where it is counted until its Done queues it
            return Added::kDeferred;
        }
        PushQueued(node, node->added);
        return Added::kQueued;
    }

    // A key handed out: when it was added, the priority it was wanted at, the level it left.
    struct Handout {
        T key;
        Clock::time_point added{};
        int priority = 0;
        int level = 0;
    };
    // Hands out the head of the FIFO (with priorities: the smallest rank among the levels'
    // heads), which must not be empty: it stops being dirty and starts processing at `now`.
    Handout Take(Clock::time_point now) {
        Level& level = levels_[NextLevel()];
        Node* node = level.head;
        Unlink(node, level.head, level.tail);
        --level.count;
        --queued_;
        node->dirty = false;
        node->processing = true;
        node->started = now;
        PushBack(node, head_, tail_);
        ++processing_;
        return Handout{node->key, node->added, node->priority, node->level};
    }
    T Take(Clock::time_point now, Clock::time_point* added) {
        Handout handout = Take(now);
        *added = handout.added;
        return std::move(handout.key);
    }

    // The level a key of priority waits in (0 without priorities).
    int LevelFor(int priority) const { return ordering_.by_priority ? Clamped(priority) : 0; }

    // Ends the processing of item; *started says when it began. A key added meanwhile is queued
    // at now() (called only then) in level *to; *from is the level its deferred Add said (they
    // differ when it was asked for at a higher priority meanwhile).
    Finished Done(const T& item, Clock::time_point* started) { return Done(item, HashOf(item), started); }
    Finished Done(const T& item, std::size_t hash, Clock::time_point* started) {
        int from = 0;
        int to = 0;
        return Done(
            item, hash, started, [] { return Clock::time_point{}; }, &from, &to);
    }
    template <typename Now>
    Finished Done(const T& item, std::size_t hash, Clock::time_point* started, Now&& now, int* from, int* to) {
        Node* node = FindProcessing(item, hash);
        if (node == nullptr)
            return Finished::kNotProcessing;
        node->processing = false;
        Unlink(node, head_, tail_);
        --processing_;
        *started = node->started;
        if (node->dirty) {
            *from = node->level;
            PushQueued(node, now());
            *to = node->level;
            return Finished::kRequeued;
        }
        PushBack(node, idle_head_, idle_tail_);
        if (++idle_ > kMaxKept)
            FreeNode(idle_head_);
        return Finished::kIdle;
    }

    bool HasQueued() const { return queued_ != 0; }
    std::size_t Queued() const { return queued_; }
    std::size_t Processing() const { return processing_; }
    // Nodes of finished keys kept for reuse (at most kMaxKept).
    std::size_t Kept() const { return idle_; }

    // Calls fn(start time) for every key being processed, the longest-running first.
    template <typename Fn>
    void ForEachStart(Fn&& fn) const {
        for (const Node* node = head_; node != nullptr; node = node->next)
            fn(node->started);
    }

  private:
    struct Node {
        template <typename U>
        Node(U&& item, std::size_t item_hash) : key(std::forward<U>(item)), hash(item_hash) {}

        T key;
        std::size_t hash;
        bool dirty = false;
        bool processing = false;
        int priority = 0;  // the highest asked for since it became dirty
        int level = 0;     // the priority of the level it waits in
        int64_t rank = 0;  // its place among the levels (with priorities)
        Clock::time_point added{};
        Clock::time_point started{};
        Node* prev = nullptr;  // its level's FIFO, the processing list in start order, or the kept list
        Node* next = nullptr;
    };
    // The keys waiting at one priority, in rank order.
    struct Level {
        int priority = 0;
        Node* head = nullptr;
        Node* tail = nullptr;
        std::size_t count = 0;
    };

    // Finished keys whose nodes are kept: a re-Add of one of them takes its node back, a new
    // key takes the oldest one over.
    static constexpr std::size_t kMaxKept = 256;
    // Done compares the latest processing keys, this many, before it reads the index.
    static constexpr int kRecentScan = 4;

    static void PushBack(Node* node, Node*& head, Node*& tail) {
        node->prev = tail;
        node->next = nullptr;
        (tail ? tail->next : head) = node;
        tail = node;
    }
    static void Unlink(Node* node, Node*& head, Node*& tail) {
        (node->prev ? node->prev->next : head) = node->next;
        (node->next ? node->next->prev : tail) = node->prev;
        node->prev = node->next = nullptr;
    }

    // A node for item, in the index: the oldest kept node taken over (its key assigned, so the
    // key's storage is reused too), else a new one.
    template <typename U>
    Node* NewNode(U&& item, std::size_t hash) {
        if (Node* node = idle_head_) {
            Unlink(node, idle_head_, idle_tail_);
            --idle_;
            index_.Erase(node, node->hash);
            try {
                node->key = std::forward<U>(item);
            } catch (...) {
                delete node;
                throw;
            }
            node->hash = hash;
            index_.Insert(node, hash);  // cannot grow: a node just left
            return node;
        }
        auto owned = std::make_unique<Node>(std::forward<U>(item), hash);
        index_.Insert(owned.get(), hash);
        return owned.release();
    }

    // Drops a kept node.
    void FreeNode(Node* node) {
        Unlink(node, idle_head_, idle_tail_);
        --idle_;
        index_.Erase(node, node->hash);
        delete node;
    }

    // The node of item if it is processing, else null. A consumer usually finishes a key it
    // took last, whose node is in its cache: those are compared before the index is read.
    Node* FindProcessing(const T& item, std::size_t hash) const {
        int scanned = 0;
        for (Node* node = tail_; node != nullptr && scanned < kRecentScan; node = node->prev, ++scanned) {
            if (node->hash == hash && Eq{}(node->key, item))
                return node;
        }
        Node* node = index_.Find(item, hash);
        return node != nullptr && node->processing ? node : nullptr;
    }

    static int Clamped(int priority) {
        return priority < kMinAged ? kMinAged : priority > kMaxAged ? kMaxAged : priority;
    }

    // The level of priority (clamped), made when missing; levels stay sorted, highest first.
    std::size_t LevelOf(int priority) {
        std::size_t i = 0;
        while (i < levels_.size() && levels_[i].priority > priority)
            ++i;
        if (i == levels_.size() || levels_[i].priority != priority)
            levels_.insert(levels_.begin() + static_cast<std::ptrdiff_t>(i), Level{priority});
        return i;
    }

    // The level whose head has the smallest rank (the higher priority on a tie). Requires HasQueued.
    std::size_t NextLevel() const {
        if (levels_.size() == 1)
            return 0;
        std::size_t best = levels_.size();
        for (std::size_t i = 0; i < levels_.size(); ++i) {
            if (levels_[i].head != nullptr &&
                (best == levels_.size() || levels_[i].head->rank < levels_[best].head->rank))
                best = i;
        }
        return best;
    }

    // The rank of a key queued at `queued` in the level of that (clamped) priority.
    int64_t RankOf(Clock::time_point queued, int level_priority) const {
        return queued.time_since_epoch().count() - int64_t{level_priority} * ordering_.step.count();
    }

    // Appends node to its priority's level, ranked from `queued`.
    void PushQueued(Node* node, Clock::time_point queued) {
        if (!ordering_.by_priority) {
            node->level = 0;
            PushBack(node, levels_[0].head, levels_[0].tail);
            ++levels_[0].count;
            ++queued_;
            return;
        }
        const int level_priority = Clamped(node->priority);
        node->level = level_priority;
        node->rank = RankOf(queued, level_priority);
        Level& level = levels_[LevelOf(level_priority)];
        PushBack(node, level.head, level.tail);
        ++level.count;
        ++queued_;
    }

    // A dirty key asked for at a higher priority: waiting, it moves to that level if it ranks
    // earlier there (a key being processed keeps the priority for its requeue).
    Added Raise(Node* node, int priority, Clock::time_point now, int* from) {
        node->priority = priority;
        if (node->processing || Clamped(priority) == node->level)
            return Added::kDuplicate;
        if (RankOf(now, Clamped(priority)) >= node->rank)
            return Added::kDuplicate;
        Level& old_level = levels_[LevelOf(node->level)];
        Unlink(node, old_level.head, old_level.tail);
        --old_level.count;
        --queued_;
        if (from != nullptr)
            *from = node->level;
        PushQueued(node, now);
        return Added::kRaised;
    }

    const Ordering ordering_;
    NodeIndex<Node, Eq> index_;
    std::vector<Level> levels_;  // highest priority first; one (priority 0) without priorities
    std::size_t queued_ = 0;
    Node* head_ = nullptr;
    Node* tail_ = nullptr;
    std::size_t processing_ = 0;
    Node* idle_head_ = nullptr;  // kept nodes, oldest first
    Node* idle_tail_ = nullptr;
    std::size_t idle_ = 0;
};

}  // namespace ctrl::workqueue::internal
