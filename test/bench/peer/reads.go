package main

// reads [--seconds S]: a cache over the pods of P-1 (100), synced; reads through a client backed
// by that cache (what a manager's client is) and through a direct client, one goroutine, each
// kind of read in a loop of S seconds.

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// timedLoop calls op in batches of batch until seconds pass; returns µs per op and the op count.
func timedLoop(seconds float64, batch int, op func(i int) error) (float64, int, error) {
	start := time.Now()
	deadline := start.Add(time.Duration(seconds * float64(time.Second)))
	ops := 0
	for time.Now().Before(deadline) {
		for j := 0; j < batch; j++ {
			if err := op(ops); err != nil {
				return 0, ops, err
			}
			ops++
		}
	}
	return float64(time.Since(start).Nanoseconds()) / 1e3 / float64(ops), ops, nil
}

// newPodCache makes, starts and syncs a cache over the pods of namespace; noCopy sets
// DefaultUnsafeDisableDeepCopy.
func newPodCache(ctx context.Context, name string, clients *Clients, namespace string, noCopy bool) cache.Cache {
	opts := clients.cacheOptions()
	stripOrKeep(&opts, false)
	opts.DefaultNamespaces = map[string]cache.Config{namespace: {}}
	if noCopy {
		opts.DefaultUnsafeDisableDeepCopy = ptr.To(true)
	}
	podCache, err := cache.New(clients.Config, opts)
	if err != nil {
		fail(name, "cache.New: %v", err)
	}
	if _, err := podCache.GetInformer(ctx, &corev1.Pod{}); err != nil {
		fail(name, "GetInformer: %v", err)
	}
	go func() {
		if err := podCache.Start(ctx); err != nil {
			fail(name, "cache Start: %v", err)
		}
	}()
	if !podCache.WaitForCacheSync(ctx) {
		fail(name, "the cache did not sync")
	}
	return podCache
}

// RunReads runs the reads scenario.
func RunReads(args *ProbeArgs) int {
	const name = "reads"
	seconds := args.Number("seconds", 2)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clients, err := newClients(ctx, args, false)
	if err != nil {
		fail(name, "warm-up: %v", err)
	}
	namespace := args.Namespace(1)
	podCache := newPodCache(ctx, name, clients, namespace, false)
	cached, err := client.New(clients.Config, client.Options{
		HTTPClient: clients.HTTP, Scheme: clients.Scheme, Mapper: clients.Mapper,
		Cache: &client.CacheOptions{Reader: podCache},
	})
	if err != nil {
		fail(name, "client.New over the cache: %v", err)
	}

	// Pod i % 100 of P-1 (fewer when a smaller layout has fewer pods per namespace).
	keys := make([]client.ObjectKey, min(100, args.PodsPerNamespace))
	for i := range keys {
		keys[i] = client.ObjectKey{Namespace: namespace, Name: PodName(i)}
	}
	getUs, getOps, err := timedLoop(seconds, 100, func(i int) error {
		var pod corev1.Pod
		return cached.Get(ctx, keys[i%len(keys)], &pod)
	})
	if err != nil {
		fail(name, "cached Get: %v", err)
	}
	// controller-runtime's read without a copy: a cache made with DefaultUnsafeDisableDeepCopy
	// hands out the informer's own object (Get then copies the struct, not what it points to).
	sharedCache := newPodCache(ctx, name, clients, namespace, true)
	sharedUs, sharedOps, err := timedLoop(seconds, 100, func(i int) error {
		var pod corev1.Pod
		return sharedCache.Get(ctx, keys[i%len(keys)], &pod)
	})
	if err != nil {
		fail(name, "cached shared Get: %v", err)
	}
	items := 0
	listUs, listOps, err := timedLoop(seconds, 10, func(int) error {
		var pods corev1.PodList
		err := cached.List(ctx, &pods, client.InNamespace(namespace))
		items = len(pods.Items)
		return err
	})
	if err != nil {
		fail(name, "cached List: %v", err)
	}
	directUs, directOps, err := timedLoop(seconds, 1, func(i int) error {
		var pod corev1.Pod
		return clients.Direct.Get(ctx, keys[i%len(keys)], &pod)
	})
	if err != nil {
		fail(name, "direct Get: %v", err)
	}
	logWire(clients.Wire)

	var figures Figures
	figures.Add("cached_get_us", getUs)
	figures.Add("cached_get_ops", float64(getOps))
	figures.Add("shared_get_us", sharedUs)
	figures.Add("shared_get_ops", float64(sharedOps))
	figures.Add("cached_list_us", listUs)
	figures.Add("cached_list_ops", float64(listOps))
	figures.Add("cached_list_items", float64(items))
	figures.Add("direct_get_us", directUs)
	figures.Add("direct_get_ops", float64(directOps))
	PrintResult(figures)
	return 0
}
