// Command smpbench measures the cost of defaulting and validating a Pod with
// the upstream Kubernetes Go packages (as vendored), for comparison with a
// Rust reimplementation.
//
// Usage: smpbench [-runs N] [-benchtime D] pod.json [pod.json ...]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	podutil "k8s.io/kubernetes/pkg/api/pod"
	"k8s.io/kubernetes/pkg/apis/core"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	"k8s.io/kubernetes/pkg/apis/core/validation"
	sigsjson "sigs.k8s.io/json"
)

type result struct {
	nsPerOp     float64
	allocsPerOp int64
	bytesPerOp  int64
	n           int
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
	return rs[len(rs)/2]
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

func decodeStd(data []byte) *corev1.Pod {
	pod := &corev1.Pod{}
	must(json.Unmarshal(data, pod))
	return pod
}

func decodeSigs(data []byte) *corev1.Pod {
	pod := &corev1.Pod{}
	must(sigsjson.UnmarshalCaseSensitivePreserveInts(data, pod))
	return pod
}

func toInternal(v1pod *corev1.Pod) *core.Pod {
	pod := &core.Pod{}
	must(legacyscheme.Scheme.Convert(v1pod, pod, nil))
	return pod
}

func optsFor(pod *core.Pod) validation.PodValidationOptions {
	return podutil.GetValidationOptionsFromPodSpecAndMeta(&pod.Spec, nil, &pod.ObjectMeta, nil)
}

// withFresh runs fn b.N times, each time on a freshly decoded (not yet
// defaulted) Pod. Pods are decoded in batches with the timer stopped so that
// neither decoding nor the StopTimer/StartTimer overhead dominates.
func withFresh(b *testing.B, data []byte, fn func(*corev1.Pod)) {
	const batch = 256
	pods := make([]*corev1.Pod, batch)
	b.StopTimer()
	for done := 0; done < b.N; {
		k := b.N - done
		if k > batch {
			k = batch
		}
		for j := 0; j < k; j++ {
			pods[j] = decodeSigs(data)
		}
		b.StartTimer()
		for j := 0; j < k; j++ {
			fn(pods[j])
		}
		b.StopTimer()
		done += k
	}
}

func templatePath() *field.Path { return field.NewPath("spec", "template") }

func main() {
	testing.Init() // registers -test.benchtime etc.
	runs := flag.Int("runs", 5, "repetitions of each benchmark (median is reported)")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: smpbench [-runs N] [-test.benchtime D] pod.json ...")
		os.Exit(2)
	}
	fmt.Printf("go %s, GOMAXPROCS=%d, runs=%d (median by ns/op)\n\n", runtime.Version(), runtime.GOMAXPROCS(0), *runs)

	type row struct {
		file, name string
		r          result
	}
	var rows []row

	for _, path := range flag.Args() {
		data, err := os.ReadFile(path)
		must(err)
		file := filepath.Base(path)

		// One-off correctness check: default, convert, validate, and print errors.
		v1pod := decodeSigs(data)
		legacyscheme.Scheme.Default(v1pod)
		pod := toInternal(v1pod)
		opts := optsFor(pod)
		errs := validation.ValidatePodCreate(pod, opts)
		fmt.Printf("%s: %d bytes, %d containers, ValidatePodCreate errors: %d\n", file, len(data), len(pod.Spec.Containers), len(errs))
		for _, e := range errs {
			fmt.Printf("    %v\n", e)
		}
		tmpl := &core.PodTemplateSpec{ObjectMeta: pod.ObjectMeta, Spec: pod.Spec}
		terrs := validation.ValidatePodTemplateSpec(tmpl, templatePath(), opts)
		fmt.Printf("%s: ValidatePodTemplateSpec errors: %d\n", file, len(terrs))
		for _, e := range terrs {
			fmt.Printf("    %v\n", e)
		}

		add := func(name string, fn func(b *testing.B)) {
			r := measure(*runs, fn)
			rows = append(rows, row{file, name, r})
			fmt.Fprintf(os.Stderr, "  %-10s %-34s %12.0f ns/op %8d allocs/op\n", file, name, r.nsPerOp, r.allocsPerOp)
		}

		add("unmarshal (encoding/json)", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				_ = decodeStd(data)
			}
		})
		add("unmarshal (sigs.k8s.io/json)", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				_ = decodeSigs(data)
			}
		})
		add("unmarshal(encoding/json)+default", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				p := decodeStd(data)
				legacyscheme.Scheme.Default(p)
			}
		})
		add("unmarshal(sigs)+default", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				p := decodeSigs(data)
				legacyscheme.Scheme.Default(p)
			}
		})
		add("convert v1->internal", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				_ = toInternal(v1pod)
			}
		})
		add("validation options", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				_ = optsFor(pod)
			}
		})
		add("ValidatePodCreate", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				_ = validation.ValidatePodCreate(pod, opts)
			}
		})
		add("ValidatePodTemplateSpec", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				_ = validation.ValidatePodTemplateSpec(tmpl, templatePath(), opts)
			}
		})
		add("e2e: unmarshal(sigs)+default+conv+opts+validate", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				p := decodeSigs(data)
				legacyscheme.Scheme.Default(p)
				ip := toInternal(p)
				_ = validation.ValidatePodCreate(ip, optsFor(ip))
			}
		})
		add("default only (fresh decoded pods)", func(b *testing.B) {
			withFresh(b, data, func(p *corev1.Pod) {
				legacyscheme.Scheme.Default(p)
			})
		})
		add("default+conv+opts+validate (fresh decoded pods)", func(b *testing.B) {
			withFresh(b, data, func(p *corev1.Pod) {
				legacyscheme.Scheme.Default(p)
				ip := toInternal(p)
				_ = validation.ValidatePodCreate(ip, optsFor(ip))
			})
		})
	}

	fmt.Println()
	fmt.Println("| file | step | ns/op | µs/op | allocs/op | B/op |")
	fmt.Println("|---|---|---:|---:|---:|---:|")
	for _, r := range rows {
		fmt.Printf("| %s | %s | %.0f | %.1f | %d | %d |\n", r.file, r.name, r.r.nsPerOp, r.r.nsPerOp/1e3, r.r.allocsPerOp, r.r.bytesPerOp)
	}
}
