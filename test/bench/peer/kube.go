package main

// The client side every scenario that talks to the API server shares: the rest.Config as
// ctrl.GetConfig makes it (JSON on the wire unless --protobuf), a transport that notes the content
// type of the list/watch answers of the kind read (pods, or ServiceMonitors), and the protocol's
// warm-up.

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"

	"go.uber.org/zap/zapcore"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
)

// setUpLogging gives controller-runtime a logger (zap, info, stderr) as kubebuilder's main does;
// without one it warns that its log calls are dropped.
func setUpLogging() {
	ctrl.SetLogger(zap.New(zap.WriteTo(os.Stderr), zap.Level(zapcore.InfoLevel)))
}

// newScheme is the scheme of client-go's built-in kinds.
func newScheme() *runtime.Scheme {
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		panic(err)
	}
	return scheme
}

// WireRecorder is a WrapTransport that notes the Content-Type of every answer to a list or watch
// of one resource (a path ending in /<resource>; client-go 1.35+ informers sync with a streaming
// watch-list, so the initial state arrives on a watch), so the wire format is checked rather than
// assumed.
type WireRecorder struct {
	resource string
	mu       sync.Mutex
	types    map[string]int
}

// newWireRecorder records the answers of the kind args reads.
func newWireRecorder(args *ProbeArgs) *WireRecorder {
	return &WireRecorder{resource: WorkloadOf(args).Resource}
}

// Wrap is the rest.Config WrapTransport.
func (w *WireRecorder) Wrap(next http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		resp, err := next.RoundTrip(req)
		if err == nil && strings.HasSuffix(req.URL.Path, "/"+w.resource) {
			w.mu.Lock()
			if w.types == nil {
				w.types = map[string]int{}
			}
			verb := "list"
			if watch := req.URL.Query().Get("watch"); watch == "true" || watch == "1" {
				verb = "watch"
			}
			w.types[verb+" "+resp.Header.Get("Content-Type")]++
			w.mu.Unlock()
		}
		return resp, err
	})
}

// Seen is each "list|watch <Content-Type>" of the answers with its count.
func (w *WireRecorder) Seen() map[string]int {
	w.mu.Lock()
	defer w.mu.Unlock()
	seen := map[string]int{}
	for k, v := range w.types {
		seen[k] = v
	}
	return seen
}

// AllProtobuf says whether answers were seen and every one was protobuf.
func (w *WireRecorder) AllProtobuf() bool {
	seen := w.Seen()
	for answer := range seen {
		if _, contentType, _ := strings.Cut(answer, " "); !strings.HasPrefix(contentType, runtime.ContentTypeProtobuf) {
			return false
		}
	}
	return len(seen) > 0
}

// roundTripFunc is an http.RoundTripper made of a function.
type roundTripFunc func(*http.Request) (*http.Response, error)

// RoundTrip calls the function.
func (f roundTripFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// restConfig is what ctrl.GetConfig makes of --kubeconfig (client-side rate limiting off: QPS -1),
// with JSON on the wire, or protobuf for built-in kinds when protobuf is set.
//
// controller-runtime on its own picks protobuf for every kind of client-go's scheme (pods too)
// when ContentType is empty (apiutil.createRestConfig); the protocol asks for JSON unless
// --protobuf, so ContentType is always set here.
func restConfig(args *ProbeArgs, protobuf bool) (*rest.Config, error) {
	cfg, err := defaultConfig(args)
	if err != nil {
		return nil, err
	}
	if protobuf {
		cfg.ContentType = runtime.ContentTypeProtobuf
		cfg.AcceptContentTypes = runtime.ContentTypeProtobuf + "," + runtime.ContentTypeJSON
	} else {
		cfg.ContentType = runtime.ContentTypeJSON
	}
	return cfg, nil
}

// defaultConfig is what ctrl.GetConfig makes of --kubeconfig, as it makes it: client-side rate
// limiting off (QPS -1), ContentType empty (controller-runtime then asks for protobuf for the
// built-in kinds).
func defaultConfig(args *ProbeArgs) (*rest.Config, error) {
	if err := flag.CommandLine.Set("kubeconfig", args.Kubeconfig); err != nil {
		return nil, err
	}
	return ctrl.GetConfig()
}

// stripOrKeep is the cache option of the protocol: managedFields stripped unless keep.
func stripOrKeep(opts *cache.Options, keep bool) {
	if !keep {
		opts.DefaultTransform = cache.TransformStripManagedFields()
	}
}

// warmUp is the protocol's warm-up: the kind read (pods, or ServiceMonitors) resolved through the
// mapper, one direct List of it in P-1 with limit=1 (the TLS connection and discovery are then
// done).
func warmUp(ctx context.Context, args *ProbeArgs, mapper meta.RESTMapper, reader client.Reader) error {
	kind := WorkloadOf(args)
	if _, err := mapper.RESTMapping(kind.GVK.GroupKind(), kind.GVK.Version); err != nil {
		return fmt.Errorf("resolving %s: %w", kind.Resource, err)
	}
	if err := reader.List(ctx, kind.NewList(), client.InNamespace(args.Namespace(1)), client.Limit(1)); err != nil {
		return fmt.Errorf("listing %s of %s with limit=1: %w", kind.Resource, args.Namespace(1), err)
	}
	return nil
}

// Clients are what a program that uses a cache without a manager makes: one HTTP client shared by
// the mapper, the cache and the direct client (as the manager's cluster shares one).
type Clients struct {
	Config *rest.Config
	Scheme *runtime.Scheme
	HTTP   *http.Client
	Mapper meta.RESTMapper
	Direct client.Client
	Wire   *WireRecorder
}

// newClients makes the config, the HTTP client, the dynamic RESTMapper and a direct client, then
// warms up.
func newClients(ctx context.Context, args *ProbeArgs, protobuf bool) (*Clients, error) {
	cfg, err := restConfig(args, protobuf)
	if err != nil {
		return nil, err
	}
	c := &Clients{Config: cfg, Scheme: schemeFor(args), Wire: newWireRecorder(args)}
	cfg.Wrap(c.Wire.Wrap)
	if c.HTTP, err = rest.HTTPClientFor(cfg); err != nil {
		return nil, err
	}
	if c.Mapper, err = apiutil.NewDynamicRESTMapper(cfg, c.HTTP); err != nil {
		return nil, err
	}
	if c.Direct, err = client.New(cfg, client.Options{HTTPClient: c.HTTP, Scheme: c.Scheme, Mapper: c.Mapper}); err != nil {
		return nil, err
	}
	return c, warmUp(ctx, args, c.Mapper, c.Direct)
}

// cacheOptions are the cache's options over these clients.
func (c *Clients) cacheOptions() cache.Options {
	return cache.Options{HTTPClient: c.HTTP, Scheme: c.Scheme, Mapper: c.Mapper}
}

// logWire notes the content types seen on the list/watch answers on stderr.
func logWire(wire *WireRecorder) {
	logf("%s list/watch answers by Content-Type: %v", wire.resource, wire.Seen())
}
