package main

// The kind of object a run reads: the workload's pods, or with --servicemonitors its
// ServiceMonitors (monitoring.coreos.com/v1, a custom resource, so JSON on the wire) laid out as
// the pods are: namespaces P-1 .. P-N, objects sm-0000 .. sm-<M-1>. Go types from
// prometheus-operator's API module, as an operator that reads ServiceMonitors imports them.

import (
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Workload is the kind of the objects a run reads, with the typed Go values it reads them into.
type Workload struct {
	GVK      schema.GroupVersionKind
	Resource string             // plural: the last segment of its list and watch paths
	Name     func(j int) string // object j (0-based) of a namespace
	New      func() client.Object
	NewList  func() client.ObjectList
}

// ServiceMonitorName is the workload's ServiceMonitor j (0-based) of a namespace: sm-%04d.
func ServiceMonitorName(j int) string { return fmt.Sprintf("sm-%04d", j) }

var podWorkload = &Workload{
	GVK:      corev1.SchemeGroupVersion.WithKind("Pod"),
	Resource: "pods",
	Name:     PodName,
	New:      func() client.Object { return &corev1.Pod{} },
	NewList:  func() client.ObjectList { return &corev1.PodList{} },
}

var serviceMonitorWorkload = &Workload{
	GVK:      monitoringv1.SchemeGroupVersion.WithKind(monitoringv1.ServiceMonitorsKind),
	Resource: monitoringv1.ServiceMonitorName,
	Name:     ServiceMonitorName,
	New:      func() client.Object { return &monitoringv1.ServiceMonitor{} },
	NewList:  func() client.ObjectList { return &monitoringv1.ServiceMonitorList{} },
}

// WorkloadOf is the kind args asks for: ServiceMonitors with --servicemonitors, else pods.
func WorkloadOf(args *ProbeArgs) *Workload {
	if args.Switch("servicemonitors") {
		return serviceMonitorWorkload
	}
	return podWorkload
}

// schemeFor is newScheme, plus monitoring.coreos.com/v1 when the run reads ServiceMonitors.
func schemeFor(args *ProbeArgs) *runtime.Scheme {
	scheme := newScheme()
	if WorkloadOf(args) == serviceMonitorWorkload {
		if err := monitoringv1.AddToScheme(scheme); err != nil {
			panic(err)
		}
	}
	return scheme
}
