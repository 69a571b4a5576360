package main

// queue [--seconds S]: the work queue a controller gets by default (controller-runtime's priority
// queue) and the one it gets with UsePriorityQueue=false (client-go's rate-limiting queue, figures
// prefixed cg_), with reconcile.Request keys, in the shapes of PROTOCOL.md (mixed_priority_1t on
// the priority queue only), each repeated for about S seconds in five slices; figures are wall ns
// per item of the median slice.

import (
	"fmt"
	"runtime"
	"sort"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/controller/priorityqueue"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	crmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// queueName is the queue's name, the label of its workqueue metrics.
const queueName = "pod"

// newDefaultQueue makes what controller.NewTypedUnmanaged makes when Options.NewQueue,
// RateLimiter and UsePriorityQueue are unset: controller-runtime's priority queue, its metrics
// registered with controller-runtime's metrics registry (the queue's default MetricProvider).
// An empty name: no metrics (newQueueMetrics gives noMetrics for it).
func newDefaultQueue(name string) priorityqueue.PriorityQueue[reconcile.Request] {
	return priorityqueue.New(name, func(o *priorityqueue.Opts[reconcile.Request]) {
		o.Log = ctrl.Log.WithValues("controller", queueName)
		o.RateLimiter = workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](5*time.Millisecond, 1000*time.Second)
	})
}

// newClientGoQueue makes what controller.NewTypedUnmanaged makes with UsePriorityQueue=false and
// NewQueue and RateLimiter unset: client-go's rate-limiting queue named after the controller, the
// default controller rate limiter; its metrics go to the provider controller-runtime installs
// (pkg/internal/metrics, imported by priorityqueue), as a controller's do. An empty name: no
// metrics (client-go's newQueueMetrics gives noMetrics for it).
func newClientGoQueue(name string) rlQueue {
	return workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[reconcile.Request](),
		workqueue.TypedRateLimitingQueueConfig[reconcile.Request]{Name: name})
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

// slices is how many slices repeatFor splits a shape's time into.
const slices = 5

// repeatFor runs round (which times itself and says how many items it handled) in `slices` slices
// of seconds/slices of timed total each, rounds numbered on across them; returns the median
// slice's ns per item, as ctrl's queue_shapes.cpp does (one slice a preemption hit does not move it).
func repeatFor(seconds float64, round func(int) (time.Duration, int)) float64 {
	runtime.GC()
	perSlice := seconds / slices
	figures := make([]float64, 0, slices)
	r := 0
	for s := 0; s < slices; s++ {
		var spent time.Duration
		items := 0
		for ; spent.Seconds() < perSlice || items == 0; r++ {
			d, n := round(r)
			spent += d
			items += n
		}
		figures = append(figures, float64(spent.Nanoseconds())/float64(items))
	}
	sort.Float64s(figures)
	return figures[slices/2]
}

// queueAdds is workqueue_adds_total of the queue named queueName in controller-runtime's registry.
func queueAdds() float64 { return registryValue("queue", "workqueue_adds_total", queueName) }

// registryValue is the sum of the counters or gauges of family labelled name=queue in
// controller-runtime's registry; a failure to gather ends the process (scenario names it).
func registryValue(scenario, family, queue string) float64 {
	families, err := crmetrics.Registry.Gather()
	if err != nil {
		fail(scenario, "gathering metrics: %v", err)
	}
	total := 0.0
	for _, f := range families {
		if f.GetName() != family {
			continue
		}
		for _, m := range f.GetMetric() {
			for _, label := range m.GetLabel() {
				if label.GetName() == "name" && label.GetValue() == queue {
					total += m.GetCounter().GetValue() + m.GetGauge().GetValue()
				}
			}
		}
	}
	return total
}

// rlQueue is the interface every measured queue has (a controller's queue type).
type rlQueue = workqueue.TypedRateLimitingInterface[reconcile.Request]

// queueKind makes the queues of one kind: named after the controller (metrics on) and without a
// name (metrics off).
type queueKind struct {
	named, unnamed func() rlQueue
}

// queueFigures are the shapes' ns per item for one kind of queue.
type queueFigures struct {
	oneThread, twoThreads, dedup, addAfter, contended, contendedNoMetrics float64
}

// measureQueue times the shapes on queues of kind: one named queue for the first three shapes, a
// fresh named one per add_after round, a fresh one each for contended_2t (named, then unnamed).
func measureQueue(seconds float64, keys []reconcile.Request, kind queueKind) queueFigures {
	var f queueFigures
	q := kind.named()
	f.oneThread = oneThread(seconds, keys, q)
	f.twoThreads = twoThreads(seconds, keys, q)
	f.dedup = dedupAdd(seconds, keys[:1000], q)
	q.ShutDown()
	f.addAfter = addAfter(seconds, keys, kind.named)
	f.contended = contended(seconds, keys, kind.named())
	f.contendedNoMetrics = contended(seconds, keys, kind.unnamed())
	return f
}

// block is round r's 1,000 keys: the r-th block of 1,000 of keys, cycling.
func block(keys []reconcile.Request, r int) []reconcile.Request {
	first := (r % (len(keys) / 1000)) * 1000
	return keys[first : first+1000]
}

// oneThread (add_get_done_1t): one goroutine adds 1,000 new keys, then Gets and Dones each.
func oneThread(seconds float64, keys []reconcile.Request, q rlQueue) float64 {
	return repeatFor(seconds, func(r int) (time.Duration, int) {
		b := block(keys, r)
		start := time.Now()
		for _, k := range b {
			q.Add(k)
		}
		for range b {
			item, _ := q.Get()
			q.Done(item)
		}
		return time.Since(start), len(b)
	})
}

