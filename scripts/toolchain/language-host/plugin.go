package main

// RunPlugin: the engine runs a plugin written in Node.js (a directory with PulumiPolicy.yaml or
// PulumiPlugin.yaml and `runtime: nodejs`, not an executable) through the language host, as Pulumi's
// own pulumi-language-nodejs does:
//   - a policy pack (kind "analyzer", `pulumi preview --policy-pack DIR`) runs
//     @pulumi/pulumi/cmd/run-policy-pack, resolved from the pack's directory and run in it, as
//     `node run-policy-pack <engine args...> <pack dir>`. The engine talks to it through a proxy
//     (the SDK's PolicyProxy) that first takes the engine's ConfigureStack call and hands the stack's
//     organization, project, stack, dry-run flag and config to the pack in the environment the
//     @pulumi/policy library reads them from;
//   - any other plugin (a provider, converter or tool) runs @pulumi/pulumi/cmd/run-plugin
//     (PULUMI_LANGUAGE_NODEJS_RUN_PATH overrides it) as `node run-plugin <plugin dir> <args...>`
//     in the engine's working directory.
// Output is streamed back to the engine as it comes; the engine reads the plugin's port from the
// first line of stdout.

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"

	sdk "github.com/pulumi/pulumi/sdk/v3"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

const (
	runPolicyPackModule = "@pulumi/pulumi/cmd/run-policy-pack"
	runPluginModule     = "@pulumi/pulumi/cmd/run-plugin"
)

// pluginCommand is how a plugin is started: node's arguments, working directory and the module
// that was resolved.
type pluginCommand struct {
	module string
	args   []string
	dir    string
}

// pluginModule is the module RunPlugin resolves for a plugin of this kind.
func pluginModule(kind string) string {
	if kind == string(apitype.AnalyzerPlugin) {
		return runPolicyPackModule
	}
	if p := os.Getenv("PULUMI_LANGUAGE_NODEJS_RUN_PATH"); p != "" {
		return p
	}
	return runPluginModule
}

// pluginArgs orders node's arguments as the real host does, with one difference: `nodeargs` go
// before the script, where node reads them (the real host puts them after it, where they would
// reach the script as its own arguments).
func pluginArgs(req *pulumirpc.RunPluginRequest, runPath string, nodeArgs []string) pluginCommand {
	programDir := req.GetInfo().GetProgramDirectory()
	args := append(append([]string{}, nodeArgs...), runPath)
	if req.GetKind() == string(apitype.AnalyzerPlugin) {
		// Policy packs take the program directory last, and have always run in their own directory.
		args = append(append(args, req.GetArgs()...), programDir)
		return pluginCommand{module: runPath, args: args, dir: programDir}
	}
	args = append(append(args, programDir), req.GetArgs()...)
	return pluginCommand{module: runPath, args: args, dir: req.GetPwd()}
}

// stackConfigEnv is what a policy pack learns of the stack from its environment: the variables the
// real host sets from the engine's ConfigureStack request (empty values left out).
func stackConfigEnv(cfg *pulumirpc.AnalyzerStackConfigureRequest) ([]string, error) {
	if cfg == nil {
		return nil, nil
	}
	var env []string
	add := func(k, v string) {
		if v != "" {
			env = append(env, k+"="+v)
		}
	}
	add("PULUMI_NODEJS_ORGANIZATION", cfg.GetOrganization())
	add("PULUMI_NODEJS_PROJECT", cfg.GetProject())
	add("PULUMI_NODEJS_STACK", cfg.GetStack())
	add("PULUMI_NODEJS_DRY_RUN", strconv.FormatBool(cfg.GetDryRun()))
	if cfg.GetConfig() != nil {
		b, err := json.Marshal(cfg.GetConfig())
		if err != nil {
			return nil, fmt.Errorf("could not marshal stack configuration: %w", err)
		}
		add("PULUMI_CONFIG", string(b))
	}
	return env, nil
}

func (h *languageHost) RunPlugin(
	req *pulumirpc.RunPluginRequest, server pulumirpc.LanguageRuntime_RunPluginServer,
) error {
	ctx := server.Context()
	if req.GetAttachDebugger() {
		return errors.New("this Node.js language host cannot attach a debugger to plugins")
	}
	closer, stdout, stderr, err := rpcutil.MakeRunPluginStreams(server, false)
	if err != nil {
		return err
	}
	defer closer.Close()

	node, err := exec.LookPath("node")
	if err != nil {
		return errors.New("could not find node on PATH: install Node.js or put it on PATH")
	}
	opts := runtimeOptionsFrom(req.GetInfo().GetOptions())
	nodeArgs, err := shellSplit(opts.nodeArgs)
	if err != nil {
		return fmt.Errorf("invalid nodeargs runtime option: %w", err)
	}

	// The engine sends its whole environment (it is the plugin's, not ours).
	env := req.GetEnv()
	if len(env) == 0 {
		env = os.Environ()
	}
	env = append([]string{}, env...)
	if opts.typescript {
		env = append(env, "PULUMI_NODEJS_TYPESCRIPT=true")
	}
	if opts.tsconfigPath != "" {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+opts.tsconfigPath)
	}

	programDir := req.GetInfo().GetProgramDirectory()
	runPath, err := resolveModule(node, programDir, pluginModule(req.GetKind()), "npm install in "+programDir)
	if err != nil {
		return err
	}
	pc := pluginArgs(req, runPath, nodeArgs)

	var proxy *sdk.PolicyProxy
	if req.GetKind() == string(apitype.AnalyzerPlugin) {
		// The proxy prints its own port for the engine, then waits for the stack's configuration; the
		// pack's own stdout (its port first) goes to the proxy.
		proxy, stdout, err = sdk.NewPolicyProxy(ctx, stdout)
		if err != nil {
			return fmt.Errorf("could not start policy pack proxy: %w", err)
		}
		cfg, err := proxy.AwaitConfiguration(ctx)
		if err != nil {
			return fmt.Errorf("could not get stack configuration: %w", err)
		}
		more, err := stackConfigEnv(cfg)
		if err != nil {
			return err
		}
		env = append(env, more...)
	}

	cmd := exec.CommandContext(ctx, node, pc.args...)
	cmd.Dir = pc.dir
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("problem executing plugin program (could not run %s): %w", node, err)
	}
	if proxy != nil {
		// Waits for the pack to exit, serving the engine's calls through the proxy meanwhile.
		err = proxy.Attach(ctx, cmd)
	} else {
		err = cmd.Wait()
	}
	if err != nil {
		return pluginExitError(err)
	}
	return closer.Close()
}

func pluginExitError(err error) error {
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		if ws, ok := exitErr.Sys().(syscall.WaitStatus); ok {
			if ws.Signaled() {
				return fmt.Errorf("Program exited due to signal: %v", ws.Signal()) //nolint:staticcheck // the engine's wording
			}
			return fmt.Errorf("Program exited with non-zero exit code: %d", ws.ExitStatus()) //nolint:staticcheck
		}
		return fmt.Errorf("Program exited unexpectedly: %w", exitErr) //nolint:staticcheck
	}
	return err
}
