package main

// webhook-serve --cert-dir DIR --port P: controller-runtime's webhook server serving a validating
// webhook for SecurityGroupPolicy with the rules of ctrl's sample validator
// (controllers/sgp/policy_webhook.cpp), as a Go author writes one for a CRD without Go types: a
// typed admission.Validator over *unstructured.Unstructured registered with
// ctrl.NewWebhookManagedBy(mgr, policy).WithValidator(v), served by a manager as kubebuilder's
// scaffolded main() makes it (HTTP/2 off: the scaffold's default). It prints SERVING once the
// server answers TLS, serves until SIGTERM, then prints RESULT. test/bench/vs/PROTOCOL.md,
// "webhook".

import (
	"context"
	"crypto/tls"
	"fmt"
	"regexp"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	ctrl "sigs.k8s.io/controller-runtime"
	crmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"
)

var policyGVK = schema.GroupVersionKind{Group: "vpcresources.k8s.aws", Version: "v1beta1", Kind: "SecurityGroupPolicy"}

// securityGroupID is an AWS security group id: "sg-" and 8 or 17 lower-case hexadecimal digits.
var securityGroupID = regexp.MustCompile(`^sg-([0-9a-f]{8}|[0-9a-f]{17})$`)

// policyValidator is the validating webhook: checkPolicy on create and update.
type policyValidator struct{}

func (policyValidator) ValidateCreate(_ context.Context, policy *unstructured.Unstructured) (admission.Warnings, error) {
	return nil, checkPolicy(policy)
}

func (policyValidator) ValidateUpdate(_ context.Context, _, policy *unstructured.Unstructured) (admission.Warnings, error) {
	return nil, checkPolicy(policy)
}

func (policyValidator) ValidateDelete(context.Context, *unstructured.Unstructured) (admission.Warnings, error) {
	return nil, nil
}

// checkPolicy is ctrl's sgp::CheckPolicy: at least one selector, each readable with known
// operators (metav1.LabelSelectorAsSelector), at least one group id, each "sg-" and 8 or 17 hex
// digits; an Invalid error with one cause per problem, each naming its field.
func checkPolicy(policy *unstructured.Unstructured) error {
	spec := field.NewPath("spec")
	var errs field.ErrorList
	selectors := 0
	for _, name := range []string{"podSelector", "serviceAccountSelector"} {
		raw, found, _ := unstructured.NestedFieldNoCopy(policy.Object, "spec", name)
		if !found {
			continue
		}
		selectors++
		object, ok := raw.(map[string]any)
		if !ok {
			errs = append(errs, field.Invalid(spec.Child(name), raw, "must be an object"))
			continue
		}
		var selector metav1.LabelSelector
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(object, &selector); err != nil {
			errs = append(errs, field.Invalid(spec.Child(name), object, err.Error()))
			continue
		}
		if _, err := metav1.LabelSelectorAsSelector(&selector); err != nil {
			errs = append(errs, field.Invalid(spec.Child(name), object, err.Error()))
		}
	}
	if selectors == 0 {
		errs = append(errs, field.Required(spec, "at least one of podSelector and serviceAccountSelector is required"))
	}
	groupIDs := spec.Child("securityGroups", "groupIds")
	ids, found, err := unstructured.NestedStringSlice(policy.Object, "spec", "securityGroups", "groupIds")
	switch {
	case err != nil:
		errs = append(errs, field.Invalid(groupIDs, nil, err.Error()))
	case !found || len(ids) == 0:
		errs = append(errs, field.Required(groupIDs, "at least one security group id is required"))
	}
	for i, id := range ids {
		if !securityGroupID.MatchString(id) {
			errs = append(errs, field.Invalid(groupIDs.Index(i), id,
				"is not a security group id (sg- and 8 or 17 hexadecimal digits)"))
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return apierrors.NewInvalid(policyGVK.GroupKind(), policy.GetName(), errs)
}

// webhookRequests sums controller_runtime_webhook_requests_total over every path and code.
func webhookRequests() float64 {
	families, err := crmetrics.Registry.Gather()
	if err != nil {
		return 0
	}
	total := 0.0
	for _, family := range families {
		if family.GetName() != "controller_runtime_webhook_requests_total" {
			continue
		}
		for _, metric := range family.GetMetric() {
			total += metric.GetCounter().GetValue()
		}
	}
	return total
}

// RunWebhookServe runs the webhook-serve scenario.
func RunWebhookServe(args *ProbeArgs) int {
	const name = "webhook-serve"
	certDir := args.Flags["cert-dir"]
	port := int(args.Number("port", 0))
	if certDir == "" || port < 1 {
		fail(name, "--cert-dir and --port are required")
	}
	cfg, err := defaultConfig(args)
	if err != nil {
		fail(name, "config: %v", err)
	}
	// kubebuilder's scaffold turns HTTP/2 off for the webhook server unless --enable-http2.
	disableHTTP2 := func(c *tls.Config) { c.NextProtos = []string{"http/1.1"} }
	// The builder asks the scheme about the kind (is it convertible?): without Go types, the kind is
	// registered as unstructured.
	scheme := newScheme()
	scheme.AddKnownTypeWithName(policyGVK, &unstructured.Unstructured{})
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                 scheme,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		WebhookServer: webhook.NewServer(webhook.Options{
			Host: "127.0.0.1", Port: port, CertDir: certDir, TLSOpts: []func(*tls.Config){disableHTTP2},
		}),
	})
	if err != nil {
		fail(name, "NewManager: %v", err)
	}
	policy := &unstructured.Unstructured{}
	policy.SetGroupVersionKind(policyGVK)
	if err := ctrl.NewWebhookManagedBy(mgr, policy).WithValidator(policyValidator{}).Complete(); err != nil {
		fail(name, "building the webhook: %v", err)
	}
	ctx := ctrl.SetupSignalHandler()
	started := mgr.GetWebhookServer().StartedChecker()
	go func() {
		for ctx.Err() == nil {
			if started(nil) == nil {
				fmt.Printf("SERVING %d\n", UnixNanos())
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	if err := mgr.Start(ctx); err != nil {
		fail(name, "the manager stopped with %v", err)
	}
	var figures Figures
	figures.Add("requests", webhookRequests())
	figures.Add("cpu_s", CPUSeconds())
	figures.Add("rss_bytes", float64(RSSBytes()))
	figures.Add("rss_peak_bytes", float64(RSSPeakBytes()))
	figures.Add("threads", float64(Threads()))
	PrintResult(figures)
	return 0
}
