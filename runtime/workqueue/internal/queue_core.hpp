#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "ctrl/core/resume.hpp"
#include "ctrl/core/task.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include "ctrl/workqueue/internal/adaptive_mutex.hpp"
#include "ctrl/workqueue/internal/delay_heap.hpp"
#include "ctrl/workqueue/internal/instruments.hpp"
#include "ctrl/workqueue/internal/key_set.hpp"
#include "ctrl/workqueue/priority.hpp"
#include "ctrl/workqueue/queue_metrics.hpp"

namespace ctrl::workqueue::internal {

// A work queue's keys (KeySet) and delayed keys (DelayHeap) behind one lock, with the waiting
// around them: blocked threads on a condition variable, suspended coroutines as Resumes (core)
// that are handed a key directly, ShutDownWithDrain callers. Timers (AddAfter deadlines, the
// metrics refresh) run on a strand of the executor and only strand handlers touch them; the
// handlers hold weak references, so dropping the last owner frees the queue. With
// Ordering::by_priority the keys carry priorities (KeySet's levels and aging); without, every
// priority is 0.
template <typename T, typename Hash, typename Eq>
class QueueCore final : public std::enable_shared_from_this<QueueCore<T, Hash, Eq>> {
  public:
    using Clock = std::chrono::steady_clock;
    using Ordering = typename KeySet<T, Hash, Eq>::Ordering;
    using Item = PrioritizedItem<T>;

    QueueCore(const boost::asio::any_io_executor& executor, std::optional<QueueMetrics> metrics,
              Clock::duration metrics_period, Ordering ordering = {})
        : strand_(boost::asio::make_strand(executor)),
          delay_timer_(strand_),
          metrics_timer_(strand_),
          instruments_(std::move(metrics), ordering.by_priority),
          metrics_period_(metrics_period),
          by_priority_(ordering.by_priority),
          keys_(ordering) {}

    void Add(const T& item, int priority = 0) {
        const std::size_t hash = Keys::HashOf(item);
        std::unique_lock lock(mu_);
        if (AddLocked(item, hash, priority))
            WakeOne(lock);
    }

    std::optional<T> Get() {
        std::unique_lock lock(mu_);
        if (!keys_.HasQueued() && !shutting_down_) {
            lock.unlock();
            SpinForWork();
            lock.lock();
        }
        while (!keys_.HasQueued() && !shutting_down_) {
            ++blocked_getters_;
            get_cv_.wait(lock);
            --blocked_getters_;
        }
        if (!keys_.HasQueued())
            return std::nullopt;
        Item taken = TakeLocked();
        lock.unlock();
        return std::move(taken.item);
    }

    Task<std::optional<T>> AsyncGet() {
        std::optional<std::optional<Item>> now = TakeWithoutWaiting();
        if (now) {
            if (!*now)
                co_return std::nullopt;
            co_return std::move((*now)->item);
        }
        std::function<void(Resume<std::optional<Item>>)> wait = ItemWaiter();
        std::optional<Item> got = co_await Suspend<std::optional<Item>>(std::move(wait));
        if (!got)
            co_return std::nullopt;
        co_return std::move(got->item);
    }

    // AsyncGet with the item's priority.
    Task<std::optional<Item>> AsyncGetWithPriority() {
        std::optional<std::optional<Item>> now = TakeWithoutWaiting();
        if (now)
            co_return std::move(*now);
        std::function<void(Resume<std::optional<Item>>)> wait = ItemWaiter();
        co_return co_await Suspend<std::optional<Item>>(std::move(wait));
    }

    void Done(const T& item) {
        const std::size_t hash = Keys::HashOf(item);
        const Clock::time_point finished_at = instruments_.Now();
        std::unique_lock lock(mu_);
        Clock::time_point started;
        int from = 0;
        int to = 0;
        const auto finished = keys_.Done(
            item, hash, &started, [this] { return KeysNow(); }, &from, &to);
        if (finished == Keys::Finished::kNotProcessing)
            return;
        instruments_.Worked(finished_at - started);
        Drainers drainers = keys_.Processing() == 0 ? TakeDrainersLocked() : Drainers{};
        if (finished == Keys::Finished::kRequeued) {
            instruments_.Moved(from, to);
            PublishQueuedLocked();
            WakeOne(lock);
        } else {
            lock.unlock();
        }
        Release(std::move(drainers));
    }

