package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	codegenrpc "github.com/pulumi/pulumi/sdk/v3/proto/go/codegen"
	"google.golang.org/protobuf/types/known/structpb"
	"pulumi-mediahost.local/toolchain/hostkit/hostkittest"
)

// toySchema is a provider package like the ones the engine's loader hands out: its Node.js SDK is
// an npm package with a name of its own, which the generated import must use.
const toySchema = `{
  "name": "toy",
  "version": "1.2.3",
  "language": { "nodejs": { "packageName": "@example/toy" } },
  "resources": {
    "toy:index:Widget": {
      "inputProperties": {
        "name": { "type": "string" },
        "size": { "type": "integer" },
        "tags": { "type": "array", "items": { "type": "string" } }
      },
      "requiredInputs": ["name"],
      "properties": {
        "name": { "type": "string" },
        "size": { "type": "integer" },
        "tags": { "type": "array", "items": { "type": "string" } }
      },
      "required": ["name"]
    }
  }
}`

// What `pulumi import --generate-code` sends for one imported resource, protected.
const importedPCL = `resource myWidget "toy:index:Widget" {
    __logicalName = "my-widget"
    name = "hello"
    size = 3
    tags = ["a", "b"]
    options {
        protect = true
    }
}
`

func TestGenerateProgramWritesTypeScriptThroughTheEnginesLoader(t *testing.T) {
	loader := hostkittest.NewSpecLoader(t, toySchema)
	resp, err := newLanguageHost("", "").GenerateProgram(context.Background(), &pulumirpc.GenerateProgramRequest{
		Source:       map[string]string{"main.pp": importedPCL},
		LoaderTarget: hostkittest.ServeLoader(t, loader),
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range resp.GetDiagnostics() {
		if d.GetSeverity() == codegenrpc.DiagnosticSeverity_DIAG_ERROR {
			t.Fatalf("error diagnostic: %s: %s", d.GetSummary(), d.GetDetail())
		}
	}
	if loader.Requests["toy"] == 0 {
		t.Fatal("the toy schema was never asked of the loader")
	}
	ts := string(resp.GetSource()["index.ts"])
	for _, want := range []string{
		`import * as toy from "@example/toy";`,
		`new toy.Widget("my-widget", {`,
		`name: "hello",`,
		`size: 3,`,
		`"a",`,
		`protect: true,`,
	} {
		if !strings.Contains(ts, want) {
			t.Errorf("index.ts lacks %q:\n%s", want, ts)
		}
	}
	if len(resp.GetSource()) != 1 {
		t.Errorf("expected only index.ts, got %d files", len(resp.GetSource()))
	}
}

func TestGenerateProgramReportsBindAndParseErrorsAsDiagnostics(t *testing.T) {
	target := hostkittest.ServeLoader(t, hostkittest.NewSpecLoader(t, toySchema))
	cases := map[string]string{
		"unknown property": `resource w "toy:index:Widget" {
    name = "x"
    colour = "red"
}
`,
		"unknown resource type": `resource w "toy:index:Gadget" {
    name = "x"
}
`,
		"syntax error": `resource w "toy:index:Widget" {
    name = 
`,
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			resp, err := newLanguageHost("", "").GenerateProgram(context.Background(), &pulumirpc.GenerateProgramRequest{
				Source:       map[string]string{"main.pp": src},
				LoaderTarget: target,
				Strict:       true,
			})
			if err != nil {
				t.Fatalf("expected diagnostics, got error %v", err)
			}
			hasError := false
			for _, d := range resp.GetDiagnostics() {
				hasError = hasError || d.GetSeverity() == codegenrpc.DiagnosticSeverity_DIAG_ERROR
			}
			if !hasError {
				t.Fatalf("no error diagnostic; diagnostics %v", resp.GetDiagnostics())
			}
			if len(resp.GetSource()) != 0 {
				t.Fatalf("no source expected with errors, got %v", resp.GetSource())
			}
		})
	}
}

func TestGenerateProjectWritesARunnableTypeScriptProject(t *testing.T) {
	src, out := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(src, "main.pp"), []byte(importedPCL+`
output widgetName {
    value = myWidget.name
}
`), 0o600); err != nil {
		t.Fatal(err)
	}
	resp, err := newLanguageHost("", "").GenerateProject(context.Background(), &pulumirpc.GenerateProjectRequest{
		SourceDirectory: src,
		TargetDirectory: out,
		Project:         `{"name":"converted","runtime":"yaml"}`,
		LoaderTarget:    hostkittest.ServeLoader(t, hostkittest.NewSpecLoader(t, toySchema)),
		Strict:          true,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range resp.GetDiagnostics() {
		if d.GetSeverity() == codegenrpc.DiagnosticSeverity_DIAG_ERROR {
			t.Fatalf("error diagnostic: %s: %s", d.GetSummary(), d.GetDetail())
		}
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if y := read("Pulumi.yaml"); !strings.Contains(y, "name: converted") || !strings.Contains(y, "runtime: nodejs") {
		t.Errorf("Pulumi.yaml:\n%s", y)
	}
	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	if err := json.Unmarshal([]byte(read("package.json")), &pkg); err != nil {
		t.Fatal(err)
	}
	if pkg.Dependencies["@pulumi/pulumi"] == "" || pkg.Dependencies["@example/toy"] == "" {
		t.Errorf("package.json dependencies %v", pkg.Dependencies)
	}
	if ts := read("index.ts"); !strings.Contains(ts, `new toy.Widget("my-widget"`) ||
		!strings.Contains(ts, "export const widgetName = myWidget.name;") {
		t.Errorf("index.ts:\n%s", ts)
	}
	read("tsconfig.json")
}

func TestLinkWithNothingToLinkSaysHowToImport(t *testing.T) {
	// `pulumi convert` calls Link even when no SDK was generated: that must not fail.
	resp, err := newLanguageHost("", "").Link(context.Background(), &pulumirpc.LinkRequest{
		Info: &pulumirpc.ProgramInfo{ProgramDirectory: t.TempDir()},
	})
	if err != nil {
		t.Fatal(err)
	}
	if resp.GetImportInstructions() != "You can import the SDK in your TypeScript code with:\n\n" {
		t.Fatalf("instructions %q", resp.GetImportInstructions())
	}
}

func TestLinkAddsTheSDKAsAFileDependency(t *testing.T) {
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm is not on PATH")
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"package.json": `{"name":"prog","main":"index.js"}`})
	opts, _ := structpb.NewStruct(map[string]any{"typescript": false})
	sdkDir := filepath.Join(dir, "sdks", "toy")
	resp, err := newLanguageHost("", "").Link(context.Background(), &pulumirpc.LinkRequest{
		Info:         &pulumirpc.ProgramInfo{ProgramDirectory: dir, RootDirectory: dir, EntryPoint: ".", Options: opts},
		LoaderTarget: hostkittest.ServeLoader(t, hostkittest.NewSpecLoader(t, toySchema)),
		Packages: []*pulumirpc.LinkRequest_LinkDependency{
			{Path: sdkDir, Package: &pulumirpc.PackageDependency{Name: "toy", Kind: "resource", Version: "1.2.3"}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(resp.GetImportInstructions(), `const toy = require("@example/toy");`) {
		t.Fatalf("instructions %q", resp.GetImportInstructions())
	}
	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &pkg); err != nil {
		t.Fatal(err)
	}
	if pkg.Dependencies["@example/toy"] != "file:"+sdkDir {
		t.Fatalf("package.json %s", b)
	}
}
