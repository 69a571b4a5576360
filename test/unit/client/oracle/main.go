// Command oracle prints what Go computes for the client layer's patch tests, so their expected
// values come from apimachinery itself (see README.md).
//
//	oracle tags <Kind>...   the fields with patch tags a two-way diff of each kind can reach
//	oracle smp              per input line {"kind","a","b"}: CreateTwoWayMergePatch(a, b)
//	oracle smp-apply        per input line: StrategicMergePatch(a, patch b)
//	oracle merge            per input line: evanphx CreateMergePatch(a, b)
//	oracle merge-apply      per input line: evanphx MergePatch(a, patch b)
//	oracle json-apply       per input line: the RFC 6902 patch b applied to a
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
)

// The kinds runtime/client/internal/strategic_merge_schema.cpp knows.
var kinds = map[string]interface{}{
	"Pod": corev1.Pod{}, "Namespace": corev1.Namespace{}, "ServiceAccount": corev1.ServiceAccount{},
	"ConfigMap": corev1.ConfigMap{}, "Secret": corev1.Secret{}, "Event": corev1.Event{},
	"Service": corev1.Service{}, "Node": corev1.Node{}, "PersistentVolumeClaim": corev1.PersistentVolumeClaim{},
	"Lease": coordinationv1.Lease{}, "CustomResourceDefinition": apiextv1.CustomResourceDefinition{},
	"Deployment": appsv1.Deployment{}, "StatefulSet": appsv1.StatefulSet{}, "DaemonSet": appsv1.DaemonSet{},
	"ReplicaSet": appsv1.ReplicaSet{}, "Job": batchv1.Job{}, "CronJob": batchv1.CronJob{},
}

// walk prints the tagged fields below t. A list without a merge strategy is replaced whole by a
// diff, so the tags inside its elements never apply and are not followed.
func walk(t reflect.Type, path string, seen map[reflect.Type]bool) {
	for t.Kind() == reflect.Ptr || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
		if t.Kind() == reflect.Map {
			path += ".*"
		}
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] {
		return
	}
	seen[t] = true
	defer delete(seen, t)
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := strings.Split(f.Tag.Get("json"), ",")[0]
		p := path
		if name != "" {
			p = path + "." + name
		}
		strategy := f.Tag.Get("patchStrategy")
		if strategy != "" {
			fmt.Printf("%s strategy=%s key=%s\n", p, strategy, f.Tag.Get("patchMergeKey"))
		}
		ft := f.Type
		for ft.Kind() == reflect.Ptr {
			ft = ft.Elem()
		}
		if ft.Kind() == reflect.Slice && !strings.Contains(strategy, "merge") {
			continue
		}
		walk(f.Type, p, seen)
	}
}

func main() {
	mode := os.Args[1]
	if mode == "tags" {
		for _, k := range os.Args[2:] {
			walk(reflect.TypeOf(kinds[k]), k, map[reflect.Type]bool{})
		}
		return
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	for in.Scan() {
		var c struct {
			Kind string          `json:"kind"`
			A    json.RawMessage `json:"a"`
			B    json.RawMessage `json:"b"`
		}
		if err := json.Unmarshal(in.Bytes(), &c); err != nil {
			fmt.Println("ERR", err)
			continue
		}
		var out []byte
		var err error
		switch mode {
		case "smp":
			out, err = strategicpatch.CreateTwoWayMergePatch(c.A, c.B, kinds[c.Kind])
		case "smp-apply":
			out, err = strategicpatch.StrategicMergePatch(c.A, c.B, kinds[c.Kind])
		case "merge":
			out, err = jsonpatch.CreateMergePatch(c.A, c.B)
		case "merge-apply":
			out, err = jsonpatch.MergePatch(c.A, c.B)
		case "json-apply":
			var p jsonpatch.Patch
			if p, err = jsonpatch.DecodePatch(c.B); err == nil {
				out, err = p.Apply(c.A)
			}
		default:
			err = fmt.Errorf("unknown mode %q", mode)
		}
		if err != nil {
			fmt.Println("ERR", err)
			continue
		}
		fmt.Println(string(out))
	}
}
