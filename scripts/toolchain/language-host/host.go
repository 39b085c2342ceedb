package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/config"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"
	"pulumi-mediahost.local/toolchain/hostkit"
)

// bailExitCode is what @pulumi/pulumi's cmd/run exits with after it has already printed an
// actionable error; the engine must then not print a second, generic one.
const bailExitCode = 32

type languageHost struct {
	*hostkit.Plugin // GetPluginInfo, Handshake and the engine's address

	tracing string

	mu       sync.Mutex
	children map[*os.Process]struct{}
}

func newLanguageHost(engineAddr, tracing string) *languageHost {
	return &languageHost{
		Plugin: hostkit.NewPlugin(version, engineAddr), tracing: tracing, children: map[*os.Process]struct{}{},
	}
}

func (h *languageHost) RuntimeOptionsPrompts(
	context.Context, *pulumirpc.RuntimeOptionsRequest,
) (*pulumirpc.RuntimeOptionsResponse, error) {
	return &pulumirpc.RuntimeOptionsResponse{}, nil
}

func (h *languageHost) About(context.Context, *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, errors.New("could not find node on PATH")
	}
	out, err := exec.Command(node, "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("running %s --version: %w", node, err)
	}
	return &pulumirpc.AboutResponse{
		Executable: node,
		Version:    strings.TrimPrefix(strings.TrimSpace(string(out)), "v"),
	}, nil
}

