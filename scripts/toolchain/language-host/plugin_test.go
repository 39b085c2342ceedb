package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/structpb"
)

func TestPluginModuleAndArgs(t *testing.T) {
	t.Setenv("PULUMI_LANGUAGE_NODEJS_RUN_PATH", "")
	if m := pluginModule("analyzer"); m != "@pulumi/pulumi/cmd/run-policy-pack" {
		t.Fatalf("analyzer: %s", m)
	}
	if m := pluginModule("resource"); m != "@pulumi/pulumi/cmd/run-plugin" {
		t.Fatalf("resource: %s", m)
	}
	t.Setenv("PULUMI_LANGUAGE_NODEJS_RUN_PATH", "/x/run.js")
	if m := pluginModule("tool"); m != "/x/run.js" {
		t.Fatalf("override: %s", m)
	}
	if m := pluginModule("analyzer"); m != "@pulumi/pulumi/cmd/run-policy-pack" {
		t.Fatalf("the override is not for policy packs: %s", m)
	}

	info := &pulumirpc.ProgramInfo{ProgramDirectory: "/pack"}
	pack := pluginArgs(&pulumirpc.RunPluginRequest{
		Kind: "analyzer", Info: info, Pwd: "/project", Args: []string{"127.0.0.1:1234", "-v=9"},
	}, "/pack/node_modules/run-policy-pack/index.js", []string{"--max-old-space-size=100"})
	if want := []string{
		"--max-old-space-size=100", "/pack/node_modules/run-policy-pack/index.js", "127.0.0.1:1234", "-v=9", "/pack",
	}; !reflect.DeepEqual(pack.args, want) || pack.dir != "/pack" {
		t.Fatalf("policy pack: %v in %s", pack.args, pack.dir)
	}
	plug := pluginArgs(&pulumirpc.RunPluginRequest{
		Kind: "resource", Info: info, Pwd: "/project", Args: []string{"127.0.0.1:1234"},
	}, "/run-plugin.js", nil)
	if want := []string{"/run-plugin.js", "/pack", "127.0.0.1:1234"}; !reflect.DeepEqual(plug.args, want) ||
		plug.dir != "/project" {
		t.Fatalf("plugin: %v in %s", plug.args, plug.dir)
	}
}

func TestStackConfigEnv(t *testing.T) {
	env, err := stackConfigEnv(&pulumirpc.AnalyzerStackConfigureRequest{
		Project: "proj", Stack: "dev", DryRun: true, Config: map[string]string{"proj:limit": "3"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"PULUMI_NODEJS_PROJECT=proj", "PULUMI_NODEJS_STACK=dev", "PULUMI_NODEJS_DRY_RUN=true",
		`PULUMI_CONFIG={"proj:limit":"3"}`,
	}
	if !reflect.DeepEqual(env, want) {
		t.Fatalf("got %v", env)
	}
	if env, _ := stackConfigEnv(nil); env != nil {
		t.Fatalf("no configuration (e.g. `pulumi policy publish`): %v", env)
	}
}

// runPluginStream collects what RunPlugin streams back to the engine.
type runPluginStream struct {
	grpc.ServerStream
	ctx            context.Context
	mu             sync.Mutex
	stdout, stderr strings.Builder
}

func (s *runPluginStream) Context() context.Context { return s.ctx }

func (s *runPluginStream) Send(r *pulumirpc.RunPluginResponse) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch o := r.GetOutput().(type) {
	case *pulumirpc.RunPluginResponse_Stdout:
		s.stdout.Write(o.Stdout)
	case *pulumirpc.RunPluginResponse_Stderr:
		s.stderr.Write(o.Stderr)
	}
	return nil
}

// A plugin project (PulumiPlugin.yaml, runtime nodejs) runs @pulumi/pulumi/cmd/run-plugin as
// resolved from its own directory, in the engine's working directory, with the engine's
// environment and the TypeScript switch; its output is streamed and its exit code reported.
func TestRunPluginRunsRunPluginFromThePluginDirectory(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not on PATH")
	}
	t.Setenv("PULUMI_LANGUAGE_NODEJS_RUN_PATH", "")
	pluginDir, pwd := t.TempDir(), t.TempDir()
	writeFiles(t, pluginDir, map[string]string{
		"node_modules/@pulumi/pulumi/package.json": `{"name":"@pulumi/pulumi","version":"3.259.0"}`,
		// a stand-in for the SDK's run-plugin: says what it was given
		"node_modules/@pulumi/pulumi/cmd/run-plugin/index.js": `
console.log(JSON.stringify({
  args: process.argv.slice(2), cwd: process.cwd(),
  ts: process.env.PULUMI_NODEJS_TYPESCRIPT ?? null, fromEngine: process.env.FROM_ENGINE ?? null,
}));
console.error("plugin stderr");
process.exit(Number(process.env.EXIT_CODE || 0));
`,
	})
	run := func(exitCode string) (*runPluginStream, error) {
		opts, _ := structpb.NewStruct(map[string]any{"typescript": true})
		s := &runPluginStream{ctx: context.Background()}
		err := newLanguageHost("", "").RunPlugin(&pulumirpc.RunPluginRequest{
			Kind: "resource",
			Pwd:  pwd,
			Args: []string{"127.0.0.1:9"},
			Env:  []string{"PATH=" + nodeDir(), "FROM_ENGINE=yes", "EXIT_CODE=" + exitCode},
			Info: &pulumirpc.ProgramInfo{ProgramDirectory: pluginDir, RootDirectory: pluginDir, EntryPoint: ".", Options: opts},
		}, s)
		return s, err
	}

	s, err := run("0")
	if err != nil {
		t.Fatal(err)
	}
	want := `{"args":["` + pluginDir + `","127.0.0.1:9"],"cwd":"` + evalSymlinks(t, pwd) +
		`","ts":"true","fromEngine":"yes"}` + "\n"
	if s.stdout.String() != want {
		t.Fatalf("stdout %q\nwant   %q", s.stdout.String(), want)
	}
	if s.stderr.String() != "plugin stderr\n" {
		t.Fatalf("stderr %q", s.stderr.String())
	}

	if _, err := run("3"); err == nil || err.Error() != "Program exited with non-zero exit code: 3" {
		t.Fatalf("exit 3: %v", err)
	}
}

func TestRunPluginSaysWhenTheSDKIsMissing(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not on PATH")
	}
	dir := t.TempDir()
	err := newLanguageHost("", "").RunPlugin(&pulumirpc.RunPluginRequest{
		Kind: "analyzer",
		Info: &pulumirpc.ProgramInfo{ProgramDirectory: dir},
	}, &runPluginStream{ctx: context.Background()})
	if err == nil || !strings.Contains(err.Error(), "@pulumi/pulumi/cmd/run-policy-pack") ||
		!strings.Contains(err.Error(), "npm install in "+dir) {
		t.Fatalf("got %v", err)
	}
}

func nodeDir() string {
	p, _ := exec.LookPath("node")
	return filepath.Dir(p)
}

func evalSymlinks(t *testing.T, p string) string {
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