    void AddAfter(const T& item, std::chrono::nanoseconds delay, int priority = 0) {
        if (delay <= std::chrono::nanoseconds::zero()) {
            const std::size_t hash = Keys::HashOf(item);
            std::unique_lock lock(mu_);
            if (shutting_down_)
                return;
            instruments_.Retried();
            if (AddLocked(item, hash, priority))
                WakeOne(lock);
            return;
        }
        // The clock and the hash are read before the lock, so the critical section is the insert.
        const Clock::time_point deadline = DeadlineAfter(delay);
        const std::size_t hash = Delays::HashOf(item);
        std::unique_lock lock(mu_);
        if (shutting_down_)
            return;
        delays_.Push(item, hash, deadline, by_priority_ ? priority : 0);
        instruments_.Retried();
        const bool arm = deadline < armed_deadline_;
        if (arm)
            armed_deadline_ = deadline;
        lock.unlock();
        if (!arm)
            return;
        boost::asio::post(strand_, [weak = this->weak_from_this()] {
            if (auto self = weak.lock())
                self->ArmDelayTimer();
        });
    }

    std::size_t Len() const {
        std::lock_guard lock(mu_);
        return keys_.Queued();
    }

    bool ShuttingDown() const {
        std::lock_guard lock(mu_);
        return shutting_down_;
    }

    void ShutDown() { BeginShutDown(false); }

    void ShutDownWithDrain() {
        BeginShutDown(true);
        std::unique_lock lock(mu_);
        ++blocked_drainers_;
        drain_cv_.wait(lock, [this] { return keys_.Processing() == 0 || !drain_; });
        --blocked_drainers_;
    }

    // Publishes the metrics counted since the last call (a scrape's collect hook, the queue's end).
    void PublishMetrics() {
        typename Instruments::Counts counts;
        {
            std::lock_guard lock(mu_);
            counts = instruments_.TakeCounts();
        }
        instruments_.Publish(counts);
    }

    Task<void> AsyncShutDownWithDrain() {
        BeginShutDown(true);
        {
            std::lock_guard lock(mu_);
            if (keys_.Processing() == 0 || !drain_)
                co_return;
        }
        std::function<void(Resume<bool>)> wait = [this](Resume<bool> resume) { WaitForDrain(std::move(resume)); };
        (void)co_await Suspend<bool>(std::move(wait));
    }

  private:
    // The ShutDownWithDrain callers to wake (nothing is in progress, or the drain was called off).
    struct Drainers {
        std::vector<Resume<bool>> waiters;
        bool notify = false;
    };

    static Clock::time_point DeadlineAfter(std::chrono::nanoseconds delay) {
        const Clock::time_point now = Clock::now();
        if (delay >= Clock::time_point::max() - now)
            return Clock::time_point::max();
        return now + std::chrono::duration_cast<Clock::duration>(delay);
    }

    // The time KeySet records: a real one when it ranks by priority or metrics need it.
    Clock::time_point KeysNow() const { return by_priority_ ? Clock::now() : instruments_.Now(); }

    // Marks item (hashing to hash) dirty at priority. True when it entered the FIFO, so a
    // consumer can take it now.
    template <typename U>
    bool AddLocked(U&& item, std::size_t hash, int priority) {
        if (shutting_down_)
            return false;
        int from = 0;
        const auto added = keys_.Add(
            std::forward<U>(item), hash, priority, [this] { return KeysNow(); }, &from);
        if (added == Keys::Added::kDuplicate)
            return false;
        if (added == Keys::Added::kRaised) {
            instruments_.Moved(from, keys_.LevelFor(priority));
            return false;
        }
        instruments_.Added(keys_.LevelFor(priority));
        if (added != Keys::Added::kQueued)
            return false;
        PublishQueuedLocked();
        return true;
    }

    // Mirrors whether the FIFO has keys into queued_hint_, which SpinForWork reads without the lock.
    void PublishQueuedLocked() { queued_hint_.store(keys_.HasQueued(), std::memory_order_relaxed); }

    // Before a thread blocks in Get on an empty queue: watches, without the lock, for a key or a
    // shutdown for kGetSpins pauses (a few microseconds). A producer that is adding keys usually
    // adds the next one within that time, and then neither side pays for a futex sleep and wake-up.
    void SpinForWork() const {
        for (int i = 0; i < kGetSpins; ++i) {
            if (queued_hint_.load(std::memory_order_relaxed) || shutting_down_hint_.load(std::memory_order_relaxed))
                return;
            CpuRelax();
        }
    }

