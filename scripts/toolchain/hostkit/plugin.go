package hostkit

import (
	"context"
	"sync"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/emptypb"
)

// Plugin is what every language host answers alike: its version (GetPluginInfo) and the engine's
// address, which the engine may hand over in Handshake instead of on the command line. A host
// embeds it (a pointer); every method it does not implement answers Unimplemented.
type Plugin struct {
	pulumirpc.UnimplementedLanguageRuntimeServer

	version string

	mu         sync.Mutex
	engineAddr string
}

// NewPlugin is a host reporting version, serving the engine at engineAddr until Handshake says
// otherwise.
func NewPlugin(version, engineAddr string) *Plugin {
	return &Plugin{version: version, engineAddr: engineAddr}
}

func (p *Plugin) Handshake(
	_ context.Context, req *pulumirpc.LanguageHandshakeRequest,
) (*pulumirpc.LanguageHandshakeResponse, error) {
	if req.GetEngineAddress() != "" {
		p.mu.Lock()
		p.engineAddr = req.GetEngineAddress()
		p.mu.Unlock()
	}
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (p *Plugin) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: p.version}, nil
}

// EngineAddr is the engine's address, as the command line or the handshake gave it.
func (p *Plugin) EngineAddr() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.engineAddr
}
