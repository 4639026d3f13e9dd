// A stand-in for `helm template`, which cannot be installed here: it renders a chart's templates the way Helm
// does (Go text/template with the sprig functions Helm ships, plus include, tpl, toYaml, fromYaml, required and
// fail), with the chart's values.yaml deep-merged under the overrides read as YAML from standard input. Built from
// Debian's golang-go and golang-github-masterminds-sprig-dev, offline (GOPATH mode).
//
//	go run main.go <chart dir> <release name> <namespace> < overrides.yaml
package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/template"

	"github.com/Masterminds/sprig"
	"gopkg.in/yaml.v3"
)

func merge(dst, src map[string]interface{}) map[string]interface{} {
	for k, v := range src {
		if sv, ok := v.(map[string]interface{}); ok {
			if dv, ok := dst[k].(map[string]interface{}); ok {
				dst[k] = merge(dv, sv)
				continue
			}
		}
		dst[k] = v
	}
	return dst
}

func readYaml(r io.Reader) map[string]interface{} {
	out := map[string]interface{}{}
	if err := yaml.NewDecoder(r).Decode(&out); err != nil && !errors.Is(err, io.EOF) {
		fail(err)
	}
	return out
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "Error:", err)
	os.Exit(1)
}

func main() {
	chart, release, namespace := os.Args[1], os.Args[2], os.Args[3]
	meta := readYaml(must(os.Open(filepath.Join(chart, "Chart.yaml"))))
	values := merge(readYaml(must(os.Open(filepath.Join(chart, "values.yaml")))), readYaml(os.Stdin))

	root := template.New("chart")
	funcs := sprig.TxtFuncMap()
	funcs["include"] = func(name string, data interface{}) (string, error) {
		var b bytes.Buffer
		err := root.ExecuteTemplate(&b, name, data)
		return b.String(), err
	}
	funcs["tpl"] = func(text string, data interface{}) (string, error) {
		t, err := root.Clone()
		if err != nil {
			return "", err
		}
		t, err = t.New("tpl").Parse(text)
		if err != nil {
			return "", err
		}
		var b bytes.Buffer
		err = t.Execute(&b, data)
		return b.String(), err
	}
	funcs["toYaml"] = func(v interface{}) string {
		var b bytes.Buffer
		enc := yaml.NewEncoder(&b)
		enc.SetIndent(2)
		if err := enc.Encode(v); err != nil {
			return ""
		}
		return strings.TrimSuffix(b.String(), "\n")
	}
	funcs["fromYaml"] = func(s string) map[string]interface{} { return readYaml(strings.NewReader(s)) }
	funcs["required"] = func(msg string, v interface{}) (interface{}, error) {
		if v == nil || v == "" {
			return nil, errors.New(msg)
		}
		return v, nil
	}
	funcs["fail"] = func(msg string) (string, error) { return "", errors.New(msg) }
	root.Funcs(funcs).Option("missingkey=zero")

	files, _ := filepath.Glob(filepath.Join(chart, "templates", "*"))
	sort.Strings(files)
	for _, f := range files {
		template.Must(root.New(filepath.Base(f)).Parse(string(must(os.ReadFile(f)))))
	}
	data := map[string]interface{}{
		"Values":  values,
		"Chart":   map[string]interface{}{"Name": meta["name"], "Version": meta["version"], "AppVersion": meta["appVersion"]},
		"Release": map[string]interface{}{"Name": release, "Namespace": namespace, "Service": "Helm", "IsInstall": true},
	}
	for _, f := range files {
		name := filepath.Base(f)
		if strings.HasPrefix(name, "_") || !(strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml")) {
			continue
		}
		var b bytes.Buffer
		if err := root.ExecuteTemplate(&b, name, data); err != nil {
			fail(err)
		}
		if strings.TrimSpace(b.String()) != "" {
			fmt.Printf("---\n# Source: %s/templates/%s\n%s\n", meta["name"], name, strings.TrimSpace(b.String()))
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		fail(err)
	}
	return v
}