    // Hands out the head of the FIFO, which must not be empty.
    Item TakeLocked() {
        const Clock::time_point now = instruments_.Now();
        typename Keys::Handout handout = keys_.Take(now);
        PublishQueuedLocked();
        instruments_.Taken(handout.level, now - handout.added);
        if (instruments_.Enabled() && !metrics_loop_running_)
            StartMetricsLoopLocked();
        return Item{std::move(handout.key), handout.priority};
    }

    // Gives one newly queued key to a waiting consumer, if any; releases the lock. A suspended
    // coroutine is handed the key; a blocked thread is woken to take it.
    void WakeOne(std::unique_lock<AdaptiveMutex>& lock) {
        if (!get_waiters_.empty()) {
            Resume<std::optional<Item>> waiter = std::move(get_waiters_.front());
            get_waiters_.pop_front();
            Item taken = TakeLocked();
            lock.unlock();
            waiter(std::move(taken));
            return;
        }
        const bool notify = blocked_getters_ > 0;
        lock.unlock();
        if (notify)
            get_cv_.notify_one();
    }

    // WakeOne for `ready` keys at once (a batch of expired deadlines); releases the lock.
    void WakeMany(std::size_t ready, std::unique_lock<AdaptiveMutex>& lock) {
        std::vector<std::pair<Resume<std::optional<Item>>, Item>> handoffs;
        while (ready > 0 && !get_waiters_.empty()) {
            handoffs.emplace_back(std::move(get_waiters_.front()), TakeLocked());
            get_waiters_.pop_front();
            --ready;
        }
        const std::size_t notify = std::min(ready, blocked_getters_);
        lock.unlock();
        for (auto& [waiter, taken] : handoffs)
            waiter(std::move(taken));
        for (std::size_t i = 0; i < notify; ++i)
            get_cv_.notify_one();
    }

    // What an AsyncGet gets without suspending: a key when one waits, an empty answer once shut
    // down with none left; nullopt when it must wait.
    std::optional<std::optional<Item>> TakeWithoutWaiting() {
        std::lock_guard lock(mu_);
        if (keys_.HasQueued())
            return std::optional<Item>(TakeLocked());
        if (shutting_down_)
            return std::optional<Item>();
        return std::nullopt;
    }

    // What AsyncGet suspends with. Captures only `this` (the owning Queue outlives the call); the
    // caller names it before its co_await expression: GCC 12 destroys temporaries built there twice.
    std::function<void(Resume<std::optional<Item>>)> ItemWaiter() {
        return [this](Resume<std::optional<Item>> resume) { WaitForItem(std::move(resume)); };
    }

    void WaitForItem(Resume<std::optional<Item>> waiter) {
        std::unique_lock lock(mu_);
        if (!keys_.HasQueued() && !shutting_down_) {
            get_waiters_.push_back(std::move(waiter));
            return;
        }
        if (!keys_.HasQueued()) {
            lock.unlock();
            waiter(std::nullopt);
            return;
        }
        Item taken = TakeLocked();
        lock.unlock();
        waiter(std::move(taken));
    }

    void WaitForDrain(Resume<bool> waiter) {
        std::unique_lock lock(mu_);
        if (keys_.Processing() != 0 && drain_) {
            drain_waiters_.push_back(std::move(waiter));
            return;
        }
        lock.unlock();
        waiter(true);
    }

    Drainers TakeDrainersLocked() { return Drainers{std::exchange(drain_waiters_, {}), blocked_drainers_ > 0}; }

    // Call without the lock.
    void Release(Drainers drainers) {
        if (drainers.notify)
            drain_cv_.notify_all();
        for (auto& waiter : drainers.waiters)
            waiter(true);
    }

    void BeginShutDown(bool drain) {
        std::deque<Resume<std::optional<Item>>> getters;
        Drainers drainers;
        bool first = false;
        {
            std::lock_guard lock(mu_);
            drain_ = drain;
            first = !shutting_down_;
            shutting_down_ = true;
            shutting_down_hint_.store(true, std::memory_order_relaxed);
            if (first) {
                // Consumers wait only while the FIFO is empty: every waiter is told "shut down".
                getters = std::exchange(get_waiters_, {});
                delays_.Clear();
            }
            if (!drain || keys_.Processing() == 0)
                drainers = TakeDrainersLocked();
        }
        get_cv_.notify_all();
        Release(std::move(drainers));
        for (auto& getter : getters)
            getter(std::nullopt);
        if (!first)
            return;
        boost::asio::post(strand_, [weak = this->weak_from_this()] {
            if (auto self = weak.lock()) {
                self->delay_timer_.cancel();
                self->metrics_timer_.cancel();
            }
        });
    }

