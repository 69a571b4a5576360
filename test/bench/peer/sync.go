package main

// sync [--keep-managed-fields] [--protobuf] [--servicemonitors]: a cache (informer) over pods (or
// ServiceMonitors) in all namespaces, measured from the cache's Start to synced.

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// RunSync runs the sync scenario.
func RunSync(args *ProbeArgs) int {
	const name = "sync"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	protobuf := args.Switch("protobuf")
	clients, err := newClients(ctx, args, protobuf)
	if err != nil {
		fail(name, "warm-up: %v", err)
	}
	opts := clients.cacheOptions()
	stripOrKeep(&opts, args.Switch("keep-managed-fields"))
	kind := WorkloadOf(args)
	objectCache, err := cache.New(clients.Config, opts)
	if err != nil {
		fail(name, "cache.New: %v", err)
	}
	// Registers the informer; the cache is not started, so this returns at once.
	if _, err := objectCache.GetInformer(ctx, kind.New()); err != nil {
		fail(name, "GetInformer: %v", err)
	}

	before := SettledMemory()
	cpu0, start := CPUSeconds(), time.Now()
	go func() {
		if err := objectCache.Start(ctx); err != nil {
			fail(name, "cache Start: %v", err)
		}
	}()
	if !objectCache.WaitForCacheSync(ctx) {
		fail(name, "the cache did not sync")
	}
	syncSeconds := time.Since(start).Seconds()
	cpu := CPUSeconds() - cpu0
	rssRaw := RSSBytes()
	after := SettledMemory()
	peak := RSSPeakBytes()

	// The cached objects themselves (no copies), each re-serialized to JSON as the Go type holds it.
	list := kind.NewList()
	if err := objectCache.List(ctx, list, client.UnsafeDisableDeepCopy); err != nil {
		fail(name, "List from the cache: %v", err)
	}
	var jsonBytes int
	err = meta.EachListItem(list, func(item runtime.Object) error {
		data, err := json.Marshal(item)
		if err != nil {
			object := item.(client.Object)
			return fmt.Errorf("re-serializing %s/%s: %w", object.GetNamespace(), object.GetName(), err)
		}
		jsonBytes += len(data)
		return nil
	})
	if err != nil {
		fail(name, "%v", err)
	}
	logWire(clients.Wire)
	seenProtobuf := 0.0
	if clients.Wire.AllProtobuf() {
		seenProtobuf = 1
	}
	if protobuf && seenProtobuf == 0 {
		fail(name, "--protobuf: the pod list/watch answers were not all protobuf: %v", clients.Wire.Seen())
	}

	var figures Figures
	figures.Add("pods", float64(meta.LenList(list))) // objects of the kind read
	figures.Add("sync_s", syncSeconds)
	figures.Add("cpu_s", cpu)
	figures.Add("rss_before_bytes", float64(before.RSS))
	figures.Add("rss_raw_bytes", float64(rssRaw))
	figures.Add("rss_after_bytes", float64(after.RSS))
	figures.Add("heap_after_bytes", float64(after.Heap))
	figures.Add("rss_peak_bytes", float64(peak))
	figures.Add("json_bytes", float64(jsonBytes))
	figures.Add("protobuf", seenProtobuf)
	PrintResult(figures)
	return 0
}
