// proto-schema dumps, from client-go's scheme by reflection, what ctrl's protobuf transcoder needs
// to know about every built-in message type: each field's protobuf number and wire type (the
// `protobuf:"..."` tag), its JSON name and omitempty (the `json:"..."` tag), its Go shape (pointer,
// slice, map, []byte) and which types marshal themselves (metav1.Time, resource.Quantity, ...).
// It writes runtime/protobuf/internal/schema_table.cpp (-out), or compares with it (-verify).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/scheme"
)

// Value kinds, as the C++ enum ctrl::protobuf::internal::Kind names them.
var special = map[string]string{
	"k8s.io/apimachinery/pkg/apis/meta/v1.Time":       "kTime",
	"k8s.io/apimachinery/pkg/apis/meta/v1.MicroTime":  "kMicroTime",
	"k8s.io/apimachinery/pkg/apis/meta/v1.Duration":   "kDuration",
	"k8s.io/apimachinery/pkg/api/resource.Quantity":   "kQuantity",
	"k8s.io/apimachinery/pkg/util/intstr.IntOrString": "kIntOrString",
	"k8s.io/apimachinery/pkg/apis/meta/v1.FieldsV1":   "kFieldsV1",
	"k8s.io/apimachinery/pkg/runtime.RawExtension":    "kRawExtension",
}

type field struct {
	Number    int
	Wire      string // varint, bytes, fixed64, fixed32, zigzag32, zigzag64, or "" (TypeMeta inline)
	JSON      string
	OmitEmpty bool
	OmitZero  bool   // only on metav1.Time and MicroTime (checked below): omitted when zero
	Shape     string // kSingle, kPointer, kRepeated, kMap, kInline, kTypeMeta
	Kind      string
	Message   string // for kMessage and kInline
	ValKind   string // map value kind
	ValMsg    string
	Wrapped   bool // a named slice type with its own message (field 1 repeated), e.g. ExtraValue
	// The server's conversion to this version sets each element's kind and apiVersion (see
	// elementTypeMeta), which protobuf does not carry.
	ElementTypeMeta bool
}

// elementTypeMeta lists the fields whose elements the API server's conversion from its internal
// version gives a kind and apiVersion: k8s.io/kubernetes pkg/apis/apps/{v1,v1beta1,v1beta2}
// conversion.go sets them on every StatefulSet volumeClaimTemplate (issue 87583).
var elementTypeMeta = map[string]bool{
	"k8s.io/api/apps/v1.StatefulSetSpec.VolumeClaimTemplates":      true,
	"k8s.io/api/apps/v1beta1.StatefulSetSpec.VolumeClaimTemplates": true,
	"k8s.io/api/apps/v1beta2.StatefulSetSpec.VolumeClaimTemplates": true,
}

type message struct {
	Name   string
	Fields []field
}

var (
	messages = map[string]*message{}
	problems []string
	notes    []string
)

// goWire is the wire type go-to-protobuf gives a field's Go type.
func goWire(f field) string {
	kind := f.Kind
	if f.Shape == "kMap" || f.Shape == "kInline" {
		return "bytes"
	}
	switch kind {
	case "kBool", "kInt32", "kInt64", "kUint32", "kUint64":
		return "varint"
	case "kFloat64":
		return "fixed64"
	case "kFloat32":
		return "fixed32"
	}
	return "bytes"
}

func typeName(t reflect.Type) string { return t.PkgPath() + "." + t.Name() }

var protoMarshaler = reflect.TypeOf((*interface{ Marshal() ([]byte, error) })(nil)).Elem()

// scalarKind names the kind of a value of Go type t, walking structs it meets.
func scalarKind(t reflect.Type, where string) (kind, msg string, wrapped bool) {
	if k, ok := special[typeName(t)]; ok {
		return k, "", false
	}
	switch t.Kind() {
	case reflect.String:
		return "kString", "", false
	case reflect.Bool:
		return "kBool", "", false
	case reflect.Int32:
		return "kInt32", "", false
	case reflect.Int64:
		return "kInt64", "", false
	case reflect.Int:
		return "kInt64", "", false
	case reflect.Uint32:
		return "kUint32", "", false
	case reflect.Uint64:
		return "kUint64", "", false
	case reflect.Float64:
		return "kFloat64", "", false
	case reflect.Float32:
		return "kFloat32", "", false
	case reflect.Struct:
		walk(t)
		return "kMessage", typeName(t), false
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return "kBytes", "", false
		}
		if t.Name() != "" && reflect.PointerTo(t).Implements(protoMarshaler) && t.Elem().Kind() == reflect.String {
			return "kString", "", true
		}
	}
	problems = append(problems, fmt.Sprintf("%s: unsupported type %s", where, t))
	return "kUnsupported", "", false
}

func parseProtoTag(tag string) (wire string, number int, name string) {
	parts := strings.Split(tag, ",")
	wire = parts[0]
	if len(parts) < 2 {
		return
	}
	number, _ = strconv.Atoi(parts[1])
	for _, p := range parts[2:] {
		if strings.HasPrefix(p, "name=") {
			name = strings.TrimPrefix(p, "name=")
		}
	}
	return
}

