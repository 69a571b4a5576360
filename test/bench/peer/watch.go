package main

// watch: a cache over all pods (stripped), synced, an update handler noting when each value of the
// load's annotation was first seen; SYNCED, STOP, then the load's figures.

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
)

// RunWatch runs the watch scenario.
func RunWatch(args *ProbeArgs) int {
	const name = "watch"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clients, err := newClients(ctx, args, false)
	if err != nil {
		fail(name, "warm-up: %v", err)
	}
	opts := clients.cacheOptions()
	stripOrKeep(&opts, false)
	podCache, err := cache.New(clients.Config, opts)
	if err != nil {
		fail(name, "cache.New: %v", err)
	}
	informer, err := podCache.GetInformer(ctx, &corev1.Pod{})
	if err != nil {
		fail(name, "GetInformer: %v", err)
	}
	seen := NewSeenValues()
	_, err = informer.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		UpdateFunc: func(_, newObj any) {
			if pod, ok := newObj.(*corev1.Pod); ok {
				seen.Note(pod.Annotations[loadAnnotation], UnixNanos())
			}
		},
	})
	if err != nil {
		fail(name, "AddEventHandler: %v", err)
	}
	go func() {
		if err := podCache.Start(ctx); err != nil {
			fail(name, "cache Start: %v", err)
		}
	}()
	if !podCache.WaitForCacheSync(ctx) {
		fail(name, "the cache did not sync")
	}
	logWire(clients.Wire)

	tracker := TrackCPU(seen)
	record, err := AwaitStop()
	if err != nil {
		fail(name, "%v", err)
	}
	WaitUntilAllSeen(record, seen)
	cpu := tracker.Stop()
	load := ComputeLoadFigures(record, seen)

	var figures Figures
	figures.Add("events", float64(load.Events))
	figures.Add("missed", float64(load.Missed))
	figures.Add("events_per_s", load.EventsPerSecond)
	figures.Add("cpu_s", cpu)
	perThousand := 0.0
	if load.Events > 0 {
		perThousand = cpu * 1000 / float64(load.Events) * 1000
	}
	figures.Add("cpu_ms_per_1000_events", perThousand)
	figures.Add("delay_send_p50_ms", load.SendP50)
	figures.Add("delay_send_p99_ms", load.SendP99)
	figures.Add("delay_answer_p50_ms", load.AnswerP50)
	figures.Add("delay_answer_p99_ms", load.AnswerP99)
	PrintResult(figures)
	return 0
}
