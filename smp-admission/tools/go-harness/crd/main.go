// Command crdbench measures, with the upstream apiextensions-apiserver Go
// packages (as vendored, Kubernetes v1.34.1), what kube-apiserver does to
// admit one custom resource: building the per-version schema machinery from a
// CRD ("compile") and pruning/defaulting/validating an object against it.
//
// Usage: crdbench [-runs N] [-version v1] [-untimed-gc] [-test.benchtime D] crd.yaml instance.yaml
//
// The harness only calls upstream functions. Where kube-apiserver uses an
// unexported helper (unstructuredSchemaCoercer.apply in
// pkg/apiserver/customresource_handler.go), the harness repeats that helper's
// sequence of exported calls.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"runtime/debug"
	"sort"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apihelpers"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apiextensions-apiserver/pkg/crdserverscheme"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	sigsyaml "sigs.k8s.io/yaml"
)

type result struct {
	nsPerOp     float64
	allocsPerOp int64
	bytesPerOp  int64
	n           int
	minNs       float64
	maxNs       float64
}

// measure runs fn under testing.Benchmark `runs` times and returns the median
// by ns/op (allocs/bytes reported from the same run).
func measure(runs int, fn func(b *testing.B)) result {
	rs := make([]result, 0, runs)
	for i := 0; i < runs; i++ {
		br := testing.Benchmark(func(b *testing.B) {
			b.ReportAllocs()
			fn(b)
		})
		rs = append(rs, result{
			nsPerOp:     float64(br.T.Nanoseconds()) / float64(br.N),
			allocsPerOp: br.AllocsPerOp(),
			bytesPerOp:  br.AllocedBytesPerOp(),
			n:           br.N,
		})
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].nsPerOp < rs[j].nsPerOp })
	med := rs[len(rs)/2]
	med.minNs, med.maxNs = rs[0].nsPerOp, rs[len(rs)-1].nsPerOp
	return med
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

// firstDoc returns the first YAML document of a (possibly multi-document) file.
func firstDoc(data []byte) []byte {
	for _, sep := range [][]byte{[]byte("\n---\n"), []byte("\n---\r\n")} {
		if i := bytes.Index(data, sep); i >= 0 {
			// a leading "---" (document start) gives an empty first part
			if len(bytes.TrimSpace(stripComments(data[:i]))) == 0 {
				return firstDoc(data[i+len(sep):])
			}
			return data[:i]
		}
	}
	return data
}

func stripComments(b []byte) []byte {
	var out []byte
	for _, l := range bytes.Split(b, []byte("\n")) {
		if t := bytes.TrimSpace(l); len(t) > 0 && t[0] != '#' {
			out = append(out, l...)
		}
	}
	return out
}

// compiled is what kube-apiserver's crdHandler builds per served version.
type compiled struct {
	internal        *apiextensions.CustomResourceValidation
	structural      *structuralschema.Structural
	celValidator    *cel.Validator
	schemaValidator apiservervalidation.SchemaValidator
}

// Steps of getOrCreateServingInfoFor (pkg/apiserver/customresource_handler.go), for one version.
func convertSchema(crd *apiextensionsv1.CustomResourceDefinition, version string) *apiextensions.CustomResourceValidation {
	val, err := apihelpers.GetSchemaForVersion(crd, version)
	must(err)
	if val == nil {
		must(fmt.Errorf("version %q has no schema", version))
	}
	internal := &apiextensions.CustomResourceValidation{}
	must(apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(val, internal, nil))
	return internal
}

func buildStructural(internal *apiextensions.CustomResourceValidation) *structuralschema.Structural {
	s, err := structuralschema.NewStructural(internal.OpenAPIV3Schema)
	must(err)
	// as the handler does when !preserveUnknownFields
	s = s.DeepCopy()
	must(structuraldefaulting.PruneDefaults(s))
	return s
}

func buildSchemaValidator(internal *apiextensions.CustomResourceValidation) apiservervalidation.SchemaValidator {
	v, _, err := apiservervalidation.NewSchemaValidator(internal.OpenAPIV3Schema)
	must(err)
	return v
}

func compile(crd *apiextensionsv1.CustomResourceDefinition, version string) compiled {
	internal := convertSchema(crd, version)
	s := buildStructural(internal)
	return compiled{
		internal:        internal,
		structural:      s,
		celValidator:    cel.NewValidator(s, true, celconfig.PerCallLimit),
		schemaValidator: buildSchemaValidator(internal),
	}
}