// twoThreads (add_get_done_2t): a producer goroutine adds every key while a consumer goroutine
// Gets and Dones them.
func twoThreads(seconds float64, keys []reconcile.Request, q rlQueue) float64 {
	return repeatFor(seconds, func(int) (time.Duration, int) {
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
}

// dedupAdd (dedup_add): queued are queued; every Add of them again is a duplicate.
func dedupAdd(seconds float64, queued []reconcile.Request, q rlQueue) float64 {
	for _, k := range queued {
		q.Add(k)
	}
	q.Len()
	return repeatFor(seconds, func(int) (time.Duration, int) {
		start := time.Now()
		for _, k := range queued {
			q.Add(k)
		}
		if q.Len() != len(queued) {
			fail("queue", "dedup_add: %d items queued, expected %d", q.Len(), len(queued))
		}
		return time.Since(start), len(queued)
	})
}

// addAfter (add_after): AddAfter(key, 1 h) of every key into a fresh queue; its construction and
// shutdown are not timed.
func addAfter(seconds float64, keys []reconcile.Request, newQueue func() rlQueue) float64 {
	return repeatFor(seconds, func(int) (time.Duration, int) {
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
}

// contended (contended_2t): two goroutines, each Adds a new key of its own half of keys, then
// Gets one item and Dones it, until its half is done; then q is shut down. Every Get finds an
// item: a goroutine Gets only after its own Add, and no Add of a round is a duplicate.
func contended(seconds float64, keys []reconcile.Request, q rlQueue) float64 {
	defer q.ShutDown()
	half := len(keys) / 2
	return repeatFor(seconds, func(int) (time.Duration, int) {
		var wg sync.WaitGroup
		start := time.Now()
		for _, own := range [][]reconcile.Request{keys[:half], keys[half:]} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for _, k := range own {
					q.Add(k)
					item, _ := q.Get()
					q.Done(item)
				}
			}()
		}
		wg.Wait()
		return time.Since(start), len(keys)
	})
}

// mixedPriority (mixed_priority_1t): as oneThread, the keys added alternately at
// handler.LowPriority and 0 with AddWithOpts, then taken with GetWithPriority; then q is shut down.
func mixedPriority(seconds float64, keys []reconcile.Request, q priorityqueue.PriorityQueue[reconcile.Request]) float64 {
	defer q.ShutDown()
	low, normal := handler.LowPriority, 0
	opts := [2]priorityqueue.AddOpts{{Priority: &low}, {Priority: &normal}}
	return repeatFor(seconds, func(r int) (time.Duration, int) {
		b := block(keys, r)
		start := time.Now()
		for i, k := range b {
			q.AddWithOpts(opts[i%2], k)
		}
		for range b {
			item, _, _ := q.GetWithPriority()
			q.Done(item)
		}
		return time.Since(start), len(b)
	})
}

// addQueueFigures adds f's figures to figures, keys prefixed with prefix.
func addQueueFigures(figures *Figures, prefix string, f queueFigures) {
	figures.Add(prefix+"add_get_done_1t_ns", f.oneThread)
	figures.Add(prefix+"add_get_done_2t_ns", f.twoThreads)
	figures.Add(prefix+"dedup_add_ns", f.dedup)
	figures.Add(prefix+"add_after_ns", f.addAfter)
	figures.Add(prefix+"contended_2t_ns", f.contended)
	figures.Add(prefix+"contended_2t_nometrics_ns", f.contendedNoMetrics)
}

// RunQueue runs the queue scenario: the priority queue's shapes (and mixed_priority_1t, its
// alone), then client-go's queue's, prefixed cg_.
func RunQueue(args *ProbeArgs) int {
	seconds := args.Number("seconds", 1)
	logQueueChoice()
	logf("queue: priorityqueue.New as controller.New's default NewQueue calls it; its Add/AddAfter " +
		"go to a buffer a goroutine merges, so each dedup_add and add_after round ends with Len() " +
		"(which merges the buffer) inside the timed interval")
	logf("queue: cg_*: workqueue.NewTypedRateLimitingQueueWithConfig(DefaultTypedControllerRateLimiter, "+
		"Name %q), what controller.New makes with UsePriorityQueue=false; its AddAfter hands the item to "+
		"the waiting goroutine over a channel (buffer 1,000), whose inserts are not waited for", queueName)
	logf("queue: *_nometrics_*: the same queue with an empty name (no metrics)")
	keys := queueKeys(100000)

	pq := measureQueue(seconds, keys, queueKind{
		named:   func() rlQueue { return newDefaultQueue(queueName) },
		unnamed: func() rlQueue { return newDefaultQueue("") },
	})
	mixed := mixedPriority(seconds, keys, newDefaultQueue(queueName))
	addsBefore := queueAdds()
	cg := measureQueue(seconds, keys, queueKind{
		named:   func() rlQueue { return newClientGoQueue(queueName) },
		unnamed: func() rlQueue { return newClientGoQueue("") },
	})
	if queueAdds() <= addsBefore {
		fail("queue", "client-go's queue reported no workqueue_adds_total: its metrics are off")
	}

	var figures Figures
	addQueueFigures(&figures, "", pq)
	figures.Add("mixed_priority_1t_ns", mixed)
	addQueueFigures(&figures, "cg_", cg)
	PrintResult(figures)
	return 0
}
