// cr-peer is controller-runtime's side of `hack/bench.sh --vs controller-runtime`: one scenario per
// run, written with controller-runtime's public API as a Go operator author writes it, its figures
// on one "RESULT" line. test/bench/vs/PROTOCOL.md says what each scenario measures.
package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// ProbeArgs is one run's arguments: `<scenario> --kubeconfig PATH [--prefix P --namespaces N
// --pods-per-namespace M] [scenario flags]`.
type ProbeArgs struct {
	Scenario         string
	Kubeconfig       string
	Prefix           string
	Namespaces       int
	PodsPerNamespace int
	// The scenario's flags by name without the dashes; a switch maps to "true". Every value is a
	// number but --lease's and --cert-dir's. --servicemonitors (sync, reads, reconcile, idle) makes
	// the run read ServiceMonitors instead of pods (objects.go).
	Flags map[string]string
}

// Pods is the workload's object count: pods, or ServiceMonitors with --servicemonitors.
func (a *ProbeArgs) Pods() int { return a.Namespaces * a.PodsPerNamespace }

// Switch says whether the switch was given.
func (a *ProbeArgs) Switch(name string) bool { _, ok := a.Flags[name]; return ok }

// Number is the flag's value (parse checked it is a number), fallback when absent.
func (a *ProbeArgs) Number(name string, fallback float64) float64 {
	if text, ok := a.Flags[name]; ok {
		value, _ := strconv.ParseFloat(text, 64)
		return value
	}
	return fallback
}

// Namespace is the workload's namespace i (1-based): P-i.
func (a *ProbeArgs) Namespace(i int) string { return fmt.Sprintf("%s-%d", a.Prefix, i) }

// PodName is the workload's pod j (0-based) of a namespace: pod-%04d.
func PodName(j int) string { return fmt.Sprintf("pod-%04d", j) }

// scenarioFlags is what a scenario accepts beyond the common flags.
type scenarioFlags struct {
	values   []string // flags that take a value (a number but for --lease)
	switches []string
}

// scenario is one entry of the dispatch table.
type scenario struct {
	flags scenarioFlags
	run   func(*ProbeArgs) int
}

var scenarios = map[string]scenario{
	"sync":          {scenarioFlags{nil, []string{"keep-managed-fields", "protobuf", "servicemonitors"}}, RunSync},
	"watch":         {scenarioFlags{}, RunWatch},
	"reads":         {scenarioFlags{[]string{"seconds"}, []string{"protobuf", "servicemonitors"}}, RunReads},
	"reconcile":     {scenarioFlags{[]string{"workers"}, []string{"load", "protobuf", "servicemonitors"}}, RunReconcile},
	"queue":         {scenarioFlags{[]string{"seconds"}, nil}, RunQueue},
	"discovery":     {scenarioFlags{[]string{"groups", "misses"}, []string{"legacy"}}, RunDiscovery},
	"idle":          {scenarioFlags{[]string{"seconds"}, []string{"protobuf", "servicemonitors"}}, RunIdle},
	"failover":      {scenarioFlags{[]string{"objects", "lease"}, []string{"warmup"}}, RunFailover},
	"webhook-serve": {scenarioFlags{[]string{"cert-dir", "port"}, nil}, RunWebhookServe},
}

func contains(list []string, name string) bool {
	for _, item := range list {
		if item == name {
			return true
		}
	}
	return false
}

// parseArgs reads argv[1:]: flags are `--name value`, `--name=value`, or `--name` for a switch.
func parseArgs(argv []string) (*ProbeArgs, error) {
	if len(argv) < 1 {
		return nil, fmt.Errorf("no scenario given")
	}
	args := &ProbeArgs{Scenario: argv[0], Prefix: "vs", Namespaces: 100, PodsPerNamespace: 100, Flags: map[string]string{}}
	if args.Scenario == "patch-load" || args.Scenario == "webhook-load" {
		return nil, fmt.Errorf("%s is ctrl-vs-probe's only (one load generator for both sides)", args.Scenario)
	}
	known, ok := scenarios[args.Scenario]
	if !ok {
		return nil, fmt.Errorf("unknown scenario %q", args.Scenario)
	}
	for i := 1; i < len(argv); i++ {
		arg := argv[i]
		if !strings.HasPrefix(arg, "--") {
			return nil, fmt.Errorf("unexpected argument %q", arg)
		}
		name, value, hasValue := strings.Cut(arg[2:], "=")
		if contains(known.flags.switches, name) {
			if hasValue {
				return nil, fmt.Errorf("--%s takes no value", name)
			}
			args.Flags[name] = "true"
			continue
		}
		common := name == "kubeconfig" || name == "prefix" || name == "namespaces" || name == "pods-per-namespace"
		if !common && !contains(known.flags.values, name) {
			return nil, fmt.Errorf("scenario %s does not take --%s", args.Scenario, name)
		}
		if !hasValue {
			if i+1 >= len(argv) {
				return nil, fmt.Errorf("--%s needs a value", name)
			}
			i++
			value = argv[i]
		}
		switch name {
		case "kubeconfig":
			args.Kubeconfig = value
		case "prefix":
			args.Prefix = value
		case "namespaces", "pods-per-namespace":
			count, err := strconv.Atoi(value)
			if err != nil || count < 1 || count > 1000000 {
				return nil, fmt.Errorf("--%s %s: not a count", name, value)
			}
			if name == "namespaces" {
				args.Namespaces = count
			} else {
				args.PodsPerNamespace = count
			}
		case "lease", "cert-dir":
			args.Flags[name] = value
		default:
			if _, err := strconv.ParseFloat(value, 64); err != nil {
				return nil, fmt.Errorf("--%s %s: not a number", name, value)
			}
			args.Flags[name] = value
		}
	}
	if args.Kubeconfig == "" && args.Scenario != "queue" {
		return nil, fmt.Errorf("--kubeconfig is required")
	}
	if args.Switch("servicemonitors") {
		// A custom resource is served in JSON only; the patch load patches pods.
		if args.Switch("protobuf") {
			return nil, fmt.Errorf("--protobuf with --servicemonitors: a custom resource has no protobuf encoding")
		}
		if args.Switch("load") {
			return nil, fmt.Errorf("--load with --servicemonitors: the patch load patches pods")
		}
	}
	return args, nil
}

func main() {
	args, err := parseArgs(os.Args[1:])
	if err != nil {
		fmt.Fprintf(os.Stderr, "cr-peer: %v\nusage: cr-peer sync|watch|reads|reconcile|queue|discovery|idle|failover|webhook-serve "+
			"--kubeconfig PATH [--prefix P --namespaces N --pods-per-namespace M] [flags]\n"+
			"(test/bench/vs/PROTOCOL.md)\n", err)
		os.Exit(2)
	}
	setUpLogging()
	os.Exit(scenarios[args.Scenario].run(args))
}