func walk(t reflect.Type) {
	name := typeName(t)
	if _, ok := messages[name]; ok {
		return
	}
	m := &message{Name: name}
	messages[name] = m
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		jsonTag, hasJSON := sf.Tag.Lookup("json")
		if jsonTag == "-" || (!sf.IsExported() && !sf.Anonymous) {
			continue
		}
		opts := strings.Split(jsonTag, ",")
		f := field{JSON: opts[0]}
		if !hasJSON || f.JSON == "" {
			f.JSON = sf.Name
		}
		inline := false
		for _, o := range opts[1:] {
			switch o {
			case "omitempty":
				f.OmitEmpty = true
			case "inline":
				inline = true
			case "omitzero":
				f.OmitZero = true
			case "string":
				problems = append(problems, fmt.Sprintf("%s.%s: json option %s not handled", name, sf.Name, o))
			}
		}
		if sf.Anonymous && (opts[0] == "") {
			inline = true
		}
		where := name + "." + sf.Name
		ptag, hasProto := sf.Tag.Lookup("protobuf")
		if !hasProto {
			if sf.Type == reflect.TypeOf(metav1.TypeMeta{}) && inline {
				m.Fields = append(m.Fields, field{Shape: "kTypeMeta", Kind: "kMessage", JSON: ""})
				continue
			}
			if ptag == "-" || strings.HasPrefix(sf.Tag.Get("protobuf"), "-") {
				continue
			}
			problems = append(problems, fmt.Sprintf("%s: no protobuf tag", where))
			continue
		}
		if ptag == "-" {
			continue
		}
		f.Wire, f.Number, _ = parseProtoTag(ptag)
		ft := sf.Type
		switch {
		case inline:
			if ft.Kind() != reflect.Struct {
				problems = append(problems, fmt.Sprintf("%s: inline non-struct", where))
				continue
			}
			f.Shape, f.Kind, f.JSON = "kInline", "kMessage", ""
			walk(ft)
			f.Message = typeName(ft)
		case ft.Kind() == reflect.Pointer:
			f.Shape = "kPointer"
			f.Kind, f.Message, f.Wrapped = scalarKind(ft.Elem(), where)
		case ft.Kind() == reflect.Map:
			f.Shape = "kMap"
			if ft.Key().Kind() != reflect.String {
				problems = append(problems, fmt.Sprintf("%s: map key %s", where, ft.Key()))
			}
			f.Kind = "kString"
			f.ValKind, f.ValMsg, f.Wrapped = scalarKind(ft.Elem(), where)
		case ft.Kind() == reflect.Slice && ft.Elem().Kind() != reflect.Uint8 && !(ft.Name() != "" && reflect.PointerTo(ft).Implements(protoMarshaler)):
			f.Shape = "kRepeated"
			et := ft.Elem()
			if et.Kind() == reflect.Pointer {
				problems = append(problems, fmt.Sprintf("%s: slice of pointers", where))
			}
			f.Kind, f.Message, f.Wrapped = scalarKind(et, where)
		default:
			f.Shape = "kSingle"
			f.Kind, f.Message, f.Wrapped = scalarKind(ft, where)
		}
		f.ElementTypeMeta = elementTypeMeta[where]
		if w := goWire(f); w != f.Wire {
			// Some tags are stale (core/v1 ServiceSpec.HealthCheckNodePort says bytes for an int32);
			// go-to-protobuf generates the encoding from the Go type, so that is what holds.
			notes = append(notes, fmt.Sprintf("%s: tag says %s, the Go type is encoded as %s", where, f.Wire, w))
			f.Wire = w
		}
		if f.OmitZero && !(f.Shape == "kSingle" && (f.Kind == "kTime" || f.Kind == "kMicroTime")) {
			problems = append(problems, fmt.Sprintf("%s: omitzero on a %s %s is not handled", where, f.Shape, f.Kind))
		}
		m.Fields = append(m.Fields, f)
	}
}

type kindEntry struct{ APIVersion, Kind, Message string }

func main() {
	out := flag.String("out", "", "write the C++ table to this file")
	verify := flag.String("verify", "", "compare the C++ table with this file; exit 1 if it differs")
	verbose := flag.Bool("v", false, "list the protobuf tags whose wire type differs from the Go type's")
	flag.Parse()

	var kinds []kindEntry
	add := func(gvk schema.GroupVersionKind, t reflect.Type) {
		if gvk.Version == runtime.APIVersionInternal || t.Kind() != reflect.Struct {
			return
		}
		walk(t)
		kinds = append(kinds, kindEntry{gvk.GroupVersion().String(), gvk.Kind, typeName(t)})
	}
	for gvk, t := range scheme.Scheme.AllKnownTypes() {
		add(gvk, t)
	}
	// The envelope and the watch framing.
	add(schema.GroupVersionKind{Version: "v1", Kind: "Status"}, reflect.TypeOf(metav1.Status{}))
	walk(reflect.TypeOf(runtime.Unknown{}))
	walk(reflect.TypeOf(metav1.WatchEvent{}))
	walk(reflect.TypeOf(metav1.List{}))

	seen := map[kindEntry]bool{}
	var uniq []kindEntry
	for _, k := range kinds {
		if !seen[k] {
			seen[k] = true
			uniq = append(uniq, k)
		}
	}
	kinds = uniq
	sort.Slice(kinds, func(i, j int) bool {
		if kinds[i].APIVersion != kinds[j].APIVersion {
			return kinds[i].APIVersion < kinds[j].APIVersion
		}
		return kinds[i].Kind < kinds[j].Kind
	})
	sort.Strings(problems)
	text := render(kinds)
	switch {
	case *verify != "":
		old, err := os.ReadFile(*verify)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		if !bytes.Equal(old, text) {
			fmt.Fprintf(os.Stderr, "%s is stale: run go run ./tools/proto-schema -out %s\n", *verify, *verify)
			os.Exit(1)
		}
	case *out != "":
		if err := os.WriteFile(*out, text, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	default:
		os.Stdout.Write(text)
	}
	sort.Strings(notes)
	for _, n := range notes {
		if !*verbose {
			break
		}
		fmt.Fprintln(os.Stderr, "note:", n)
	}
	for _, p := range problems {
		fmt.Fprintln(os.Stderr, "problem:", p)
	}
	if len(problems) > 0 {
		os.Exit(1)
	}
}
