package main

// failover --objects N --lease NAME [--warmup]: one replica of an operator with leader election
// (Lease NAME in <prefix>-failover; 3 s, renew 2 s, retry 0.5 s, LeaderElectionReleaseOnCancel)
// and one controller over the N ConfigMaps of that namespace (EnableWarmup with --warmup) whose
// reconciler only notes what it saw. It prints ACQUIRED (its first Lease write answered OK),
// ELECTED, FIRST_RECONCILE and ALL_RECONCILED as they happen, STANDBY once it waits behind another
// holder's Lease (with --warmup: once its queue holds every object), and RESULT after SIGTERM.
// test/bench/vs/PROTOCOL.md, "failover".

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// failoverController names the controller, and so its queue's metrics.
const failoverController = "failover"

// replica is what one replica saw, from its reconciler, its election runnable, its transport and
// its standby watch; it prints the protocol's lines as they happen.
type replica struct {
	mu                                                        sync.Mutex
	objects                                                   int
	reconciled                                                map[string]struct{}
	acquired, elected, standby, firstReconcile, allReconciled bool
	lists, listsAfterStandby                                  int
}

// sayLocked prints "<what> <unix ns>" once.
func (r *replica) sayLocked(said *bool, what string) {
	if !*said {
		*said = true
		fmt.Printf("%s %d\n", what, UnixNanos())
	}
}

func (r *replica) say(said *bool, what string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sayLocked(said, what)
}

// Reconcile is the operator's reconciler: notes the object and succeeds.
func (r *replica) Reconcile(_ context.Context, req reconcile.Request) (reconcile.Result, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reconciled[req.Name] = struct{}{}
	r.sayLocked(&r.firstReconcile, "FIRST_RECONCILE")
	if len(r.reconciled) == r.objects {
		r.sayLocked(&r.allReconciled, "ALL_RECONCILED")
	}
	return reconcile.Result{}, nil
}

// wrap is the rest.Config WrapTransport: counts the LISTs and watch-lists of ConfigMaps, and says
// ACQUIRED at the first Lease write (a create or an update of a path under /leases) answered 2xx: a
// candidate writes the Lease only to take it.
func (r *replica) wrap(next http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if isListOrWatchList(req, "configmaps") {
			r.mu.Lock()
			r.lists++
			if r.standby {
				r.listsAfterStandby++
			}
			r.mu.Unlock()
		}
		resp, err := next.RoundTrip(req)
		leaseWrite := (req.Method == http.MethodPut || req.Method == http.MethodPost) &&
			strings.Contains(req.URL.Path, "/leases")
		if leaseWrite && err == nil && resp.StatusCode >= 200 && resp.StatusCode < 300 {
			r.say(&r.acquired, "ACQUIRED")
		}
		return resp, err
	})
}

// isListOrWatchList says whether req reads the whole collection of resource: a GET of a path
// ending in /<resource> without watch=true (a LIST), or with watch=true and sendInitialEvents=true
// (a watch-list); a plain watch is neither (test/support/list_requests.hpp).
func isListOrWatchList(req *http.Request, resource string) bool {
	if req.Method != http.MethodGet || !strings.HasSuffix(req.URL.Path, "/"+resource) {
		return false
	}
	query := req.URL.Query()
	watch := query.Get("watch") == "true" || query.Get("watch") == "1"
	return !watch || query.Get("sendInitialEvents") == "true"
}

func (r *replica) figures() Figures {
	r.mu.Lock()
	defer r.mu.Unlock()
	flag := func(b bool) float64 {
		if b {
			return 1
		}
		return 0
	}
	var figures Figures
	figures.Add("objects", float64(r.objects))
	figures.Add("reconciled", float64(len(r.reconciled)))
	figures.Add("elected", flag(r.elected))
	figures.Add("standby", flag(r.standby))
	figures.Add("lists", float64(r.lists))
	figures.Add("lists_after_standby", float64(r.listsAfterStandby))
	return figures
}

// failoverManager is the replica's manager: PROTOCOL.md's Lease timings, the cache on namespace,
// the stripping transform; the wire format is controller-runtime's default (protobuf for
// ConfigMaps), as ctrl's.
func failoverManager(args *ProbeArgs, r *replica, namespace string) (manager.Manager, error) {
	cfg, err := defaultConfig(args)
	if err != nil {
		return nil, err
	}
	cfg.Wrap(r.wrap)
	leaseDuration, renewDeadline, retryPeriod := 3*time.Second, 2*time.Second, 500*time.Millisecond
	return ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                        newScheme(),
		Metrics:                       metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress:        "0",
		LeaderElection:                true,
		LeaderElectionID:              args.Flags["lease"],
		LeaderElectionNamespace:       namespace,
		LeaderElectionReleaseOnCancel: true,
		LeaseDuration:                 &leaseDuration,
		RenewDeadline:                 &renewDeadline,
		RetryPeriod:                   &retryPeriod,
		Cache: cache.Options{
			DefaultNamespaces: map[string]cache.Config{namespace: {}},
			DefaultTransform:  cache.TransformStripManagedFields(),
		},
	})
}

// sayWhenStandby: until mgr leads, reads the Lease every 50 ms until someone holds it, then waits
// for the controller's queue to hold queueTarget items, then says STANDBY.
func sayWhenStandby(ctx context.Context, mgr manager.Manager, r *replica, lease client.ObjectKey, queueTarget int) {
	otherHolds := false
	for ctx.Err() == nil {
		select {
		case <-mgr.Elected():
			return
		default:
		}
		if !otherHolds {
			var held coordinationv1.Lease
			if err := mgr.GetAPIReader().Get(ctx, lease, &held); err == nil {
				holder := held.Spec.HolderIdentity
				otherHolds = holder != nil && *holder != ""
			}
		}
		if otherHolds && registryValue("failover", "workqueue_depth", failoverController) >= float64(queueTarget) {
			r.say(&r.standby, "STANDBY")
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// RunFailover runs the failover scenario.
func RunFailover(args *ProbeArgs) int {
	const name = "failover"
	objects, leaseName, warmup := int(args.Number("objects", 0)), args.Flags["lease"], args.Switch("warmup")
	if objects < 1 || leaseName == "" {
		fail(name, "--objects (a count) and --lease are required")
	}
	namespace := args.Prefix + "-failover"
	r := &replica{objects: objects, reconciled: map[string]struct{}{}}
	mgr, err := failoverManager(args, r, namespace)
	if err != nil {
		fail(name, "NewManager: %v", err)
	}
	if err := ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Named(failoverController).
		WithOptions(controller.Options{EnableWarmup: &warmup}).Complete(r); err != nil {
		fail(name, "building the controller: %v", err)
	}
	if err := mgr.Add(manager.RunnableFunc(func(context.Context) error {
		r.say(&r.elected, "ELECTED")
		return nil
	})); err != nil {
		fail(name, "adding the election runnable: %v", err)
	}
	queueTarget := 0
	if warmup {
		queueTarget = objects
	}
	// As an operator's main(): Start(SetupSignalHandler()); the driver ends it with SIGTERM.
	ctx := ctrl.SetupSignalHandler()
	go sayWhenStandby(ctx, mgr, r, client.ObjectKey{Namespace: namespace, Name: leaseName}, queueTarget)
	err = mgr.Start(ctx)
	PrintResult(r.figures())
	if err != nil {
		fail(name, "the manager stopped with %v", err)
	}
	return 0
}
