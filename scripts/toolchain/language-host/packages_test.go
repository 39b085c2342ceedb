package main

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/blang/semver"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestGetRequiredPackagesReadsPluginsFromNodeModules(t *testing.T) {
	prog := t.TempDir()
	writeFiles(t, prog, map[string]string{
		// the program's own package.json is not in node_modules: not a plugin, whatever it says
		"package.json": `{"name":"prog","version":"1.0.0","pulumi":{"resource":true,"name":"prog"}}`,
		"node_modules/@pulumi/pulumi/package.json": `{"name":"@pulumi/pulumi","version":"3.259.0",` +
			`"pulumi":{"comment":"not a plugin"}}`,
		// a provider SDK shipped in npm: plugin name and download server from its pulumi section
		"node_modules/pulumi-mediahost/package.json": `{"name":"pulumi-mediahost","version":"0.3.0",` +
			`"pulumi":{"resource":true,"name":"mediahost","server":"https://plugins.example.com/"}}`,
		// @pulumi packages may leave out the name; pulumi.version wins over the package's
		"node_modules/@pulumi/random/package.json": `{"name":"@pulumi/random","version":"4.0.0-alpha",` +
			`"pulumi":{"resource":true,"version":"v4.1.0"}}`,
		// nested node_modules count too
		"node_modules/wrapper/package.json":                          `{"name":"wrapper","version":"1.0.0"}`,
		"node_modules/wrapper/node_modules/@pulumi/aws/package.json": `{"name":"@pulumi/aws","version":"6.2.0","pulumi":{"resource":true}}`,
		// a third-party package must name its plugin: an error, but the rest is still reported
		"node_modules/nameless/package.json": `{"name":"nameless","version":"1.0.0","pulumi":{"resource":true}}`,
		// a policy pack's plugins are not the program's
		"policy/PulumiPolicy.yaml":                                "runtime: nodejs\n",
		"policy/node_modules/@pulumi/gcp/package.json":            `{"name":"@pulumi/gcp","version":"7.0.0","pulumi":{"resource":true}}`,
		"node_modules/plain/package.json":                         `{"name":"plain","version":"2.0.0"}`,
		"node_modules/@pulumi/policy-free/package.json":           `{"name":"@pulumi/policy-free","version":"1.0.0","pulumi":{"resource":false}}`,
		"node_modules/@pulumi/pulumi/node_modules/x/package.json": `{"name":"x","version":"1.0.0"}`,
	})
	// a symbolic link back up the tree is followed once, not forever
	if err := os.Symlink(filepath.Join(prog, "node_modules"), filepath.Join(prog, "node_modules", "wrapper", "loop")); err != nil {
		t.Fatal(err)
	}

	resp, err := newLanguageHost("", "").GetRequiredPackages(context.Background(), &pulumirpc.GetRequiredPackagesRequest{
		Info: &pulumirpc.ProgramInfo{ProgramDirectory: prog, RootDirectory: prog, EntryPoint: "."},
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range resp.GetPackages() {
		got = append(got, p.GetKind()+" "+p.GetName()+" "+p.GetVersion()+" "+p.GetServer())
	}
	sort.Strings(got)
	want := []string{
		"resource aws v6.2.0 ",
		"resource mediahost v0.3.0 https://plugins.example.com/",
		"resource random v4.1.0 ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestGetRequiredPackagesWithoutNodeModules(t *testing.T) {
	resp, err := newLanguageHost("", "").GetRequiredPackages(context.Background(), &pulumirpc.GetRequiredPackagesRequest{
		Info: &pulumirpc.ProgramInfo{ProgramDirectory: t.TempDir()},
	})
	if err != nil || len(resp.GetPackages()) != 0 {
		t.Fatalf("got %v, %v", resp, err)
	}
}

func TestGetRequiredPluginsIsLeftToGetRequiredPackages(t *testing.T) {
	_, err := newLanguageHost("", "").GetRequiredPlugins(context.Background(), &pulumirpc.GetRequiredPluginsRequest{})
	if status.Code(err) != codes.Unimplemented {
		t.Fatalf("want Unimplemented (the engine then asks GetRequiredPackages), got %v", err)
	}
}

func TestIncompatibleSDKs(t *testing.T) {
	v := semver.MustParse
	if msg := incompatibleSDKs(map[string]semver.Version{"/a": v("3.259.0"), "/b": v("3.216.0")}); msg != "" {
		t.Fatalf("same major version: %q", msg)
	}
	msg := incompatibleSDKs(map[string]semver.Version{"/a": v("3.259.0"), "/b": v("2.0.0")})
	if !strings.Contains(msg, "Differing major versions") || !strings.Contains(msg, "/a") || !strings.Contains(msg, "/b") {
		t.Fatalf("different major versions: %q", msg)
	}
}
