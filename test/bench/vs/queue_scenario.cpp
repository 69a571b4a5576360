// queue [--seconds S] (PROTOCOL.md): the work queue a controller gets by default (the
// PriorityQueue) and the one it gets with use_priority_queue = false (the plain Queue, figures
// prefixed plain_), with the controller's key type, timed in loops of about S seconds per shape
// (five slices); ns per item (wall) of the median slice.

#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ctrl/controller/controller_options.hpp"
#include "ctrl/handler/request_queue.hpp"
#include "ctrl/metrics/registry.hpp"
#include "ctrl/workqueue/queue.hpp"
#include "test/bench/bench_process.hpp"
#include "test/bench/vs/load_observer.hpp"
#include "test/bench/vs/queue_shapes.hpp"
#include "test/bench/vs/scenarios.hpp"

namespace ctrl::bench::vs {
namespace {

using queue::Key;
using queue::QueueFactory;

// The name a builder gives a controller For<api::Pod>: its queue and metrics carry it.
constexpr const char* kQueueName = "pod";

// The options controller::Controller gives its queue (runtime/controller/controller.cpp NewQueue):
// named after the controller, metrics in the default registry, the default rate limiter. An empty
// name: no metrics (the contended_2t_nometrics shape).
workqueue::QueueOptions<Key> ControllerQueueOptions(const std::string& name) {
    workqueue::QueueOptions<Key> options;
    options.name = name;
    options.registry = &metrics::DefaultRegistry();
    options.rate_limiter = nullptr;  // DefaultControllerRateLimiter, as controller::Options leaves it
    return options;
}

// The queue a controller makes by default: a PriorityQueue with controller::Options' aging bound.
QueueFactory PriorityQueues(const boost::asio::any_io_executor& executor, std::string name) {
    return [executor, name = std::move(name)] {
        return std::make_unique<workqueue::PriorityQueue<Key>>(executor, ControllerQueueOptions(name),
                                                               controller::Options{}.aging_bound);
    };
}

// The queue a controller makes with use_priority_queue = false: the plain workqueue::Queue.
QueueFactory PlainQueues(const boost::asio::any_io_executor& executor, std::string name) {
    return [executor, name = std::move(name)] {
        return std::make_unique<workqueue::Queue<Key>>(executor, ControllerQueueOptions(name));
    };
}

// The shapes every kind of queue runs, figures prefixed with prefix: named (metrics on) queues
// from named, and unnamed (metrics off) ones from unnamed for contended_2t_nometrics_ns.
void MeasureShapes(const std::string& prefix, const QueueFactory& named, const QueueFactory& unnamed,
                   const std::vector<Key>& keys, double seconds, Figures& figures) {
    figures[prefix + "add_get_done_1t_ns"] = queue::AddGetDoneOneThread(named, keys, seconds);
    figures[prefix + "add_get_done_2t_ns"] = queue::AddGetDoneTwoThreads(named, keys, seconds);
    figures[prefix + "dedup_add_ns"] = queue::DeduplicatedAdd(named, keys, seconds);
    figures[prefix + "add_after_ns"] = queue::AddAfter(named, keys, seconds);
    figures[prefix + "contended_2t_ns"] = queue::ContendedTwoThreads(named, keys, seconds);
    figures[prefix + "contended_2t_nometrics_ns"] = queue::ContendedTwoThreads(unnamed, keys, seconds);
}

}  // namespace

// The PriorityQueue's shapes (and mixed_priority_1t_ns, its alone), then the plain Queue's.
int RunQueue(const ProbeArgs& args) {
    const double seconds = args.Number("seconds", 1);
    if (!(seconds > 0)) {
        std::fprintf(stderr, "ctrl-vs-probe queue: --seconds %g: must be positive\n", seconds);
        return 2;
    }
    std::fprintf(stderr,
                 "ctrl-vs-probe queue: the queue controller::Controller makes: "
                 "workqueue::PriorityQueue<reconcile::Request> (aging bound controller::Options' default) named "
                 "\"%s\", the default controller rate limiter, metrics on (metrics::DefaultRegistry()); its timers on "
                 "one io thread. plain_*: workqueue::Queue<reconcile::Request>, the same options "
                 "(use_priority_queue = false). *_nometrics_*: the same queue without a name (no metrics)\n",
                 kQueueName);
    Loop loop;  // the executor a controller's queue runs its delays on (the manager's loop)
    const std::vector<Key> keys = queue::PrecomputedKeys(queue::kLargeBatch);
    Figures figures;
    const QueueFactory priority = PriorityQueues(loop.Executor(), kQueueName);
    MeasureShapes("", priority, PriorityQueues(loop.Executor(), ""), keys, seconds, figures);
    figures["mixed_priority_1t_ns"] = queue::MixedPriorityOneThread(priority, keys, seconds);
    MeasureShapes("plain_", PlainQueues(loop.Executor(), kQueueName), PlainQueues(loop.Executor(), ""), keys, seconds,
                  figures);
    loop.Stop();
    PrintResult(figures);
    return 0;
}

}  // namespace ctrl::bench::vs
