package main

// reconcile --workers W [--load] [--protobuf] [--servicemonitors]: a manager (leader election, metrics and probes
// off) with one controller for pods (or ServiceMonitors) built with the builder; its reconciler Gets
// its object through the manager's client (the cache). Measured from the manager's Start to every
// object reconciled once; with --load (pods only), then SYNCED, STOP and the load's figures.

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// FirstReconciles notes, cheaply and from any worker, the first reconcile of each workload object
// (a prebuilt read-only index and one atomic slot per object), counts every reconcile, and says when
// every object was reconciled once.
type FirstReconciles struct {
	index      map[types.NamespacedName]int
	first      []atomic.Int64 // unix ns; 0 until reconciled
	distinct   atomic.Int64
	reconciles atomic.Int64
	firstAt    atomic.Int64
	allAt      int64   // unix ns, written once before allDone closes
	allCPU     float64 // CPU seconds then
	allCount   int64   // reconciles then
	allDone    chan struct{}
}

// NewFirstReconciles indexes the workload's objects of the kind args reads.
func NewFirstReconciles(args *ProbeArgs) *FirstReconciles {
	kind := WorkloadOf(args)
	f := &FirstReconciles{
		index:   make(map[types.NamespacedName]int, args.Pods()),
		first:   make([]atomic.Int64, args.Pods()),
		allDone: make(chan struct{}),
	}
	for i := 0; i < args.Namespaces; i++ {
		for j := 0; j < args.PodsPerNamespace; j++ {
			f.index[types.NamespacedName{Namespace: args.Namespace(i + 1), Name: kind.Name(j)}] = i*args.PodsPerNamespace + j
		}
	}
	return f
}

// Note counts a reconcile of key that started at atUnixNs.
func (f *FirstReconciles) Note(key types.NamespacedName, atUnixNs int64) {
	f.reconciles.Add(1)
	f.firstAt.CompareAndSwap(0, atUnixNs)
	at, ok := f.index[key]
	if !ok || !f.first[at].CompareAndSwap(0, atUnixNs) {
		return
	}
	if f.distinct.Add(1) == int64(len(f.first)) {
		f.allAt, f.allCPU, f.allCount = UnixNanos(), CPUSeconds(), f.reconciles.Load()
		close(f.allDone)
	}
}

// Wait waits until every object was reconciled once, or timeout.
func (f *FirstReconciles) Wait(timeout time.Duration) error {
	select {
	case <-f.allDone:
		return nil
	case <-time.After(timeout):
		return fmt.Errorf("%d of %d objects reconciled after %v", f.distinct.Load(), len(f.first), timeout)
	}
}

// ObjectReconciler is the scenario's reconciler: Get the object from the manager's client into a
// typed pod (or ServiceMonitor), note the reconcile (and, once the load runs, the first start that
// saw each value of the load's annotation), succeed.
type ObjectReconciler struct {
	Client  client.Client
	Kind    *Workload
	Firsts  *FirstReconciles
	Seen    *SeenValues
	LoadOn  atomic.Bool
	Discard bool // idle: no Get, a no-op reconciler
}

// Reconcile implements reconcile.Reconciler.
func (r *ObjectReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	start := UnixNanos()
	if !r.Discard {
		object := r.Kind.New()
		if err := r.Client.Get(ctx, req.NamespacedName, object); err != nil {
			return reconcile.Result{}, client.IgnoreNotFound(err)
		}
		if r.LoadOn.Load() {
			r.Seen.Note(object.GetAnnotations()[loadAnnotation], start)
		}
	}
	r.Firsts.Note(req.NamespacedName, start)
	return reconcile.Result{}, nil
}

// logQueueChoice says on stderr which work queue a default controller gets in this release.
func logQueueChoice() {
	logf("controllers use controller-runtime's priority queue (controller.Options.UsePriorityQueue " +
		"unset: on by default in v0.25), rate limiter ItemExponentialFailureRateLimiter(5ms, 1000s)")
}

