// Package hostkittest holds what the language hosts' tests share: serving a host over gRPC as the
// engine talks to it, a schema loader like the engine's, the e2e tests' schema, and the checks every
// SDK-only host must pass.
package hostkittest

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	codegenrpc "github.com/pulumi/pulumi/sdk/v3/proto/go/codegen"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
)

// mediahostSchemaPath is the e2e tests' schema, from a module under scripts/toolchain (a test runs
// in its package's directory): resources in two modules, nested object types, an enum, secrets, a
// provider config with environment defaults and two functions.
const mediahostSchemaPath = "../../../test/e2e/fixtures/codegen/mediahost.schema.json"

// MediahostSchema is the e2e tests' schema as JSON.
func MediahostSchema(t *testing.T) string {
	t.Helper()
	return ReadFile(t, mediahostSchemaPath)
}

// Serve serves registrations over gRPC on a free port, as the engine and the hosts' main do,
// until the test ends. It returns the address.
func Serve(t *testing.T, init func(*grpc.Server), opts ...grpc.ServerOption) string {
	t.Helper()
	stop := make(chan bool)
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel:  stop,
		Init:    func(srv *grpc.Server) error { init(srv); return nil },
		Options: opts,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		close(stop)
		<-handle.Done
	})
	return fmt.Sprintf("127.0.0.1:%d", handle.Port)
}

// Client serves a LanguageRuntime over gRPC as a host's main does, returning a client of it: what
// the engine talks to.
func Client(
	t *testing.T, server pulumirpc.LanguageRuntimeServer, opts ...grpc.ServerOption,
) pulumirpc.LanguageRuntimeClient {
	t.Helper()
	addr := Serve(t, func(srv *grpc.Server) { pulumirpc.RegisterLanguageRuntimeServer(srv, server) }, opts...)
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return pulumirpc.NewLanguageRuntimeClient(conn)
}

// SpecLoader is a schema loader serving packages from their JSON specs, counting requests by name.
type SpecLoader struct {
	specs    map[string]string
	Requests map[string]int
}

// NewSpecLoader serves specs; with none it is the engine's loader for a schema that refers to no
// other package.
func NewSpecLoader(t *testing.T, specs ...string) *SpecLoader {
	l := &SpecLoader{specs: map[string]string{}, Requests: map[string]int{}}
	for _, s := range specs {
		var head struct{ Name string }
		if err := json.Unmarshal([]byte(s), &head); err != nil {
			t.Fatal(err)
		}
		l.specs[head.Name] = s
	}
	return l
}

func (l *SpecLoader) LoadPackage(name string, _ *semver.Version) (*schema.Package, error) {
	l.Requests[name]++
	s, ok := l.specs[name]
	if !ok {
		return nil, fmt.Errorf("no schema for package %q", name)
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal([]byte(s), &spec); err != nil {
		return nil, err
	}
	// BindSpec, not ImportSpec: its signature is the same at both Pulumi versions the hosts pin
	pkg, diags, err := schema.BindSpec(spec, l, schema.ValidationOptions{})
	if err == nil && diags.HasErrors() {
		err = diags
	}
	return pkg, err
}

func (l *SpecLoader) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.LoadPackage(d.Name, d.Version)
}

func (l *SpecLoader) LoadPackageReference(name string, v *semver.Version) (schema.PackageReference, error) {
	p, err := l.LoadPackage(name, v)
	if err != nil {
		return nil, err
	}
	return p.Reference(), nil
}

func (l *SpecLoader) LoadPackageReferenceV2(
	_ context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return l.LoadPackageReference(d.Name, d.Version)
}

// ServeLoader serves loader over gRPC the way the engine serves its own, returning the address to
// put in a request's LoaderTarget.
func ServeLoader(t *testing.T, loader schema.ReferenceLoader) string {
	t.Helper()
	return Serve(t, func(srv *grpc.Server) {
		codegenrpc.RegisterLoaderServer(srv, schema.NewLoaderServer(loader))
	})
}

