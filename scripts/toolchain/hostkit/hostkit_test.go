package hostkit

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	codegenrpc "github.com/pulumi/pulumi/sdk/v3/proto/go/codegen"
	"pulumi-mediahost.local/toolchain/hostkit/hostkittest"
)

func TestParseCommand(t *testing.T) {
	valued := func(name string) bool { return name == "tracing" || name == "root" }
	var flags []Flag
	collect := func(f Flag) error { flags = append(flags, f); return nil }
	cmd, err := ParseCommand(
		[]string{"--logtostderr", "-v=9", "--tracing", "http://t", "-root=/p", "127.0.0.1:1234", "--", "-x"}, valued, collect)
	if err != nil || cmd != (Command{EngineAddr: "127.0.0.1:1234"}) {
		t.Fatalf("%+v, %v", cmd, err)
	}
	want := []Flag{{"logtostderr", "", false}, {"v", "9", true}, {"tracing", "http://t", true}, {"root", "/p", true}}
	if len(flags) != len(want) {
		t.Fatalf("flags %+v, want %+v", flags, want)
	}
	for i := range want {
		if flags[i] != want[i] {
			t.Errorf("flag %d: %+v, want %+v", i, flags[i], want[i])
		}
	}
	for args, want := range map[string]bool{"-version": true, "--version=true": true, "-version=false": false} {
		if cmd, _ := ParseCommand([]string{args}, valued, collect); cmd.ShowVersion != want {
			t.Errorf("%s: ShowVersion %v", args, cmd.ShowVersion)
		}
	}
	_, err = ParseCommand([]string{"-tracing"}, valued, collect)
	if err == nil || err.Error() != "flag -tracing needs a value" {
		t.Errorf("a valued flag at the end: %v", err)
	}
	refuse := func(f Flag) error { return errors.New("refused " + f.Name) }
	if _, err := ParseCommand([]string{"-runtime=java"}, valued, refuse); err == nil || err.Error() != "refused runtime" {
		t.Errorf("onFlag's error: %v", err)
	}
}

func TestWriteSDKFilesStaysInsideTheDirectory(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"../escape.ts", "/abs.ts", "a/../../escape.ts", "."} {
		if err := WriteSDKFiles(dir, map[string][]byte{name: []byte("x")}); err == nil {
			t.Errorf("%q was accepted", name)
		}
	}
	if err := WriteSDKFiles(dir, map[string][]byte{"a/b/c.ts": []byte("x"), "d.ts": []byte("y")}); err != nil {
		t.Fatal(err)
	}
	if got := hostkittest.FilesUnder(t, dir); strings.Join(got, ",") != "a/b/c.ts,d.ts" {
		t.Fatalf("files %v", got)
	}
}

// sdkOnly serves an SDK-only host whose generator writes one file naming the package, with one
// warning, through the engine's loader as GeneratePackage gets it.
func sdkOnly(t *testing.T) pulumirpc.LanguageRuntimeClient {
	gen := func(
		_ context.Context, pkg *schema.Package, _ *pulumirpc.GeneratePackageRequest, _ schema.ReferenceLoader,
	) (map[string][]byte, hcl.Diagnostics, error) {
		if pkg.Name == "fails" {
			return nil, nil, errors.New("the generator failed")
		}
		warning := &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "a warning of the generator's"}
		return map[string][]byte{"sdk/" + pkg.Name + ".txt": []byte(pkg.Name)}, hcl.Diagnostics{warning}, nil
	}
	h := NewSDKOnlyHost("toy", "1.2.3", "", func(
		ctx context.Context, req *pulumirpc.GeneratePackageRequest,
	) (*pulumirpc.GeneratePackageResponse, error) {
		return GeneratePackage(ctx, req, gen)
	})
	return hostkittest.Client(t, h, h.ServerOptions()...)
}

func TestGeneratePackageWritesWhatTheGeneratorReturnsWithItsWarnings(t *testing.T) {
	dir := t.TempDir()
	resp, err := sdkOnly(t).GeneratePackage(context.Background(), &pulumirpc.GeneratePackageRequest{
		Directory:    dir,
		Schema:       hostkittest.MediahostSchema(t),
		LoaderTarget: hostkittest.ServeLoader(t, hostkittest.NewSpecLoader(t)),
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := hostkittest.FilesUnder(t, dir); strings.Join(got, ",") != "sdk/mediahost.txt" {
		t.Errorf("files %v", got)
	}
	diags := resp.GetDiagnostics()
	if len(diags) != 1 || diags[0].GetSeverity() != codegenrpc.DiagnosticSeverity_DIAG_WARNING ||
		diags[0].GetSummary() != "a warning of the generator's" {
		t.Errorf("diagnostics %v", diags)
	}
}

func TestGeneratePackageReturnsSchemaErrorsAsDiagnostics(t *testing.T) {
	hostkittest.RequireSchemaErrorsAsDiagnostics(t, sdkOnly(t))
}

func TestGeneratePackageFailsWithTheGeneratorAndWithoutWhatItNeeds(t *testing.T) {
	client := sdkOnly(t)
	dir := t.TempDir()
	_, err := client.GeneratePackage(context.Background(), &pulumirpc.GeneratePackageRequest{
		Directory: dir, Schema: `{"name": "fails", "version": "1.0.0"}`,
		LoaderTarget: hostkittest.ServeLoader(t, hostkittest.NewSpecLoader(t)),
	})
	if err == nil || !strings.Contains(err.Error(), "the generator failed") {
		t.Fatalf("expected the generator's error, got %v", err)
	}
	if files := hostkittest.FilesUnder(t, dir); len(files) != 0 {
		t.Fatalf("nothing should be written, got %v", files)
	}
	schema := hostkittest.MediahostSchema(t)
	lacking := []*pulumirpc.GeneratePackageRequest{{Schema: schema, LoaderTarget: "127.0.0.1:1"}, {Directory: dir}}
	for _, req := range lacking {
		_, err := client.GeneratePackage(context.Background(), req)
		if err == nil || !strings.Contains(err.Error(), "needs") {
			t.Errorf("%v: expected an error saying what the request lacks, got %v", req, err)
		}
	}
}

func TestSDKOnlyHostServesPluginInfoAndHandshakeAndRefusesTheRest(t *testing.T) {
	hostkittest.RequireSDKOnly(t, sdkOnly(t), "toy", "1.2.3")
}
