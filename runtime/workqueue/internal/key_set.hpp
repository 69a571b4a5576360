#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <utility>

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
        kIdle,           // finished, not dirty
        kRequeued,       // finished, and back in the FIFO (it was added meanwhile)
    };

    KeySet() = default;
    KeySet(const KeySet&) = delete;
    KeySet& operator=(const KeySet&) = delete;
    ~KeySet() {
        index_.ForEach([](Node* node) { delete node; });
    }

    // The hash the methods below take; thread-safe (it touches no state).
    static std::size_t HashOf(const T& item) { return Hash{}(item); }

    // Marks item dirty; now() is recorded as when it was added (called only if it was not dirty).
    template <typename U, typename Now>
    Added Add(U&& item, Now&& now) {
        const std::size_t hash = HashOf(item);
        return Add(std::forward<U>(item), hash, std::forward<Now>(now));
    }
    template <typename U, typename Now>
    Added Add(U&& item, std::size_t hash, Now&& now) {
        Node* node = index_.Find(item, hash);
        if (node == nullptr) {
            node = NewNode(std::forward<U>(item), hash);
        } else if (node->dirty) {
            return Added::kDuplicate;
        } else if (!node->processing) {
            Unlink(node, idle_head_, idle_tail_);  // a kept node comes back
            --idle_;
        }
        node->dirty = true;
        node->added = now();
        if (node->processing)
            return Added::kDeferred;
        PushQueued(node);
        return Added::kQueued;
    }

    // Hands out the head of the FIFO, which must not be empty: it stops being dirty and starts
    // processing at `now`. *added says when it was added.
    T Take(Clock::time_point now, Clock::time_point* added) {
        Node* node = queued_head_;
        queued_head_ = node->queued_next;
        if (queued_head_ == nullptr)
            queued_tail_ = nullptr;
        node->queued_next = nullptr;
        --queued_;
        node->dirty = false;
        node->processing = true;
        node->started = now;
        PushBack(node, head_, tail_);
        ++processing_;
        *added = node->added;
        return node->key;
    }

    // Ends the processing of item; *started says when it began.
    Finished Done(const T& item, Clock::time_point* started) { return Done(item, HashOf(item), started); }
    Finished Done(const T& item, std::size_t hash, Clock::time_point* started) {
        Node* node = FindProcessing(item, hash);
        if (node == nullptr)
            return Finished::kNotProcessing;
        node->processing = false;
        Unlink(node, head_, tail_);
        --processing_;
        *started = node->started;
        if (node->dirty) {
            PushQueued(node);
            return Finished::kRequeued;
        }
        PushBack(node, idle_head_, idle_tail_);
        if (++idle_ > kMaxKept)
            FreeNode(idle_head_);
        return Finished::kIdle;
    }

    bool HasQueued() const { return queued_head_ != nullptr; }
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
        Clock::time_point added{};
        Clock::time_point started{};
        Node* queued_next = nullptr;  // the FIFO
        Node* prev = nullptr;         // the processing list in start order, or the kept list
        Node* next = nullptr;
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

    void PushQueued(Node* node) {
        (queued_tail_ ? queued_tail_->queued_next : queued_head_) = node;
        queued_tail_ = node;
        ++queued_;
    }

    NodeIndex<Node, Eq> index_;
    Node* queued_head_ = nullptr;
    Node* queued_tail_ = nullptr;
    std::size_t queued_ = 0;
    Node* head_ = nullptr;
    Node* tail_ = nullptr;
    std::size_t processing_ = 0;
    Node* idle_head_ = nullptr;  // kept nodes, oldest first
    Node* idle_tail_ = nullptr;
    std::size_t idle_ = 0;
};

}  // namespace ctrl::workqueue::internal