    // On the strand: points the delay timer at the earliest deadline.
    void ArmDelayTimer() {
        Clock::time_point next;
        {
            std::lock_guard lock(mu_);
            if (shutting_down_ || delays_.Empty()) {
                armed_deadline_ = Clock::time_point::max();
                return;
            }
            next = delays_.NextDeadline();
            armed_deadline_ = next;
        }
        WaitForDeadline(next);
    }

    void WaitForDeadline(Clock::time_point deadline) {
        delay_timer_.expires_at(deadline);
        delay_timer_.async_wait([weak = this->weak_from_this()](const boost::system::error_code& error) {
            if (error == boost::asio::error::operation_aborted)
                return;
            if (auto self = weak.lock())
                self->OnDelayTimer();
        });
    }

    // On the strand: queues every key whose deadline has passed, then waits for the next one.
    void OnDelayTimer() {
        std::unique_lock lock(mu_);
        if (shutting_down_)
            return;
        std::size_t ready = 0;
        delays_.PopDue(Clock::now(), [&](T&& item, int priority) {
            const std::size_t hash = Keys::HashOf(item);
            ready += AddLocked(std::move(item), hash, priority) ? 1 : 0;
        });
        const bool more = !delays_.Empty();
        const Clock::time_point next = more ? delays_.NextDeadline() : Clock::time_point::max();
        armed_deadline_ = next;
        WakeMany(ready, lock);
        if (more)
            WaitForDeadline(next);
    }

    void StartMetricsLoopLocked() {
        if (shutting_down_)
            return;
        metrics_loop_running_ = true;
        boost::asio::post(strand_, [weak = this->weak_from_this()] {
            if (auto self = weak.lock())
                self->WaitForMetricsTick();
        });
    }

    void WaitForMetricsTick() {
        metrics_timer_.expires_after(metrics_period_);
        metrics_timer_.async_wait([weak = this->weak_from_this()](const boost::system::error_code& error) {
            if (error == boost::asio::error::operation_aborted)
                return;
            if (auto self = weak.lock())
                self->OnMetricsTick();
        });
    }

    // On the strand, every metrics period while keys are being processed, and once more after
    // to report zero: what client-go's 500 ms update loop computes, without waking an idle queue.
    void OnMetricsTick() {
        {
            std::lock_guard lock(mu_);
            if (shutting_down_) {
                metrics_loop_running_ = false;
                return;
            }
            instruments_.InProgress(Clock::now(), [this](auto fn) { keys_.ForEachStart(fn); });
            if (keys_.Processing() == 0) {
                metrics_loop_running_ = false;
                return;
            }
        }
        WaitForMetricsTick();
    }

    boost::asio::strand<boost::asio::any_io_executor> strand_;
    boost::asio::steady_timer delay_timer_;    // strand only
    boost::asio::steady_timer metrics_timer_;  // strand only
    Instruments instruments_;                  // its counts guarded by mu_
    const Clock::duration metrics_period_;
    const bool by_priority_;

    using Keys = KeySet<T, Hash, Eq>;
    using Delays = DelayHeap<T, Hash, Eq>;

    // SpinForWork's polls (a pause each) before Get blocks.
    static constexpr int kGetSpins = 100;

    mutable AdaptiveMutex mu_;
    std::condition_variable_any get_cv_;
    std::condition_variable_any drain_cv_;
    Keys keys_;
    Delays delays_;
    std::atomic<bool> queued_hint_{false};         // keys_.HasQueued(), stored under mu_
    std::atomic<bool> shutting_down_hint_{false};  // shutting_down_, stored under mu_
    std::deque<Resume<std::optional<Item>>> get_waiters_;
    std::vector<Resume<bool>> drain_waiters_;
    std::size_t blocked_getters_ = 0;
    std::size_t blocked_drainers_ = 0;
    Clock::time_point armed_deadline_ = Clock::time_point::max();  // where the delay timer fires
    bool shutting_down_ = false;
    bool drain_ = false;
    bool metrics_loop_running_ = false;
};

}  // namespace ctrl::workqueue::internal