// startManager starts mgr in the background; a failure ends the process.
func startManager(ctx context.Context, name string, mgr manager.Manager) {
	go func() {
		if err := mgr.Start(ctx); err != nil {
			fail(name, "manager Start: %v", err)
		}
	}()
}

// managerWarmUp is the protocol's warm-up through the manager's mapper and API reader.
func managerWarmUp(ctx context.Context, args *ProbeArgs, mgr manager.Manager) error {
	return warmUp(ctx, args, mgr.GetRESTMapper(), mgr.GetAPIReader())
}

// RunReconcile runs the reconcile scenario.
func RunReconcile(args *ProbeArgs) int {
	const name = "reconcile"
	workers := int(args.Number("workers", 1))
	if workers < 1 {
		fail(name, "--workers %d: at least 1", workers)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg, err := restConfig(args, args.Switch("protobuf"))
	if err != nil {
		fail(name, "config: %v", err)
	}
	wire := newWireRecorder(args)
	cfg.Wrap(wire.Wrap)
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                 schemeFor(args),
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		LeaderElection:         false,
		Cache:                  cache.Options{DefaultTransform: cache.TransformStripManagedFields()},
	})
	if err != nil {
		fail(name, "NewManager: %v", err)
	}
	kind := WorkloadOf(args)
	reconciler := &ObjectReconciler{Client: mgr.GetClient(), Kind: kind, Firsts: NewFirstReconciles(args), Seen: NewSeenValues()}
	err = ctrl.NewControllerManagedBy(mgr).
		For(kind.New()).
		WithOptions(controller.Options{MaxConcurrentReconciles: workers}).
		Complete(reconciler)
	if err != nil {
		fail(name, "building the controller: %v", err)
	}
	logQueueChoice()
	if err := managerWarmUp(ctx, args, mgr); err != nil {
		fail(name, "warm-up: %v", err)
	}
	SettledMemory()

	startNs, cpu0 := UnixNanos(), CPUSeconds()
	startManager(ctx, name, mgr)
	firsts := reconciler.Firsts
	if err := firsts.Wait(10 * time.Minute); err != nil {
		fail(name, "%v", err)
	}
	after := SettledMemory()
	logWire(wire)

	var figures Figures
	figures.Add("pods", float64(args.Pods())) // objects of the kind read
	figures.Add("first_s", float64(firsts.firstAt.Load()-startNs)/1e9)
	figures.Add("all_s", float64(firsts.allAt-startNs)/1e9)
	figures.Add("cpu_s", firsts.allCPU-cpu0)
	figures.Add("reconciles", float64(firsts.allCount))
	figures.Add("rss_after_bytes", float64(after.RSS))
	figures.Add("heap_after_bytes", float64(after.Heap))
	if args.Switch("load") {
		reconciler.LoadOn.Store(true)
		reconcilesBefore := firsts.reconciles.Load()
		tracker := TrackCPU(reconciler.Seen)
		record, err := AwaitStop()
		if err != nil {
			fail(name, "%v", err)
		}
		WaitUntilAllSeen(record, reconciler.Seen)
		loadCPU := tracker.Stop()
		load := ComputeLoadFigures(record, reconciler.Seen)
		figures.Add("load_reconciles", float64(firsts.reconciles.Load()-reconcilesBefore))
		figures.Add("reconciles_per_s", load.EventsPerSecond)
		figures.Add("missed", float64(load.Missed))
		figures.Add("delay_send_p50_ms", load.SendP50)
		figures.Add("delay_send_p99_ms", load.SendP99)
		figures.Add("delay_answer_p50_ms", load.AnswerP50)
		figures.Add("delay_answer_p99_ms", load.AnswerP99)
		figures.Add("load_cpu_s", loadCPU)
	}
	PrintResult(figures)
	return 0
}
