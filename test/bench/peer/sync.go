package main

// sync [--keep-managed-fields] [--protobuf]: a cache (informer) over pods in all namespaces,
// measured from the cache's Start to synced.

import (
	"context"
	"encoding/json"
	"time"

	corev1 "k8s.io/api/core/v1"
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
	podCache, err := cache.New(clients.Config, opts)
	if err != nil {
		fail(name, "cache.New: %v", err)
	}
	// Registers the pod informer; the cache is not started, so this returns at once.
	if _, err := podCache.GetInformer(ctx, &corev1.Pod{}); err != nil {
		fail(name, "GetInformer: %v", err)
	}

	before := SettledMemory()
	cpu0, start := CPUSeconds(), time.Now()
	go func() {
		if err := podCache.Start(ctx); err != nil {
			fail(name, "cache Start: %v", err)
		}
	}()
	if !podCache.WaitForCacheSync(ctx) {
		fail(name, "the cache did not sync")
	}
	syncSeconds := time.Since(start).Seconds()
	cpu := CPUSeconds() - cpu0
	rssRaw := RSSBytes()
	after := SettledMemory()
	peak := RSSPeakBytes()

	// The cached objects themselves (no copies), each re-serialized to JSON as the Go type holds it.
	var pods corev1.PodList
	if err := podCache.List(ctx, &pods, client.UnsafeDisableDeepCopy); err != nil {
		fail(name, "List from the cache: %v", err)
	}
	var jsonBytes int
	for i := range pods.Items {
		data, err := json.Marshal(&pods.Items[i])
		if err != nil {
			fail(name, "re-serializing %s/%s: %v", pods.Items[i].Namespace, pods.Items[i].Name, err)
		}
		jsonBytes += len(data)
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
	figures.Add("pods", float64(len(pods.Items)))
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
