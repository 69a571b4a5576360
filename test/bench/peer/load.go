package main

// The probe's side of the external patch load (PROTOCOL.md, "The patch load"), as ctrl's
// test/bench/vs/load_observer.cpp does it: note when each annotation value was first seen,
// announce SYNCED, wait for STOP, read the load's record file and turn both into delay figures.

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// loadAnnotation is the annotation the patch load writes: "<nonce>-<seq>".
const loadAnnotation = "bench.ctrl.dev/seq"

// SeenValues is, thread-safe, the first time each value of the load's annotation was seen.
type SeenValues struct {
	mu    sync.Mutex
	first map[string]int64
	size  atomic.Int64
}

// NewSeenValues makes an empty set.
func NewSeenValues() *SeenValues { return &SeenValues{first: make(map[string]int64, 1<<16)} }

// Note notes value as seen at atUnixNs unless it was seen before; "" is no value.
func (s *SeenValues) Note(value string, atUnixNs int64) {
	if value == "" {
		return
	}
	s.mu.Lock()
	if _, ok := s.first[value]; !ok {
		s.first[value] = atUnixNs
		s.size.Add(1)
	}
	s.mu.Unlock()
}

// Size is the count of values noted so far.
func (s *SeenValues) Size() int64 { return s.size.Load() }

// lookup is the first-seen time of value.
func (s *SeenValues) lookup(value string) (int64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	at, ok := s.first[value]
	return at, ok
}

// RecordedPatch is one patch of the load's record file.
type RecordedPatch struct {
	Seq      int
	Sent     int64
	Answered int64
	OK       bool
}

// LoadRecord is the load's record file.
type LoadRecord struct {
	Nonce   string
	Patches []RecordedPatch
}

// value is the annotation value of a patch of this load.
func (r *LoadRecord) value(p RecordedPatch) string { return r.Nonce + "-" + strconv.Itoa(p.Seq) }

// ReadLoadRecord reads "nonce <nonce>" then "<seq> <sent_ns> <answered_ns> <ok>" lines.
func ReadLoadRecord(path string) (*LoadRecord, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot open the load record %s: %w", path, err)
	}
	words := strings.Fields(string(data))
	if len(words) < 2 || words[0] != "nonce" {
		return nil, fmt.Errorf("load record %s: no \"nonce\" line first", path)
	}
	record := &LoadRecord{Nonce: words[1]}
	rest := words[2:]
	if len(rest)%4 != 0 {
		return nil, fmt.Errorf("load record %s: malformed after %d patches", path, len(rest)/4)
	}
	for i := 0; i < len(rest); i += 4 {
		seq, err1 := strconv.Atoi(rest[i])
		sent, err2 := strconv.ParseInt(rest[i+1], 10, 64)
		answered, err3 := strconv.ParseInt(rest[i+2], 10, 64)
		ok, err4 := strconv.Atoi(rest[i+3])
		if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
			return nil, fmt.Errorf("load record %s: malformed after %d patches", path, i/4)
		}
		record.Patches = append(record.Patches, RecordedPatch{seq, sent, answered, ok == 1})
	}
	return record, nil
}

// AwaitStop prints SYNCED, reads "STOP <record-file> <answered>" on stdin and reads that file.
func AwaitStop() (*LoadRecord, error) {
	fmt.Println("SYNCED") // os.Stdout is unbuffered: the line is out now
	line, err := bufio.NewReader(os.Stdin).ReadString('\n')
	if err != nil && line == "" {
		return nil, fmt.Errorf("stdin closed before STOP")
	}
	words := strings.Fields(line)
	if len(words) < 2 || words[0] != "STOP" {
		return nil, fmt.Errorf("expected \"STOP <record-file> <answered>\", read %q", strings.TrimSpace(line))
	}
	return ReadLoadRecord(words[1])
}

// WaitUntilAllSeen polls until every patch answered OK in record was seen, or 15 s pass.
func WaitUntilAllSeen(record *LoadRecord, seen *SeenValues) {
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) && !seen.allSeen(record) {
		time.Sleep(20 * time.Millisecond)
	}
}

// allSeen says whether every patch answered OK in record was seen.
func (s *SeenValues) allSeen(record *LoadRecord) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range record.Patches {
		if _, ok := s.first[record.value(p)]; p.OK && !ok {
			return false
		}
	}
	return true
}

// LoadFigures are the delay figures of one load.
type LoadFigures struct {
	Events                                 int     // patches answered OK and seen
	Missed                                 int     // answered OK, never seen
	EventsPerSecond                        float64 // events / (last seen - first sent)
	SendP50, SendP99, AnswerP50, AnswerP99 float64 // ms
	LastSeen                               int64   // unix ns
}

// ComputeLoadFigures mirrors ctrl's LoadFigures (load_observer.cpp).
func ComputeLoadFigures(record *LoadRecord, seen *SeenValues) LoadFigures {
	var fromSend, fromAnswer []int64
	firstSent, last := int64(math.MaxInt64), int64(0)
	var f LoadFigures
	for _, p := range record.Patches {
		if !p.OK {
			continue
		}
		firstSent = min(firstSent, p.Sent)
		at, ok := seen.lookup(record.value(p))
		if !ok {
			f.Missed++
			continue
		}
		last = max(last, at)
		fromSend = append(fromSend, at-p.Sent)
		fromAnswer = append(fromAnswer, at-p.Answered)
	}
	f.Events = len(fromSend)
	if f.Events > 0 {
		f.EventsPerSecond = float64(f.Events) / (float64(last-firstSent) / 1e9)
	}
	f.SendP50, f.SendP99 = QuantileMs(fromSend, 0.5), QuantileMs(fromSend, 0.99)
	f.AnswerP50, f.AnswerP99 = QuantileMs(fromAnswer, 0.5), QuantileMs(fromAnswer, 0.99)
	f.LastSeen = last
	return f
}

// CPUTracker samples the process's CPU every 20 ms while new values are being seen, so the CPU
// "from SYNCED to the last event seen" can be read after STOP (within one period of the last).
type CPUTracker struct {
	start    float64
	lastCPU  atomic.Uint64 // math.Float64bits
	stop     chan struct{}
	finished chan struct{}
}

// TrackCPU starts sampling now (at SYNCED).
func TrackCPU(seen *SeenValues) *CPUTracker {
	t := &CPUTracker{start: CPUSeconds(), stop: make(chan struct{}), finished: make(chan struct{})}
	t.lastCPU.Store(math.Float64bits(t.start))
	go func() {
		defer close(t.finished)
		ticker := time.NewTicker(20 * time.Millisecond)
		defer ticker.Stop()
		count := seen.Size()
		for {
			select {
			case <-t.stop:
				if seen.Size() != count {
					t.lastCPU.Store(math.Float64bits(CPUSeconds()))
				}
				return
			case <-ticker.C:
				if now := seen.Size(); now != count {
					count = now
					t.lastCPU.Store(math.Float64bits(CPUSeconds()))
				}
			}
		}
	}()
	return t
}

// Stop ends sampling and returns the CPU seconds from the start to the sample after the last
// new value.
func (t *CPUTracker) Stop() float64 {
	close(t.stop)
	<-t.finished
	return math.Float64frombits(t.lastCPU.Load()) - t.start
}