// GetProgramDependencies lists the direct dependencies from package.json, with the installed
// version when node_modules has one and the declared range otherwise.
func (h *languageHost) GetProgramDependencies(
	_ context.Context, req *pulumirpc.GetProgramDependenciesRequest,
) (*pulumirpc.GetProgramDependenciesResponse, error) {
	dir := req.GetInfo().GetProgramDirectory()
	if dir == "" {
		dir = req.GetPwd() // older engines only set this
	}
	var manifest struct {
		Dependencies    map[string]string `json:"dependencies"`
		DevDependencies map[string]string `json:"devDependencies"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if errors.Is(err, os.ErrNotExist) {
		return &pulumirpc.GetProgramDependenciesResponse{}, nil
	} else if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, &manifest); err != nil {
		return nil, fmt.Errorf("parsing %s: %w", filepath.Join(dir, "package.json"), err)
	}
	all := map[string]string{}
	for name, r := range manifest.DevDependencies {
		all[name] = r
	}
	for name, r := range manifest.Dependencies {
		all[name] = r
	}
	names := make([]string, 0, len(all))
	for name := range all {
		names = append(names, name)
	}
	sort.Strings(names)
	resp := &pulumirpc.GetProgramDependenciesResponse{}
	for _, name := range names {
		v := all[name]
		var installed struct {
			Version string `json:"version"`
		}
		if b, err := os.ReadFile(filepath.Join(dir, "node_modules", name, "package.json")); err == nil {
			if json.Unmarshal(b, &installed) == nil && installed.Version != "" {
				v = installed.Version
			}
		}
		resp.Dependencies = append(resp.Dependencies, &pulumirpc.DependencyInfo{Name: name, Version: v})
	}
	return resp, nil
}

// InstallDependencies runs `npm install` only when nothing is installed yet: this project's
// programs normally share the repository's node_modules.
func (h *languageHost) InstallDependencies(
	req *pulumirpc.InstallDependenciesRequest, server pulumirpc.LanguageRuntime_InstallDependenciesServer,
) error {
	dir := req.GetInfo().GetProgramDirectory()
	if dir == "" {
		dir = req.GetDirectory() // older engines only set this
	}
	closer, stdout, stderr, err := rpcutil.MakeInstallDependenciesStreams(server, req.GetIsTerminal())
	if err != nil {
		return err
	}
	defer closer.Close()

	if _, err := os.Stat(filepath.Join(dir, "package.json")); err != nil {
		fmt.Fprintf(stdout, "no package.json in %s: nothing to install\n", dir)
		return nil
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules")); err == nil {
		fmt.Fprintf(stdout, "%s already has node_modules: nothing to install\n", dir)
		return nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return errors.New("could not find npm on PATH to install the program's dependencies")
	}
	fmt.Fprintf(stdout, "running npm install in %s\n", dir)
	cmd := exec.CommandContext(server.Context(), npm, "install")
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("npm install in %s failed: %w", dir, err)
	}
	return nil
}

func (h *languageHost) Cancel(context.Context, *emptypb.Empty) (*emptypb.Empty, error) {
	h.interruptAll()
	return &emptypb.Empty{}, nil
}

// interruptAll sends SIGINT (not SIGKILL) so the Node.js SDK can finish in-flight RPCs.
func (h *languageHost) interruptAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for p := range h.children {
		_ = p.Signal(syscall.SIGINT)
	}
}

func (h *languageHost) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	info := req.GetInfo()
	programDir := info.GetProgramDirectory()
	if programDir == "" {
		programDir = req.GetPwd()
	}
	entryPoint := info.GetEntryPoint()
	if entryPoint == "" {
		entryPoint = req.GetProgram()
	}
	opts := runtimeOptionsFrom(info.GetOptions())

	node, err := exec.LookPath("node")
	if err != nil {
		return nil, errors.New("could not find node on PATH: install Node.js or put it on PATH")
	}
	runPath, err := resolveRunScript(node, programDir)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}

	nodeArgs, err := shellSplit(opts.nodeArgs)
	if err != nil {
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("invalid nodeargs runtime option: %v", err)}, nil
	}
	args := append(nodeArgs, runPath)
	args = append(args, runFlags(req, h.EngineAddr(), programDir, h.tracing)...)
	args = append(args, entryPoint)
	args = append(args, req.GetArgs()...)

	env, err := programEnv(req, opts)
	if err != nil {
		return nil, err
	}

	cmd := exec.Command(node, args...)
	cmd.Dir = programDir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = nil
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", node, err)
	}

	h.mu.Lock()
	h.children[cmd.Process] = struct{}{}
	h.mu.Unlock()
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			_ = cmd.Process.Signal(syscall.SIGINT)
		case <-done:
		}
	}()
	waitErr := cmd.Wait()
	close(done)
	h.mu.Lock()
	delete(h.children, cmd.Process)
	h.mu.Unlock()

	return runResponseFor(waitErr), nil
}

func runResponseFor(waitErr error) *pulumirpc.RunResponse {
	if waitErr == nil {
		return &pulumirpc.RunResponse{}
	}
	var exitErr *exec.ExitError
	if !errors.As(waitErr, &exitErr) {
		return &pulumirpc.RunResponse{Error: waitErr.Error()}
	}
	if ws, ok := exitErr.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("Program exited due to signal: %v", ws.Signal())}
	}
	code := exitErr.ExitCode()
	if code == bailExitCode {
		return &pulumirpc.RunResponse{Bail: true}
	}
	return &pulumirpc.RunResponse{Error: fmt.Sprintf("Program exited with non-zero exit code: %d", code)}
}

// resolveRunScript asks node itself, from the program's directory, so the program's own copy of
// @pulumi/pulumi runs it (the SDK must be a single instance per process).
func resolveRunScript(node, programDir string) (string, error) {
	return resolveModule(node, programDir, "@pulumi/pulumi/cmd/run", "`npm install`")
}

// resolveModule resolves a module with node's require.resolve from dir; install says what to run
// when it is missing.
func resolveModule(node, dir, module, install string) (string, error) {
	quoted, err := json.Marshal(module) // a JSON string is a JavaScript string literal
	if err != nil {
		return "", err
	}
	script := "console.log(require.resolve(" + string(quoted) + "))"
	cmd := exec.Command(node, "-e", script)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("could not find %s from %s (is @pulumi/pulumi installed? run %s): %s",
			module, dir, install, firstLine(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "node:") && l != "^" &&
			!strings.HasPrefix(l, "throw ") {
			return l
		}
	}
	return strings.TrimSpace(s)
}

func runFlags(req *pulumirpc.RunRequest, engineAddr, programDir, tracing string) []string {
	var args []string
	add := func(flag, value string) {
		if value != "" {
			args = append(args, flag, value)
		}
	}
	add("--monitor", req.GetMonitorAddress())
	add("--engine", engineAddr)
	add("--organization", req.GetOrganization())
	add("--project", req.GetProject())
	add("--root-directory", req.GetInfo().GetRootDirectory())
	add("--stack", req.GetStack())
	add("--pwd", programDir)
	add("--tracing", tracing)
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	if req.GetParallel() > 0 {
		args = append(args, "--parallel", strconv.Itoa(int(req.GetParallel())))
	}
	return args
}

type runtimeOptions struct {
	typescript     bool
	tsconfigPath   string
	nodeArgs       string
	packageManager string // "" means auto
}

// runtimeOptionsFrom reads Pulumi.yaml's `runtime.options`.
func runtimeOptionsFrom(s *structpb.Struct) runtimeOptions {
	opts := runtimeOptions{typescript: true}
	if s == nil {
		return opts
	}
	m := s.AsMap()
	switch v := m["typescript"].(type) {
	case bool:
		opts.typescript = v
	case string:
		opts.typescript = v != "false"
	}
	if v, ok := m["tsconfig"].(string); ok {
		opts.tsconfigPath = v
	}
	if v, ok := m["nodeargs"].(string); ok {
		opts.nodeArgs = v
	}
	if v, ok := m["packagemanager"].(string); ok {
		opts.packageManager = v
	}
	return opts
}

// programEnv is how config reaches the Node.js SDK: it reads PULUMI_CONFIG at startup.
func programEnv(req *pulumirpc.RunRequest, opts runtimeOptions) ([]string, error) {
	cfg := map[string]string{}
	for k, v := range req.GetConfig() {
		key, err := config.ParseKey(k)
		if err != nil {
			return nil, err
		}
		// The SDK's historical format is `ns:config:name`; it strips the `config:` again.
		cfg[key.Namespace()+":config:"+key.Name()] = v
	}
	cfgJSON, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	secretsJSON, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, err
	}
	env := []string{
		"PULUMI_CONFIG=" + string(cfgJSON),
		"PULUMI_CONFIG_SECRET_KEYS=" + string(secretsJSON),
	}
	if opts.typescript {
		env = append(env, "PULUMI_NODEJS_TYPESCRIPT=true")
	}
	if opts.tsconfigPath != "" {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+opts.tsconfigPath)
	}
	return env, nil
}

// shellSplit splits like a POSIX shell would, for quotes and backslashes only (no expansion).
func shellSplit(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	r := strings.NewReader(s)
	for {
		c, _, err := r.ReadRune()
		if err == io.EOF {
			break
		}
		switch {
		case c == '\\':
			n, _, err := r.ReadRune()
			if err != nil {
				return nil, errors.New("trailing backslash")
			}
			cur.WriteRune(n)
			inWord = true
		case c == '\'':
			inWord = true
			for {
				n, _, err := r.ReadRune()
				if err != nil {
					return nil, errors.New("unterminated single quote")
				}
				if n == '\'' {
					break
				}
				cur.WriteRune(n)
			}
		case c == '"':
			inWord = true
			for {
				n, _, err := r.ReadRune()
				if err != nil {
					return nil, errors.New("unterminated double quote")
				}
				if n == '"' {
					break
				}
				if n == '\\' {
					m, _, err := r.ReadRune()
					if err != nil {
						return nil, errors.New("unterminated double quote")
					}
					if m != '"' && m != '\\' && m != '$' && m != '`' {
						cur.WriteRune('\\')
					}
					n = m
				}
				cur.WriteRune(n)
			}
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}
