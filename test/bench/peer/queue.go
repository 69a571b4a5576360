package main

// queue [--seconds S]: the work queue a controller gets by default (controller-runtime's priority
// queue) and the one it gets with UsePriorityQueue=false (client-go's rate-limiting queue, figures
// prefixed cg_), with reconcile.Request keys, in four shapes, each repeated for about S seconds;
// figures are wall ns per item.

import (
	"fmt"
	"runtime"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/controller/priorityqueue"
	crmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// queueName is the queue's name, the label of its workqueue metrics.
const queueName = "pod"

// newDefaultQueue makes what controller.NewTypedUnmanaged makes when Options.NewQueue,
// RateLimiter and UsePriorityQueue are unset: controller-runtime's priority queue, its metrics
// registered with controller-runtime's metrics registry (the queue's default MetricProvider).
func newDefaultQueue() priorityqueue.PriorityQueue[reconcile.Request] {
	return priorityqueue.New(queueName, func(o *priorityqueue.Opts[reconcile.Request]) {
		o.Log = ctrl.Log.WithValues("controller", queueName)
		o.RateLimiter = workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](5*time.Millisecond, 1000*time.Second)
	})
}

// newClientGoQueue makes what controller.NewTypedUnmanaged makes with UsePriorityQueue=false and
// NewQueue and RateLimiter unset: client-go's rate-limiting queue named after the controller, the
// default controller rate limiter; its metrics go to the provider controller-runtime installs
// (pkg/internal/metrics, imported by priorityqueue), as a controller's do.
func newClientGoQueue() workqueue.TypedRateLimitingInterface[reconcile.Request] {
	return workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[reconcile.Request](),
		workqueue.TypedRateLimitingQueueConfig[reconcile.Request]{Name: queueName})
}

// queueKeys are n precomputed keys: namespace "namespace-<i % 10>", name "object-name-<i>".
func queueKeys(n int) []reconcile.Request {
	keys := make([]reconcile.Request, n)
	for i := range keys {
		keys[i] = reconcile.Request{NamespacedName: types.NamespacedName{
			Namespace: fmt.Sprintf("namespace-%d", i%10), Name: fmt.Sprintf("object-name-%d", i)}}
	}
	return keys
}

// repeatFor runs round (which times itself and says how many items it handled) until the rounds'
// timed total reaches seconds; returns ns per item.
func repeatFor(seconds float64, round func(int) (time.Duration, int)) float64 {
	runtime.GC()
	var spent time.Duration
	items := 0
	for r := 0; spent.Seconds() < seconds; r++ {
		d, n := round(r)
		spent += d
		items += n
	}
	return float64(spent.Nanoseconds()) / float64(items)
}

// queueAdds is workqueue_adds_total of the queue named queueName in controller-runtime's registry.
func queueAdds() float64 {
	families, err := crmetrics.Registry.Gather()
	if err != nil {
		fail("queue", "gathering metrics: %v", err)
	}
	total := 0.0
	for _, family := range families {
		if family.GetName() != "workqueue_adds_total" {
			continue
		}
		for _, m := range family.GetMetric() {
			for _, label := range m.GetLabel() {
				if label.GetName() == "name" && label.GetValue() == queueName {
					total += m.GetCounter().GetValue()
				}
			}
		}
	}
	return total
}

// queueFigures are the four shapes' ns per item for one kind of queue.
type queueFigures struct {
	oneThread, twoThreads, dedup, addAfter float64
}

// measureQueue times the four shapes on queues newQueue makes (one for the first three shapes, a
// fresh one per add_after round).
func measureQueue(seconds float64, keys []reconcile.Request,
	newQueue func() workqueue.TypedRateLimitingInterface[reconcile.Request]) queueFigures {
	var f queueFigures
	q := newQueue()
	f.oneThread = repeatFor(seconds, func(r int) (time.Duration, int) {
		block := keys[(r%100)*1000 : (r%100)*1000+1000]
		start := time.Now()
		for _, k := range block {
			q.Add(k)
		}
		for range block {
			item, _ := q.Get()
			q.Done(item)
		}
		return time.Since(start), len(block)
	})

	f.twoThreads = repeatFor(seconds, func(int) (time.Duration, int) {
		var wg sync.WaitGroup
		start := time.Now()
		wg.Add(2)
		go func() {
			defer wg.Done()
			for _, k := range keys {
				q.Add(k)
			}
		}()
		go func() {
			defer wg.Done()
			for range keys {
				item, _ := q.Get()
				q.Done(item)
			}
		}()
		wg.Wait()
		return time.Since(start), len(keys)
	})

	queued := keys[:1000]
	for _, k := range queued {
		q.Add(k)
	}
	q.Len()
	f.dedup = repeatFor(seconds, func(int) (time.Duration, int) {
		start := time.Now()
		for _, k := range queued {
			q.Add(k)
		}
		if q.Len() != len(queued) {
			fail("queue", "dedup_add: %d items queued, expected %d", q.Len(), len(queued))
		}
		return time.Since(start), len(queued)
	})
	q.ShutDown()

	f.addAfter = repeatFor(seconds, func(int) (time.Duration, int) {
		fresh := newQueue()
		start := time.Now()
		for _, k := range keys {
			fresh.AddAfter(k, time.Hour)
		}
		fresh.Len() // the priority queue: merges the add buffer into the waiting items
		spent := time.Since(start)
		fresh.ShutDown()
		return spent, len(keys)
	})
	return f
}

// RunQueue runs the queue scenario.
func RunQueue(args *ProbeArgs) int {
	seconds := args.Number("seconds", 1)
	logQueueChoice()
	logf("queue: priorityqueue.New as controller.New's default NewQueue calls it; its Add/AddAfter " +
		"go to a buffer a goroutine merges, so each dedup_add and add_after round ends with Len() " +
		"(which merges the buffer) inside the timed interval")
	logf("queue: cg_*: workqueue.NewTypedRateLimitingQueueWithConfig(DefaultTypedControllerRateLimiter, "+
		"Name %q), what controller.New makes with UsePriorityQueue=false; its AddAfter hands the item to "+
		"the waiting goroutine over a channel (buffer 1,000), whose inserts are not waited for", queueName)
	keys := queueKeys(100000)

	pq := measureQueue(seconds, keys, func() workqueue.TypedRateLimitingInterface[reconcile.Request] {
		return newDefaultQueue()
	})
	addsBefore := queueAdds()
	cg := measureQueue(seconds, keys, newClientGoQueue)
	if queueAdds() <= addsBefore {
		fail("queue", "client-go's queue reported no workqueue_adds_total: its metrics are off")
	}

	var figures Figures
	figures.Add("add_get_done_1t_ns", pq.oneThread)
	figures.Add("add_get_done_2t_ns", pq.twoThreads)
	figures.Add("dedup_add_ns", pq.dedup)
	figures.Add("add_after_ns", pq.addAfter)
	figures.Add("cg_add_get_done_1t_ns", cg.oneThread)
	figures.Add("cg_add_get_done_2t_ns", cg.twoThreads)
	figures.Add("cg_dedup_add_ns", cg.dedup)
	figures.Add("cg_add_after_ns", cg.addAfter)
	PrintResult(figures)
	return 0
}
