package main

import (
	"encoding/json"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/structpb"
)

func TestParseArgs(t *testing.T) {
	got, err := parseArgs("language-host", []string{"--logtostderr", "-v=9", "--tracing", "http://t", "-runtime=nodejs", "127.0.0.1:1234"})
	if err != nil {
		t.Fatal(err)
	}
	if got.EngineAddr != "127.0.0.1:1234" || got.tracing != "http://t" || got.ShowVersion {
		t.Fatalf("unexpected %+v", got)
	}
	if v, _ := parseArgs("language-host", []string{"-version"}); !v.ShowVersion {
		t.Fatal("-version not recognised")
	}
	if _, err := parseArgs("language-host", []string{"-runtime", "python"}); err == nil {
		t.Fatal("expected an error for another runtime")
	}
}

func TestShellSplit(t *testing.T) {
	cases := map[string][]string{
		"":                                 nil,
		"  --a  --b=1 ":                    {"--a", "--b=1"},
		`--x "two words" 'single $q' a\ b`: {"--x", "two words", "single $q", "a b"},
		`"a\"b" ''`:                        {`a"b`, ""},
	}
	for in, want := range cases {
		got, err := shellSplit(in)
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: got %#v want %#v", in, got, want)
		}
	}
	if _, err := shellSplit(`"open`); err == nil {
		t.Fatal("expected an error for an unterminated quote")
	}
}

func TestProgramEnv(t *testing.T) {
	opts, _ := structpb.NewStruct(map[string]any{"typescript": false, "tsconfig": "tsconfig.pulumi.json"})
	env, err := programEnv(&pulumirpc.RunRequest{
		Config:           map[string]string{"proj:name": "v", "aws:config:region": "r"},
		ConfigSecretKeys: []string{"proj:name"},
	}, runtimeOptionsFrom(opts))
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	var cfg map[string]string
	if err := json.Unmarshal([]byte(vars["PULUMI_CONFIG"]), &cfg); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cfg, map[string]string{"proj:config:name": "v", "aws:config:region": "r"}) {
		t.Fatalf("config %v", cfg)
	}
	if vars["PULUMI_CONFIG_SECRET_KEYS"] != `["proj:name"]` {
		t.Fatalf("secret keys %q", vars["PULUMI_CONFIG_SECRET_KEYS"])
	}
	if _, ok := vars["PULUMI_NODEJS_TYPESCRIPT"]; ok {
		t.Fatal("typescript: false must not set PULUMI_NODEJS_TYPESCRIPT")
	}
	if vars["PULUMI_NODEJS_TSCONFIG_PATH"] != "tsconfig.pulumi.json" {
		t.Fatalf("tsconfig %q", vars["PULUMI_NODEJS_TSCONFIG_PATH"])
	}
	if !runtimeOptionsFrom(nil).typescript {
		t.Fatal("typescript must default to true")
	}
}

func TestRunResponseFor(t *testing.T) {
	exit := func(code string) error { return exec.Command("sh", "-c", "exit "+code).Run() }
	if r := runResponseFor(nil); r.Bail || r.Error != "" {
		t.Fatalf("success: %v", r)
	}
	if r := runResponseFor(exit("32")); !r.Bail {
		t.Fatalf("32 must bail: %v", r)
	}
	if r := runResponseFor(exit("3")); r.Error != "Program exited with non-zero exit code: 3" {
		t.Fatalf("3: %v", r)
	}
}
