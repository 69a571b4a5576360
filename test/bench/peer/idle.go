package main

// idle [--seconds S] [--protobuf] [--servicemonitors]: a manager as kubebuilder's scaffolded main() makes it
// (metrics over plain HTTP and health probes on 127.0.0.1:0, ping healthz/readyz, leader election
// off) with the stripping transform and one controller for pods (or ServiceMonitors) with a no-op
// reconciler (1 worker). Once every object was reconciled once, wait 2 s, then measure S seconds
// idle.

import (
	"context"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

// RunIdle runs the idle scenario.
func RunIdle(args *ProbeArgs) int {
	const name = "idle"
	seconds := args.Number("seconds", 10)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg, err := restConfig(args, args.Switch("protobuf"))
	if err != nil {
		fail(name, "config: %v", err)
	}
	wire := newWireRecorder(args)
	cfg.Wrap(wire.Wrap)
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme: schemeFor(args),
		Metrics: metricsserver.Options{
			BindAddress:   "127.0.0.1:0",
			SecureServing: false,
		},
		HealthProbeBindAddress: "127.0.0.1:0",
		LeaderElection:         false,
		Cache:                  cache.Options{DefaultTransform: cache.TransformStripManagedFields()},
	})
	if err != nil {
		fail(name, "NewManager: %v", err)
	}
	kind := WorkloadOf(args)
	reconciler := &ObjectReconciler{Client: mgr.GetClient(), Kind: kind, Firsts: NewFirstReconciles(args), Discard: true}
	if err := ctrl.NewControllerManagedBy(mgr).For(kind.New()).Complete(reconciler); err != nil {
		fail(name, "building the controller: %v", err)
	}
	if err := mgr.AddHealthzCheck("healthz", healthz.Ping); err != nil {
		fail(name, "AddHealthzCheck: %v", err)
	}
	if err := mgr.AddReadyzCheck("readyz", healthz.Ping); err != nil {
		fail(name, "AddReadyzCheck: %v", err)
	}
	logQueueChoice()
	if err := managerWarmUp(ctx, args, mgr); err != nil {
		fail(name, "warm-up: %v", err)
	}
	SettledMemory()

	startNs := UnixNanos()
	startManager(ctx, name, mgr)
	firsts := reconciler.Firsts
	if err := firsts.Wait(10 * time.Minute); err != nil {
		fail(name, "%v", err)
	}
	logWire(wire)
	time.Sleep(2 * time.Second)

	cpu0, switches0, reconciles0, idleStart := CPUSeconds(), ContextSwitches(), firsts.reconciles.Load(), time.Now()
	time.Sleep(time.Duration(seconds * float64(time.Second)))
	cpu1, switches1, reconciles1, idleSeconds := CPUSeconds(), ContextSwitches(), firsts.reconciles.Load(), time.Since(idleStart).Seconds()
	rssRaw, threads, peak := RSSBytes(), Threads(), RSSPeakBytes()
	settled := SettledMemory()

	var figures Figures
	figures.Add("pods", float64(args.Pods())) // objects of the kind read
	figures.Add("all_s", float64(firsts.allAt-startNs)/1e9)
	figures.Add("rss_bytes", float64(rssRaw))
	figures.Add("rss_settled_bytes", float64(settled.RSS))
	figures.Add("heap_bytes", float64(settled.Heap))
	figures.Add("rss_peak_bytes", float64(peak))
	figures.Add("threads", float64(threads))
	figures.Add("cpu_ms_per_s", (cpu1-cpu0)*1000/idleSeconds)
	figures.Add("wakeups_per_s", float64(switches1-switches0)/idleSeconds)
	figures.Add("reconciles_idle", float64(reconciles1-reconciles0))
	PrintResult(figures)
	return 0
}
