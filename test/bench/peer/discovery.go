package main

// discovery --groups G [--legacy] [--misses K]: requests (and time) a fresh
// apiutil.NewDynamicRESTMapper (the manager's default) needs to resolve G kinds in G groups,
// versioned and unversioned, and K misses of a kind that does not exist.

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// RequestCounter is a WrapTransport that counts every request, and notes the Content-Type the
// server answered /apis with (to check --legacy on the wire).
type RequestCounter struct {
	count        atomic.Int64
	mu           sync.Mutex
	apisAnswered map[string]int
}

// Wrap is the rest.Config WrapTransport.
func (c *RequestCounter) Wrap(next http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		c.count.Add(1)
		resp, err := next.RoundTrip(req)
		if err == nil && req.URL.Path == "/apis" {
			c.mu.Lock()
			if c.apisAnswered == nil {
				c.apisAnswered = map[string]int{}
			}
			c.apisAnswered[resp.Header.Get("Content-Type")]++
			c.mu.Unlock()
		}
		return resp, err
	})
}

// isDiscoveryPath says whether path is a discovery document: /api, /apis, /api/<v>, /apis/<g>/<v>.
func isDiscoveryPath(path string) bool {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	switch parts[0] {
	case "api":
		return len(parts) <= 2
	case "apis":
		return len(parts) <= 3
	}
	return false
}

// legacyDiscovery is a WrapTransport that asks for the legacy (unaggregated) discovery documents:
// the Accept header of discovery requests becomes application/json.
func legacyDiscovery(next http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if isDiscoveryPath(req.URL.Path) {
			req = req.Clone(req.Context())
			req.Header.Set("Accept", "application/json")
		}
		return next.RoundTrip(req)
	})
}

// thingKind is kind Thing of group bench<i>.ctrl.dev.
func thingKind(i int) schema.GroupKind {
	return schema.GroupKind{Group: fmt.Sprintf("bench%d.ctrl.dev", i), Kind: "Thing"}
}

// RunDiscovery runs the discovery scenario.
func RunDiscovery(args *ProbeArgs) int {
	const name = "discovery"
	groups := int(args.Number("groups", 50))
	misses := int(args.Number("misses", 10))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg, err := restConfig(args, false)
	if err != nil {
		fail(name, "config: %v", err)
	}
	counter := &RequestCounter{}
	if args.Switch("legacy") {
		cfg.Wrap(legacyDiscovery)
	}
	cfg.Wrap(counter.Wrap)
	httpClient, err := rest.HTTPClientFor(cfg)
	if err != nil {
		fail(name, "HTTPClientFor: %v", err)
	}
	// Warm-up with a mapper of its own; the measured mappers are fresh ones over the same
	// (connected) HTTP client.
	warmMapper, err := apiutil.NewDynamicRESTMapper(cfg, httpClient)
	if err != nil {
		fail(name, "NewDynamicRESTMapper: %v", err)
	}
	direct, err := client.New(cfg, client.Options{HTTPClient: httpClient, Scheme: newScheme(), Mapper: warmMapper})
	if err != nil {
		fail(name, "client.New: %v", err)
	}
	if err := warmUp(ctx, args, warmMapper, direct); err != nil {
		fail(name, "warm-up: %v", err)
	}

	resolve := func(mapper meta.RESTMapper, versioned bool) (int64, time.Duration) {
		before, start := counter.count.Load(), time.Now()
		for i := 1; i <= groups; i++ {
			var mapping *meta.RESTMapping
			var err error
			if versioned {
				mapping, err = mapper.RESTMapping(thingKind(i), "v1")
			} else {
				mapping, err = mapper.RESTMapping(thingKind(i))
			}
			if err != nil {
				fail(name, "resolving %v: %v", thingKind(i), err)
			}
			if mapping.Resource.Resource != "things" || mapping.Resource.Version != "v1" {
				fail(name, "resolving %v: got %v", thingKind(i), mapping.Resource)
			}
		}
		return counter.count.Load() - before, time.Since(start)
	}
	first, err := apiutil.NewDynamicRESTMapper(cfg, httpClient)
	if err != nil {
		fail(name, "NewDynamicRESTMapper: %v", err)
	}
	resolveRequests, resolveTime := resolve(first, true)
	second, err := apiutil.NewDynamicRESTMapper(cfg, httpClient)
	if err != nil {
		fail(name, "NewDynamicRESTMapper: %v", err)
	}
	unversionedRequests, _ := resolve(second, false)

	missing := schema.GroupKind{Group: "bench1.ctrl.dev", Kind: "Missing"}
	before, start := counter.count.Load(), time.Now()
	for k := 0; k < misses; k++ {
		_, err := first.RESTMapping(missing, "v1")
		if !meta.IsNoMatchError(err) {
			fail(name, "lookup %d of bench1.ctrl.dev/v1 Missing: expected no match, got %v", k+1, err)
		}
	}
	missRequests, missTime := counter.count.Load()-before, time.Since(start)
	counter.mu.Lock()
	logf("discovery: /apis answered as %v", counter.apisAnswered)
	counter.mu.Unlock()

	var figures Figures
	figures.Add("resolve_requests", float64(resolveRequests))
	figures.Add("resolve_unversioned_requests", float64(unversionedRequests))
	figures.Add("miss_requests", float64(missRequests))
	figures.Add("resolve_ms", float64(resolveTime.Nanoseconds())/1e6)
	figures.Add("miss_ms", float64(missTime.Nanoseconds())/1e6)
	PrintResult(figures)
	return 0
}
