#pragma once

// The shapes of the `queue` scenario (PROTOCOL.md), each timed on queues a factory makes, so the
// same code measures the controller's PriorityQueue and the plain workqueue::Queue.

#include <functional>
#include <memory>
#include <vector>

#include "ctrl/handler/request_queue.hpp"
#include "ctrl/reconcile/request.hpp"

namespace ctrl::bench::vs::queue {

using Key = reconcile::Request;  // the controller's key: an ObjectKey (namespace, name)
// Makes a fresh queue of the kind a shape measures.
using QueueFactory = std::function<std::unique_ptr<handler::RequestQueue>()>;

inline constexpr int kSmallBatch = 1'000;
inline constexpr int kLargeBatch = 100'000;

// Namespace "namespace-<i % 10>", name "object-name-<i>", for i in [0, count).
std::vector<Key> PrecomputedKeys(int count);

// Each shape runs for about `seconds` (at least one round) over `keys` (kLargeBatch of them) and
// returns ns per item.

// add_get_done_1t: one thread adds 1,000 new keys (round r: the r-th block, cycling), then Gets
// and Dones each.
double AddGetDoneOneThread(const QueueFactory& new_queue, const std::vector<Key>& keys, double seconds);
// add_get_done_2t: this thread adds 100,000 new keys while a consumer thread Gets and Dones them.
double AddGetDoneTwoThreads(const QueueFactory& new_queue, const std::vector<Key>& keys, double seconds);
// dedup_add: 1,000 keys are queued; every Add of them again is a duplicate.
double DeduplicatedAdd(const QueueFactory& new_queue, const std::vector<Key>& keys, double seconds);
// add_after: AddAfter(key, 1 h) of 100,000 distinct keys into a fresh queue; inserts timed only.
double AddAfter(const QueueFactory& new_queue, const std::vector<Key>& keys, double seconds);
// contended_2t: two threads, each Adds a new key of its own half of the keys, then Gets one item
// and Dones it, until its half is done; a round is both halves (two threads started per round).
double ContendedTwoThreads(const QueueFactory& new_queue, const std::vector<Key>& keys, double seconds);
// mixed_priority_1t: as add_get_done_1t, the keys added alternately at kLowPriority and 0
// (AddWithOptions), then Got and Done.
double MixedPriorityOneThread(const QueueFactory& new_queue, const std::vector<Key>& keys, double seconds);

}  // namespace ctrl::bench::vs::queue