// coerce repeats unstructuredSchemaCoercer.apply (customresource_handler.go) as
// configured for request decoding (dropInvalidMetadata=false,
// repairGeneration=false, preserveUnknownFields=false, no unknown-field
// tracking): save kind/apiVersion/metadata, prune at the resource root, drop
// non-nullable nulls, coerce embedded ObjectMeta, restore kind/apiVersion/metadata.
func coerce(obj map[string]interface{}, s *structuralschema.Structural, gk schema.GroupKind) error {
	kind, foundKind, err := unstructured.NestedString(obj, "kind")
	if err != nil {
		return err
	}
	apiVersion, foundAPIVersion, err := unstructured.NestedString(obj, "apiVersion")
	if err != nil {
		return err
	}
	objectMeta, foundObjectMeta, _, err := schemaobjectmeta.GetObjectMetaWithOptions(obj, schemaobjectmeta.ObjectMetaOptions{})
	if err != nil {
		return err
	}
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return err
	}
	if gv.Group == gk.Group && kind == gk.Kind {
		structuralpruning.Prune(obj, s, true)
		structuraldefaulting.PruneNonNullableNullsWithoutDefaults(obj, s)
		if ferr, _ := schemaobjectmeta.CoerceWithOptions(nil, obj, s, false, schemaobjectmeta.CoerceOptions{}); ferr != nil {
			return ferr
		}
	}
	u := unstructured.Unstructured{Object: obj}
	if foundKind {
		u.SetKind(kind)
	}
	if foundAPIVersion {
		u.SetAPIVersion(apiVersion)
	}
	if foundObjectMeta {
		if err := schemaobjectmeta.SetObjectMeta(obj, objectMeta); err != nil {
			return err
		}
	}
	return nil
}

// pruneDefault = decoder coercion + unstructuredDefaulter.Default.
func pruneDefault(obj map[string]interface{}, c *compiled, gk schema.GroupKind) {
	must(coerce(obj, c.structural, gk))
	structuraldefaulting.Default(obj, c.structural)
}

func validateSchema(obj map[string]interface{}, c *compiled) field.ErrorList {
	return apiservervalidation.ValidateCustomResource(nil, obj, c.schemaValidator)
}

func validateCEL(ctx context.Context, obj map[string]interface{}, c *compiled) field.ErrorList {
	if c.celValidator == nil {
		return nil
	}
	errs, _ := c.celValidator.Validate(ctx, nil, c.structural, obj, nil, celconfig.RuntimeCELCostBudget)
	return errs
}

// untimedGC: when set, the collector runs (untimed) between batches and is
// switched off (debug.SetGCPercent(-1)) while a batch is timed. Otherwise the
// Go GC runs whenever it wants, inside timed sections too.
var (
	untimedGC bool
	gcPercent = 100
)

// batched runs fn b.N times, in batches of at most `batch` calls; mk makes
// each call's input (e.g. a fresh deep copy) with the timer stopped, so
// neither copying nor StopTimer/StartTimer overhead is timed.
func batched(b *testing.B, batch int, mk func() map[string]interface{}, fn func(map[string]interface{})) {
	objs := make([]map[string]interface{}, batch)
	b.StopTimer()
	for done := 0; done < b.N; {
		k := b.N - done
		if k > batch {
			k = batch
		}
		for j := 0; j < k; j++ {
			objs[j] = mk()
		}
		if untimedGC {
			runtime.GC()
			debug.SetGCPercent(-1)
		}
		b.StartTimer()
		for j := 0; j < k; j++ {
			fn(objs[j])
		}
		b.StopTimer()
		if untimedGC {
			debug.SetGCPercent(gcPercent)
		}
		for j := 0; j < k; j++ {
			objs[j] = nil
		}
		done += k
	}
}

const (
	objBatch     = 256
	compileBatch = 4
)

func printErrs(label string, errs field.ErrorList) {
	fmt.Printf("%s: %d errors\n", label, len(errs))
	for _, e := range errs {
		fmt.Printf("    %v\n", e)
	}
}