// FilesUnder lists the regular files under dir, relative and slash-separated, sorted.
func FilesUnder(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		out = append(out, filepath.ToSlash(rel))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func ReadFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// RequireSDKOnly checks what every SDK-only host does besides generating: its plugin info and
// handshake, and a refusal naming the method and the language for the rest, unary and streaming.
func RequireSDKOnly(t *testing.T, client pulumirpc.LanguageRuntimeClient, language, version string) {
	t.Helper()
	ctx := context.Background()
	info, err := client.GetPluginInfo(ctx, &emptypb.Empty{})
	if err != nil || info.GetVersion() != version {
		t.Fatalf("GetPluginInfo: %v, %v", info, err)
	}
	if _, err := client.Handshake(ctx, &pulumirpc.LanguageHandshakeRequest{EngineAddress: "127.0.0.1:1"}); err != nil {
		t.Fatalf("Handshake: %v", err)
	}
	requireRefused := func(method string, err error) {
		t.Helper()
		st, _ := status.FromError(err)
		want := "this toolchain's " + language + " host only generates SDKs (pulumi package gen-sdk); " + method +
			" is not implemented"
		if st.Code() != codes.Unimplemented || st.Message() != want {
			t.Errorf("%s: got %v, want Unimplemented %q", method, err, want)
		}
	}
	_, err = client.Run(ctx, &pulumirpc.RunRequest{})
	requireRefused("Run", err)
	_, err = client.GetRequiredPackages(ctx, &pulumirpc.GetRequiredPackagesRequest{})
	requireRefused("GetRequiredPackages", err)
	_, err = client.GenerateProgram(ctx, &pulumirpc.GenerateProgramRequest{})
	requireRefused("GenerateProgram", err)
	_, err = client.GenerateProject(ctx, &pulumirpc.GenerateProjectRequest{})
	requireRefused("GenerateProject", err)
	// server-streaming: the refusal arrives with the first receive
	stream, err := client.InstallDependencies(ctx, &pulumirpc.InstallDependenciesRequest{})
	if err == nil {
		_, err = stream.Recv()
	}
	requireRefused("InstallDependencies", err)
}

// RequireFiles fails the test for each of want that is not a file under dir.
func RequireFiles(t *testing.T, dir string, want ...string) {
	t.Helper()
	have := map[string]bool{}
	for _, f := range FilesUnder(t, dir) {
		have[f] = true
	}
	for _, f := range want {
		if !have[f] {
			t.Errorf("%s was not written; the SDK has %v", f, FilesUnder(t, dir))
		}
	}
}

// RequireContains fails the test for each of wants that the file at path lacks.
func RequireContains(t *testing.T, path string, wants ...string) {
	t.Helper()
	text := ReadFile(t, path)
	for _, want := range wants {
		if !strings.Contains(text, want) {
			t.Errorf("%s lacks %q:\n%s", path, want, text)
		}
	}
}

// RequireNoDiagnostics fails the test for each diagnostic of resp.
func RequireNoDiagnostics(t *testing.T, resp *pulumirpc.GeneratePackageResponse) {
	t.Helper()
	for _, d := range resp.GetDiagnostics() {
		t.Errorf("diagnostic (severity %v): %s: %s", d.GetSeverity(), d.GetSummary(), d.GetDetail())
	}
}

// RequireSchemaErrorsAsDiagnostics checks that a host answers a schema that does not bind (a type
// that does not exist) with an error diagnostic naming it, and writes nothing.
func RequireSchemaErrorsAsDiagnostics(t *testing.T, client pulumirpc.LanguageRuntimeClient) {
	t.Helper()
	const broken = `{
  "name": "broken",
  "version": "1.0.0",
  "resources": { "broken:index:Thing": { "inputProperties": { "size": { "type": "strung" } } } }
}`
	dir := t.TempDir()
	resp, err := client.GeneratePackage(context.Background(), &pulumirpc.GeneratePackageRequest{
		Directory: dir, Schema: broken, LoaderTarget: ServeLoader(t, NewSpecLoader(t)),
	})
	if err != nil {
		t.Fatalf("expected diagnostics, got error %v", err)
	}
	var summaries []string
	for _, d := range resp.GetDiagnostics() {
		if d.GetSeverity() == codegenrpc.DiagnosticSeverity_DIAG_ERROR {
			summaries = append(summaries, d.GetSummary())
		}
	}
	if !strings.Contains(strings.Join(summaries, "\n"), "strung") {
		t.Fatalf("expected an error naming the unknown type, got %v", resp.GetDiagnostics())
	}
	if files := FilesUnder(t, dir); len(files) != 0 {
		t.Fatalf("nothing should be written, got %v", files)
	}
}
