package main

// reads [--seconds S] [--protobuf] [--servicemonitors]: reads of the pods (or ServiceMonitors) of P-1 (100)
// through a client backed by a cache (what a manager's client is), straight from caches and through
// a direct client, one goroutine, each kind of read in a loop of S seconds. The caches are a Go
// user's default, over every namespace, but for the restricted Get's, a cache over P-1 alone. Each
// cache is made, synced, read and stopped before the next.

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
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

// cacheSpec is how one of the scenario's caches is made: over every namespace unless namespace is
// set; noCopy sets DefaultUnsafeDisableDeepCopy.
type cacheSpec struct {
	namespace string
	noCopy    bool
}

// withCache makes, starts and syncs a cache over the kind read as spec says, calls use with it and
// a client backed by it, then stops the cache and waits until its informers are down.
func withCache(ctx context.Context, name string, clients *Clients, kind *Workload, spec cacheSpec,
	use func(objectCache cache.Cache, cached client.Client)) {
	opts := clients.cacheOptions()
	stripOrKeep(&opts, false)
	if spec.namespace != "" {
		opts.DefaultNamespaces = map[string]cache.Config{spec.namespace: {}}
	}
	if spec.noCopy {
		opts.DefaultUnsafeDisableDeepCopy = ptr.To(true)
	}
	objectCache, err := cache.New(clients.Config, opts)
	if err != nil {
		fail(name, "cache.New: %v", err)
	}
	if _, err := objectCache.GetInformer(ctx, kind.New()); err != nil {
		fail(name, "GetInformer: %v", err)
	}
	cacheCtx, stop := context.WithCancel(ctx)
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		if err := objectCache.Start(cacheCtx); err != nil {
			fail(name, "cache Start: %v", err)
		}
	}()
	if !objectCache.WaitForCacheSync(cacheCtx) {
		fail(name, "the cache did not sync")
	}
	cached, err := client.New(clients.Config, client.Options{
		HTTPClient: clients.HTTP, Scheme: clients.Scheme, Mapper: clients.Mapper,
		Cache: &client.CacheOptions{Reader: objectCache},
	})
	if err != nil {
		fail(name, "client.New over the cache: %v", err)
	}
	use(objectCache, cached)
	stop()
	<-stopped
}

// RunReads runs the reads scenario.
func RunReads(args *ProbeArgs) int {
	const name = "reads"
	seconds := args.Number("seconds", 2)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clients, err := newClients(ctx, args, args.Switch("protobuf"))
	if err != nil {
		fail(name, "warm-up: %v", err)
	}
	kind := WorkloadOf(args)
	namespace := args.Namespace(1)

	// Object i % 100 of P-1 (fewer when a smaller layout has fewer objects per namespace).
	keys := make([]client.ObjectKey, min(100, args.PodsPerNamespace))
	for i := range keys {
		keys[i] = client.ObjectKey{Namespace: namespace, Name: kind.Name(i)}
	}
	var figures Figures
	measure := func(what string, batch int, op func(i int) error) {
		us, ops, err := timedLoop(seconds, batch, op)
		if err != nil {
			fail(name, "%s: %v", what, err)
		}
		figures.Add(what+"_us", us)
		figures.Add(what+"_ops", float64(ops))
	}

	// The default cache (every namespace): Get into a fresh typed object, List of P-1 (copies).
	items := 0
	withCache(ctx, name, clients, kind, cacheSpec{}, func(_ cache.Cache, cached client.Client) {
		measure("cached_get", 100, func(i int) error {
			return cached.Get(ctx, keys[i%len(keys)], kind.New())
		})
		var last client.ObjectList
		measure("cached_list", 10, func(int) error {
			last = kind.NewList()
			return cached.List(ctx, last, client.InNamespace(namespace))
		})
		if last != nil {
			items = meta.LenList(last)
		}
	})
	// controller-runtime's read without a copy: a cache made with DefaultUnsafeDisableDeepCopy
	// hands out the informer's own object (Get then copies the struct, not what it points to).
	withCache(ctx, name, clients, kind, cacheSpec{noCopy: true}, func(sharedCache cache.Cache, _ client.Client) {
		measure("shared_get", 100, func(i int) error {
			return sharedCache.Get(ctx, keys[i%len(keys)], kind.New())
		})
	})
	// A cache restricted to P-1 is a multi-namespace cache: its Get asks the RESTMapper whether
	// the kind is namespaced, every time.
	withCache(ctx, name, clients, kind, cacheSpec{namespace: namespace}, func(_ cache.Cache, cached client.Client) {
		measure("cached_get_restricted", 100, func(i int) error {
			return cached.Get(ctx, keys[i%len(keys)], kind.New())
		})
	})
	measure("direct_get", 1, func(i int) error {
		return clients.Direct.Get(ctx, keys[i%len(keys)], kind.New())
	})
	figures.Add("cached_list_items", float64(items))
	logWire(clients.Wire)
	PrintResult(figures)
	return 0
}
