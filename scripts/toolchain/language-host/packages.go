package main

// Which provider plugins a program needs, found the way Pulumi's own pulumi-language-nodejs finds
// them: every package.json under a node_modules directory below the program whose `pulumi` section
// says `"resource": true` names a plugin (its `pulumi.name`, or the package name for `@pulumi/*`
// packages) at a version (`pulumi.version`, else the package's own). The engine uses the list to
// check, before a deployment, that each plugin is there (a project plugin of Pulumi.yaml, one on
// PATH or one installed under PULUMI_HOME; only when none is found does it try a download, and not
// even then with PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION), and to version the default provider
// of a package whose resources arrive without a version.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func (h *languageHost) GetRequiredPackages(
	_ context.Context, req *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	dir := req.GetInfo().GetProgramDirectory()
	sdkVersions := map[string]semver.Version{}
	// As in the real host, errors (an unreadable directory, a broken package.json, a third-party
	// package that does not name its plugin) are not the program's problem: what could be read is
	// reported and the rest left out, silently (the real host logs them only at -v=3).
	packages, err := packagesFromDir(dir, sdkVersions, false, map[string]struct{}{})
	if err == nil {
		if msg := incompatibleSDKs(sdkVersions); msg != "" {
			fmt.Fprint(os.Stderr, msg)
		}
	}
	return &pulumirpc.GetRequiredPackagesResponse{Packages: packages}, nil
}

// GetRequiredPlugins is superseded by GetRequiredPackages; like the real host we leave it
// unimplemented (the engine only falls back to it for hosts without GetRequiredPackages).
func (h *languageHost) GetRequiredPlugins(
	context.Context, *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return nil, status.Errorf(codes.Unimplemented, "method GetRequiredPlugins not implemented")
}

// packagesFromDir walks dir (following symbolic links, each real directory once), reading only
// package.json files inside node_modules, and skipping policy packs: their plugins are not the
// program's.
func packagesFromDir(
	dir string, sdkVersions map[string]semver.Version, inNodeModules bool, visited map[string]struct{},
) ([]*pulumirpc.PackageDependency, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("getting the full path of %s: %w", dir, err)
	}
	if _, seen := visited[dir]; seen {
		return nil, nil
	}
	visited[dir] = struct{}{}

	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", dir, err)
	}
	var packages []*pulumirpc.PackageDependency
	var errs []error
	for _, entry := range entries {
		path := filepath.Join(dir, entry.Name())
		isDir := entry.IsDir()
		if entry.Type()&fs.ModeSymlink != 0 {
			resolved, err := filepath.EvalSymlinks(path)
			if err != nil {
				errs = append(errs, fmt.Errorf("resolving link %s: %w", path, err))
				continue
			}
			fi, err := os.Stat(resolved)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			path, isDir = resolved, fi.IsDir()
		}

		if isDir {
			pack, err := workspace.DetectPolicyPackPathAt(path)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if pack != "" {
				continue
			}
			more, err := packagesFromDir(path, sdkVersions, inNodeModules || filepath.Base(dir) == "node_modules", visited)
			if err != nil {
				errs = append(errs, err)
			}
			packages = append(packages, more...)
			continue
		}
		if !inNodeModules || entry.Name() != "package.json" {
			continue
		}
		dep, err := packageFromManifest(path, sdkVersions)
		if err != nil {
			errs = append(errs, err)
		} else if dep != nil {
			packages = append(packages, dep)
		}
	}
	return packages, errors.Join(errs...)
}

// packageJSON is what we read of a package.json.
type packageJSON struct {
	Name    string                  `json:"name"`
	Version string                  `json:"version"`
	Pulumi  plugin.PulumiPluginJSON `json:"pulumi"`
}

// packageFromManifest returns the plugin a package.json names, or nil when it names none. It also
// notes where each copy of @pulumi/pulumi is.
func packageFromManifest(path string, sdkVersions map[string]semver.Version) (*pulumirpc.PackageDependency, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	var info packageJSON
	if err := json.Unmarshal(b, &info); err != nil {
		return nil, fmt.Errorf("parsing %s: %w", path, err)
	}
	if info.Name == "@pulumi/pulumi" {
		v, err := semver.Parse(info.Version)
		if err != nil {
			return nil, fmt.Errorf("could not understand version %s in %s: %w", info.Version, path, err)
		}
		sdkVersions[path] = v
	}
	if !info.Pulumi.Resource {
		return nil, nil
	}
	name, err := pluginName(info)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	version, err := pluginVersion(info)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	dep := &pulumirpc.PackageDependency{Name: name, Kind: "resource", Version: version, Server: info.Pulumi.Server}
	rpcParam := func(p *plugin.PulumiParameterizationJSON) *pulumirpc.PackageParameterization {
		if p == nil {
			return nil
		}
		return &pulumirpc.PackageParameterization{Name: p.Name, Version: p.Version, Value: p.Value}
	}
	dep.Parameterization = rpcParam(info.Pulumi.Parameterization)
	dep.Extension = rpcParam(info.Pulumi.ExtensionParameterization)
	return dep, nil
}

// pluginName: `pulumi.name`, else the name of an `@pulumi/` package without its scope. Any other
// package must say its plugin's name.
func pluginName(info packageJSON) (string, error) {
	if info.Pulumi.Name != "" {
		return info.Pulumi.Name, nil
	}
	if info.Name == "" {
		return "", errors.New(`missing expected "name" property`)
	}
	if rest, ok := strings.CutPrefix(info.Name, "@pulumi/"); ok {
		return rest, nil
	}
	return "", fmt.Errorf(`missing property "name" for the third-party plugin '%v' inside package.json `+
		`under the "pulumi" section`, info.Name)
}

// pluginVersion: `pulumi.version`, else the package's version, with a leading v.
func pluginVersion(info packageJSON) (string, error) {
	v := info.Pulumi.Version
	if v == "" {
		v = info.Version
	}
	if v == "" {
		return "", errors.New(`missing expected "version" property`)
	}
	if !strings.HasPrefix(v, "v") {
		v = "v" + v
	}
	return v, nil
}

// incompatibleSDKs returns the real host's warning when two copies of @pulumi/pulumi cannot share
// one process's state (different major versions, or different minor ones before 1.0), else "".
func incompatibleSDKs(versions map[string]semver.Version) string {
	paths := make([]string, 0, len(versions))
	for p := range versions {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	if len(paths) < 2 {
		return ""
	}
	first := paths[0]
	for _, p := range paths[1:] {
		if ok, why := compatibleVersions(versions[p], versions[first]); !ok {
			return fmt.Sprintf("Found incompatible versions of @pulumi/pulumi. %s\n  Version %s referenced at %s\n"+
				"  Version %s referenced at %s\n", why, versions[first], first, versions[p], p)
		}
	}
	return ""
}

func compatibleVersions(a, b semver.Version) (bool, string) {
	switch {
	case a.Major == 0 && b.Major == 0:
		if a.Minor != b.Minor {
			return false, "Differing major or minor versions are not supported."
		}
	case a.Major >= 1 && a.Major <= 2 && b.Major >= 1 && b.Major <= 2:
	case a.Major > 2 || b.Major > 2:
		if a.Major != b.Major {
			return false, "Differing major versions are not supported."
		}
	case a.Major == 1 && b.Major == 0 && b.Minor == 17 || b.Major == 1 && a.Major == 0 && a.Minor == 17:
	default:
		return false, "Differing major or minor versions are not supported."
	}
	return true, ""
}
