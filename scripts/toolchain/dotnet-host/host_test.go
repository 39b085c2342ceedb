package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
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

// The e2e tests' schema: resources in two modules, nested object types, an enum, secrets, a
// provider config with environment defaults and two functions.
const mediahostSchemaPath = "../../../test/e2e/fixtures/codegen/mediahost.schema.json"

func mediahostSchema(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(mediahostSchemaPath)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// withLogoURL is the schema with a logoUrl.
func withLogoURL(t *testing.T, url string) string {
	return strings.Replace(mediahostSchema(t), `"name": "mediahost",`,
		fmt.Sprintf(`"name": "mediahost", "logoUrl": %q,`, url), 1)
}

// noPackages is a schema loader with no packages: the engine's, for a schema that refers to none.
type noPackages struct{}

func (noPackages) LoadPackage(name string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("no schema for package %q", name)
}

func (l noPackages) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.LoadPackage(d.Name, d.Version)
}

func (l noPackages) LoadPackageReference(name string, v *semver.Version) (schema.PackageReference, error) {
	return nil, fmt.Errorf("no schema for package %q", name)
}

func (l noPackages) LoadPackageReferenceV2(
	_ context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return l.LoadPackageReference(d.Name, d.Version)
}

// serve serves registrations over gRPC on a free port, as the engine and main do.
func serve(t *testing.T, init func(*grpc.Server), opts ...grpc.ServerOption) string {
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

// client is the engine's side: this host served as main serves it.
func client(t *testing.T) pulumirpc.LanguageRuntimeClient {
	t.Helper()
	h := newHost("")
	addr := serve(t, func(srv *grpc.Server) { pulumirpc.RegisterLanguageRuntimeServer(srv, h) }, h.serverOptions()...)
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return pulumirpc.NewLanguageRuntimeClient(conn)
}

// loaderTarget serves a schema loader with no packages, as the engine serves its own.
func loaderTarget(t *testing.T) string {
	return serve(t, func(srv *grpc.Server) {
		codegenrpc.RegisterLoaderServer(srv, schema.NewLoaderServer(noPackages{}))
	})
}

// offline makes every HTTP request the process sends fail (and records it) for the test's
// duration: what the toolchain's machines see of the internet.
func offline(t *testing.T) *[]string {
	t.Helper()
	lt := installLogoTransport()
	var mu sync.Mutex
	var asked []string
	saved := lt.next
	lt.next = roundTripFunc(func(r *http.Request) (*http.Response, error) {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, r.URL.String())
		return nil, errors.New("offline")
	})
	t.Cleanup(func() { lt.next = saved })
	return &asked
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func filesUnder(t *testing.T, dir string) []string {
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

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func generate(t *testing.T, req *pulumirpc.GeneratePackageRequest) *pulumirpc.GeneratePackageResponse {
	t.Helper()
	if req.LoaderTarget == "" {
		req.LoaderTarget = loaderTarget(t)
	}
	resp, err := client(t).GeneratePackage(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func TestGeneratePackageWritesACSharpSDKOffline(t *testing.T) {
	asked := offline(t)
	dir := t.TempDir()
	resp := generate(t, &pulumirpc.GeneratePackageRequest{
		Directory:         dir,
		Schema:            mediahostSchema(t),
		ExtraFiles:        map[string][]byte{"Overlays/Note.cs": []byte("namespace Example.Mediahost {}\n")},
		LocalDependencies: map[string]string{"pulumi": "/nuget/Pulumi.3.90.0.nupkg"},
	})
	for _, d := range resp.GetDiagnostics() {
		t.Errorf("diagnostic (severity %v): %s", d.GetSeverity(), d.GetSummary())
	}
	if len(*asked) != 0 {
		t.Errorf("the network was asked for %v", *asked)
	}
	have := map[string]bool{}
	for _, f := range filesUnder(t, dir) {
		have[f] = true
	}
	for _, f := range []string{
		"Alias.cs", "AccountSettings.cs", "SubAccount.cs", "Provider.cs", "GetAccount.cs", "GetUser.cs", "Enums.cs",
		"Inputs/FetchingSettingsArgs.cs", "Inputs/HttpAuthArgs.cs", "Outputs/AccountAlias.cs",
		"Folders/FolderMeta.cs", "Config/Config.cs", "Utilities.cs", "Example.Mediahost.csproj",
		"pulumi-plugin.json", "logo.png", "Overlays/Note.cs",
	} {
		if !have[f] {
			t.Errorf("%s was not written; the SDK has %v", f, filesUnder(t, dir))
		}
	}
	for file, wants := range map[string][]string{
		"Alias.cs":      {"generated by pulumi-language-dotnet", "public partial class Alias : global::Pulumi.CustomResource"},
		"SubAccount.cs": {`"clientSecret"`, "Output.CreateSecret"},
		"Provider.cs":   {`Utilities.GetEnv("MEDIAHOST_CLIENT_SECRET")`},
		// the local Pulumi package replaces the published one, from its folder
		"Example.Mediahost.csproj": {`<PackageReference Include="Pulumi" Version="3.90.0" />`, "/nuget"},
	} {
		text := readFile(t, filepath.Join(dir, file))
		for _, want := range wants {
			if !strings.Contains(text, want) {
				t.Errorf("%s lacks %q:\n%s", file, want, text)
			}
		}
	}
	if !bytes.Equal([]byte(readFile(t, filepath.Join(dir, "logo.png"))), genericLogo()) {
		t.Error("logo.png is not the generic icon")
	}
}

func TestGeneratePackageDownloadsTheSchemasLogo(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\nthe package's own logo")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/logo.png" {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write(png)
	}))
	defer srv.Close()

	t.Run("reachable", func(t *testing.T) {
		dir := t.TempDir()
		resp := generate(t, &pulumirpc.GeneratePackageRequest{Directory: dir, Schema: withLogoURL(t, srv.URL+"/logo.png")})
		if len(resp.GetDiagnostics()) != 0 {
			t.Errorf("diagnostics %v", resp.GetDiagnostics())
		}
		if got := readFile(t, filepath.Join(dir, "logo.png")); got != string(png) {
			t.Errorf("logo.png %q", got)
		}
	})
	for name, url := range map[string]string{"not found": srv.URL + "/missing.png", "offline": "https://logo.invalid/x.png"} {
		t.Run(name, func(t *testing.T) {
			if name == "offline" {
				offline(t)
			}
			dir := t.TempDir()
			resp := generate(t, &pulumirpc.GeneratePackageRequest{Directory: dir, Schema: withLogoURL(t, url)})
			diags := resp.GetDiagnostics()
			if len(diags) != 1 || diags[0].GetSeverity() != codegenrpc.DiagnosticSeverity_DIAG_WARNING ||
				!strings.Contains(diags[0].GetSummary(), "could not download the package's logoUrl "+url) {
				t.Fatalf("expected one warning about the logo, got %v", diags)
			}
			if !bytes.Equal([]byte(readFile(t, filepath.Join(dir, "logo.png"))), genericLogo()) {
				t.Error("logo.png is not the generic icon")
			}
			if _, err := os.Stat(filepath.Join(dir, "Alias.cs")); err != nil {
				t.Errorf("the SDK was not written: %v", err)
			}
		})
	}
}

func TestGeneratePackageReturnsSchemaErrorsAsDiagnosticsAndWritesNothing(t *testing.T) {
	const broken = `{
  "name": "broken",
  "version": "1.0.0",
  "resources": { "broken:index:Thing": { "inputProperties": { "size": { "type": "strung" } } } }
}`
	dir := t.TempDir()
	resp := generate(t, &pulumirpc.GeneratePackageRequest{Directory: dir, Schema: broken})
	var summaries []string
	for _, d := range resp.GetDiagnostics() {
		if d.GetSeverity() == codegenrpc.DiagnosticSeverity_DIAG_ERROR {
			summaries = append(summaries, d.GetSummary())
		}
	}
	if !strings.Contains(strings.Join(summaries, "\n"), "strung") {
		t.Fatalf("expected an error naming the unknown type, got %v", resp.GetDiagnostics())
	}
	if files := filesUnder(t, dir); len(files) != 0 {
		t.Fatalf("nothing should be written, got %v", files)
	}
}

func TestHostServesPluginInfoAndHandshakeAndRefusesTheRest(t *testing.T) {
	ctx := context.Background()
	c := client(t)
	info, err := c.GetPluginInfo(ctx, &emptypb.Empty{})
	if err != nil || info.GetVersion() != version {
		t.Fatalf("GetPluginInfo: %v, %v", info, err)
	}
	if _, err := c.Handshake(ctx, &pulumirpc.LanguageHandshakeRequest{EngineAddress: "127.0.0.1:1"}); err != nil {
		t.Fatalf("Handshake: %v", err)
	}
	requireRefused := func(method string, err error) {
		t.Helper()
		st, _ := status.FromError(err)
		want := "this toolchain's dotnet host only generates SDKs (pulumi package gen-sdk); " + method +
			" is not implemented"
		if st.Code() != codes.Unimplemented || st.Message() != want {
			t.Errorf("%s: got %v, want Unimplemented %q", method, err, want)
		}
	}
	_, err = c.Run(ctx, &pulumirpc.RunRequest{})
	requireRefused("Run", err)
	_, err = c.GenerateProject(ctx, &pulumirpc.GenerateProjectRequest{})
	requireRefused("GenerateProject", err)
	stream, err := c.InstallDependencies(ctx, &pulumirpc.InstallDependenciesRequest{})
	if err == nil {
		_, err = stream.Recv()
	}
	requireRefused("InstallDependencies", err)
}

func TestParseArgs(t *testing.T) {
	got, err := parseArgs([]string{"--logtostderr", "-v=9", "--tracing", "http://t", "-root", "/p", "127.0.0.1:1234"})
	if err != nil || got.engineAddr != "127.0.0.1:1234" || got.showVersion {
		t.Fatalf("unexpected %+v, %v", got, err)
	}
	if v, _ := parseArgs([]string{"-version"}); !v.showVersion {
		t.Fatal("-version not recognised")
	}
	if _, err := parseArgs([]string{"-runtime", "nodejs"}); err == nil {
		t.Fatal("expected an error for another runtime")
	}
}

func TestWriteSDKFilesStaysInsideTheDirectory(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"../Escape.cs", "/Abs.cs", "A/../../Escape.cs"} {
		if err := writeSDKFiles(dir, map[string][]byte{name: []byte("x")}); err == nil {
			t.Errorf("%q was accepted", name)
		}
	}
}
