package main

// What every scenario shares: this process's memory and CPU as PROTOCOL.md's "Memory" section
// reads them, the RESULT line, and the quantile of a set of delays.

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Figure is one key=value of a RESULT line.
type Figure struct {
	Key   string
	Value float64
}

// Figures is a RESULT line's figures, in the order they are printed.
type Figures []Figure

// Add appends key=value.
func (f *Figures) Add(key string, value float64) { *f = append(*f, Figure{key, value}) }

// PrintResult writes "RESULT k=v ..." on stdout: plain decimal numbers, no exponent.
func PrintResult(figures Figures) {
	var line strings.Builder
	line.WriteString("RESULT")
	for _, f := range figures {
		line.WriteString(" " + f.Key + "=" + strconv.FormatFloat(f.Value, 'f', -1, 64))
	}
	fmt.Println(line.String())
}

// UnixNanos is CLOCK_REALTIME nanoseconds since the Unix epoch, the time base of a run's processes.
func UnixNanos() int64 { return time.Now().UnixNano() }

// CPUSeconds is user + system CPU of the whole process (every thread), from getrusage.
func CPUSeconds() float64 {
	var usage syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &usage); err != nil {
		return 0
	}
	return float64(usage.Utime.Nano()+usage.Stime.Nano()) / 1e9
}

// RSSBytes is the resident set from /proc/self/statm (resident pages x page size), as it is.
func RSSBytes() uint64 {
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	fields := strings.Fields(string(data))
	if len(fields) < 2 {
		return 0
	}
	pages, _ := strconv.ParseUint(fields[1], 10, 64)
	return pages * uint64(os.Getpagesize())
}

// statusField is the number after "name:" in a /proc status file (kB fields as written).
func statusField(path, name string) uint64 {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	scanner := bufio.NewScanner(bytes.NewReader(data))
	for scanner.Scan() {
		line := scanner.Text()
		if rest, ok := strings.CutPrefix(line, name+":"); ok {
			fields := strings.Fields(rest)
			if len(fields) > 0 {
				value, _ := strconv.ParseUint(fields[0], 10, 64)
				return value
			}
		}
	}
	return 0
}

// RSSPeakBytes is VmHWM of /proc/self/status.
func RSSPeakBytes() uint64 { return statusField("/proc/self/status", "VmHWM") * 1024 }

// Threads is the Threads line of /proc/self/status.
func Threads() uint64 { return statusField("/proc/self/status", "Threads") }

// ContextSwitches is voluntary + involuntary context switches of every thread alive now
// (/proc/self/task/*/status).
func ContextSwitches() uint64 {
	tasks, _ := filepath.Glob("/proc/self/task/*/status")
	var total uint64
	for _, task := range tasks {
		total += statusField(task, "voluntary_ctxt_switches") + statusField(task, "nonvoluntary_ctxt_switches")
	}
	return total
}

// Memory is the process's memory after settling.
type Memory struct {
	RSS  uint64 // resident bytes (statm)
	Heap uint64 // MemStats.HeapAlloc after a GC
}

// SettledMemory collects garbage, hands free memory back to the kernel
// (runtime.GC; debug.FreeOSMemory) and reads RSS and the live heap.
func SettledMemory() Memory {
	runtime.GC()
	debug.FreeOSMemory()
	var stats runtime.MemStats
	runtime.ReadMemStats(&stats)
	return Memory{RSS: RSSBytes(), Heap: stats.HeapAlloc}
}

// QuantileMs is the p-th quantile (0..1) of nanosecond values in milliseconds, 0 when empty:
// ctrl's definition (test/bench/bench_process.cpp QuantileMs), the value at index
// min(n-1, floor(p*n)) of the sorted values.
func QuantileMs(values []int64, p float64) float64 {
	if len(values) == 0 {
		return 0
	}
	sorted := append([]int64(nil), values...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	at := min(len(sorted)-1, int(p*float64(len(sorted))))
	return float64(sorted[at]) / 1e6
}

// fail prints "cr-peer: <scenario>: <message>" on stderr and exits 1.
func fail(scenario string, format string, args ...any) {
	fmt.Fprintf(os.Stderr, "cr-peer: %s: %s\n", scenario, fmt.Sprintf(format, args...))
	os.Exit(1)
}

// logf writes a line of the probe's own log on stderr.
func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "cr-peer: "+format+"\n", args...)
}