func main() {
	testing.Init() // registers -test.benchtime etc.
	runs := flag.Int("runs", 5, "repetitions of each benchmark (median is reported)")
	version := flag.String("version", "v1", "CRD version to use")
	flag.BoolVar(&untimedGC, "untimed-gc", false, "collect garbage between batches, untimed, and disable GC while timing")
	flag.Parse()
	if flag.NArg() != 2 {
		fmt.Fprintln(os.Stderr, "usage: crdbench [-runs N] [-version v1] [-test.benchtime D] crd.yaml instance.yaml")
		os.Exit(2)
	}
	gcPercent = debug.SetGCPercent(100)
	debug.SetGCPercent(gcPercent)
	fmt.Printf("go %s, GOMAXPROCS=%d, GOGC=%d, untimed-gc=%v, runs=%d (median by ns/op)\n",
		runtime.Version(), runtime.GOMAXPROCS(0), gcPercent, untimedGC, *runs)

	// --- CRD ---
	crdData, err := os.ReadFile(flag.Arg(0))
	must(err)
	crd := &apiextensionsv1.CustomResourceDefinition{}
	must(sigsyaml.Unmarshal(firstDoc(crdData), crd))
	gk := schema.GroupKind{Group: crd.Spec.Group, Kind: crd.Spec.Names.Kind}
	gvk := gk.WithVersion(*version)
	nrules := 0
	var countRules func(s *apiextensionsv1.JSONSchemaProps)
	countRules = func(s *apiextensionsv1.JSONSchemaProps) {
		if s == nil {
			return
		}
		nrules += len(s.XValidations)
		for _, p := range s.Properties {
			countRules(&p)
		}
		if s.Items != nil {
			countRules(s.Items.Schema)
			for i := range s.Items.JSONSchemas {
				countRules(&s.Items.JSONSchemas[i])
			}
		}
		if s.AdditionalProperties != nil {
			countRules(s.AdditionalProperties.Schema)
		}
		for i := range s.AllOf {
			countRules(&s.AllOf[i])
		}
		for i := range s.AnyOf {
			countRules(&s.AnyOf[i])
		}
		for i := range s.OneOf {
			countRules(&s.OneOf[i])
		}
	}
	v1schema, err := apihelpers.GetSchemaForVersion(crd, *version)
	must(err)
	countRules(v1schema.OpenAPIV3Schema)
	fmt.Printf("CRD %s (%d bytes), version %s: %d x-kubernetes-validations rules, preserveUnknownFields=%v\n",
		crd.Name, len(crdData), *version, nrules, crd.Spec.PreserveUnknownFields)

	c := compile(crd, *version)
	if c.celValidator == nil {
		fmt.Println("note: cel.NewValidator returned nil (no rules)")
	}

	// --- instance ---
	instData, err := os.ReadFile(flag.Arg(1))
	must(err)
	instJSON, err := sigsyaml.YAMLToJSON(firstDoc(instData))
	must(err)
	u := &unstructured.Unstructured{}
	// same JSON -> unstructured path as the apiserver's unstructured decoding (int64 / float64 numbers)
	must(u.UnmarshalJSON(instJSON))
	_, hadStatus := u.Object["status"]
	unstructured.RemoveNestedField(u.Object, "status")
	base := u.Object
	fmt.Printf("instance %s/%s %s: %d JSON bytes (status present: %v, removed)\n",
		u.GetNamespace(), u.GetName(), u.GroupVersionKind(), len(instJSON), hadStatus)

	ctx := context.Background()

	// --- one-off correctness check ---
	checked := kruntime.DeepCopyJSON(base)
	pruneDefault(checked, &c, gk)
	if reflect.DeepEqual(checked, base) {
		fmt.Println("prune+default: object unchanged (nothing pruned, no defaults applied)")
	} else {
		fmt.Println("prune+default: object changed (fields pruned and/or defaults applied)")
	}
	pruned := kruntime.DeepCopyJSON(base)
	must(coerce(pruned, c.structural, gk))
	if !reflect.DeepEqual(pruned, base) {
		fmt.Println("  prune alone changed the object (unknown fields were dropped)")
	}
	printErrs("validate schema (ValidateCustomResource)", validateSchema(checked, &c))
	printErrs("validate CEL (cel.Validator.Validate)", validateCEL(ctx, checked, &c))
	snapshot := kruntime.DeepCopyJSON(checked)

	// The server's full create validation, through the real strategy (extra rows).
	statusV1 := (*apiextensionsv1.CustomResourceSubresourceStatus)(nil)
	if sr, _ := apihelpers.GetSubresourcesForVersion(crd, *version); sr != nil {
		statusV1 = sr.Status
	}
	var statusSpec *apiextensions.CustomResourceSubresourceStatus
	var statusValidator apiservervalidation.SchemaValidator
	if statusV1 != nil {
		statusSpec = &apiextensions.CustomResourceSubresourceStatus{}
		must(apiextensionsv1.Convert_v1_CustomResourceSubresourceStatus_To_apiextensions_CustomResourceSubresourceStatus(statusV1, statusSpec, nil))
		if st, ok := c.internal.OpenAPIV3Schema.Properties["status"]; ok {
			statusValidator, _, err = apiservervalidation.NewSchemaValidator(&st)
			must(err)
		}
	}
	strategy := customresource.NewStrategy(crdserverscheme.NewUnstructuredObjectTyper(),
		crd.Spec.Scope == apiextensionsv1.NamespaceScoped, gvk, c.schemaValidator, statusValidator,
		c.structural, statusSpec, nil, nil)
	printErrs("strategy.Validate (full server create validation)", strategy.Validate(ctx, &unstructured.Unstructured{Object: checked}))
	if !reflect.DeepEqual(snapshot, checked) {
		fmt.Println("WARNING: validation mutated the object")
	}
	type row struct {
		name string
		r    result
	}
	var rows []row
	add := func(name string, fn func(b *testing.B)) {
		r := measure(*runs, fn)
		rows = append(rows, row{name, r})
		fmt.Fprintf(os.Stderr, "  %-58s %12.0f ns/op %8d allocs/op %10d B/op\n", name, r.nsPerOp, r.allocsPerOp, r.bytesPerOp)
	}

	none := func() map[string]interface{} { return nil }
	fresh := func() map[string]interface{} { return kruntime.DeepCopyJSON(base) }
	freshPruned := func() map[string]interface{} {
		o := kruntime.DeepCopyJSON(base)
		must(coerce(o, c.structural, gk))
		return o
	}
	// validation is read-only (checked above), so one prepared object is reused
	shared := func() map[string]interface{} { return checked }

	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Printf("live heap before timing: %.1f MiB\n\n", float64(ms.HeapAlloc)/(1<<20))

	// --- compile ---
	add("compile", func(b *testing.B) {
		batched(b, compileBatch, none, func(map[string]interface{}) { _ = compile(crd, *version) })
	})
	add("  compile: convert v1->internal schema", func(b *testing.B) {
		batched(b, objBatch, none, func(map[string]interface{}) { _ = convertSchema(crd, *version) })
	})
	add("  compile: NewStructural+DeepCopy+PruneDefaults", func(b *testing.B) {
		batched(b, objBatch, none, func(map[string]interface{}) { _ = buildStructural(c.internal) })
	})
	add("  compile: cel.NewValidator", func(b *testing.B) {
		batched(b, compileBatch, none, func(map[string]interface{}) {
			_ = cel.NewValidator(c.structural, true, celconfig.PerCallLimit)
		})
	})
	add("  compile: NewSchemaValidator", func(b *testing.B) {
		batched(b, objBatch, none, func(map[string]interface{}) { _ = buildSchemaValidator(c.internal) })
	})

	// --- per object ---
	add("prune+default", func(b *testing.B) {
		batched(b, objBatch, fresh, func(o map[string]interface{}) { pruneDefault(o, &c, gk) })
	})
	add("  prune only (coercer: meta save/Prune/PruneNulls/Coerce/restore)", func(b *testing.B) {
		batched(b, objBatch, fresh, func(o map[string]interface{}) { must(coerce(o, c.structural, gk)) })
	})
	add("  default only (on pruned copies)", func(b *testing.B) {
		batched(b, objBatch, freshPruned, func(o map[string]interface{}) { structuraldefaulting.Default(o, c.structural) })
	})
	add("validate schema", func(b *testing.B) {
		batched(b, objBatch, shared, func(o map[string]interface{}) { _ = validateSchema(o, &c) })
	})
	add("validate CEL", func(b *testing.B) {
		batched(b, objBatch, shared, func(o map[string]interface{}) { _ = validateCEL(ctx, o, &c) })
	})
	add("admit (prune+default+schema+CEL)", func(b *testing.B) {
		batched(b, objBatch, fresh, func(o map[string]interface{}) {
			pruneDefault(o, &c, gk)
			_ = validateSchema(o, &c)
			_ = validateCEL(ctx, o, &c)
		})
	})
	add("extra: strategy.Validate (meta+schema+embedded+listtype+CEL)", func(b *testing.B) {
		batched(b, objBatch, shared, func(o map[string]interface{}) {
			_ = strategy.Validate(ctx, &unstructured.Unstructured{Object: o})
		})
	})
	add("extra: admit via strategy (prune+default+PrepareForCreate+Validate)", func(b *testing.B) {
		batched(b, objBatch, fresh, func(o map[string]interface{}) {
			pruneDefault(o, &c, gk)
			uo := &unstructured.Unstructured{Object: o}
			strategy.PrepareForCreate(ctx, uo)
			_ = strategy.Validate(ctx, uo)
		})
	})

	fmt.Println("| row | ns/op (median) | µs/op | min–max µs/op | iters (median run) | allocs/op | B/op |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|")
	for _, r := range rows {
		fmt.Printf("| %s | %.0f | %.1f | %.1f–%.1f | %d | %d | %d |\n", r.name, r.r.nsPerOp, r.r.nsPerOp/1e3,
			r.r.minNs/1e3, r.r.maxNs/1e3, r.r.n, r.r.allocsPerOp, r.r.bytesPerOp)
	}
}
