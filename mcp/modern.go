package mcp

import (
	"context"
	"encoding/json"
	"slices"
)

// The modern revision (2026-07-28) has no initialize handshake: every request
// carries its protocol version and the client's capabilities in its _meta,
// and the server answers each request on its own. These are the reserved
// _meta keys of that envelope and of a result's _meta.
const (
	metaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaClientInfo         = "io.modelcontextprotocol/clientInfo"
	metaServerInfo         = "io.modelcontextprotocol/serverInfo"
)

// codeUnsupportedProtocolVersion answers a modern request naming a version
// this server does not speak; its data lists the supported ones. The code is
// the one the 2026-07-28 schema and the official SDKs use.
const codeUnsupportedProtocolVersion = -32022

// modernVersions are the revisions served per request (no handshake);
// legacyVersions are negotiated by initialize. Newest first.
var (
	modernVersions = []string{"2026-07-28"}
	legacyVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}
)

// era is how one request is served: under the version its _meta names
// (modern) or under the one the session's initialize negotiated (legacy).
type era struct {
	version string
	modern  bool
}

// requestEra reads a request's era. A request whose params._meta names a
// protocol version is modern: the version must be one of modernVersions
// (-32022 otherwise, listing every supported version) and the envelope must
// carry the client's capabilities as an object (-32602 otherwise). Any other
// request is legacy, under the session's negotiated version.
func (c *conn) requestEra(m *message) (era, *rpcError) {
	legacy := era{version: c.version}
	members, rerr := paramsMembers(m.params)
	if rerr != nil {
		return legacy, nil // the method's handler reports it
	}
	meta, _ := objectMembers(members["_meta"])
	raw, ok := meta[metaProtocolVersion]
	if !ok {
		return legacy, nil
	}
	var requested string
	if raw[0] != '"' || json.Unmarshal(raw, &requested) != nil {
		return era{}, errorf(codeInvalidParams, "invalid params: _meta %q must be a string", metaProtocolVersion)
	}
	if !slices.Contains(modernVersions, requested) {
		e := errorf(codeUnsupportedProtocolVersion, "unsupported protocol version: %q", truncate(requested, 40))
		e.Data = struct {
			Supported []string `json:"supported"`
			Requested string   `json:"requested"`
		}{SupportedProtocolVersions(), truncate(requested, 40)}
		return era{}, e
	}
	if caps := meta[metaClientCapabilities]; caps == nil || caps[0] != '{' {
		return era{}, errorf(codeInvalidParams, "invalid params: _meta %q must be an object", metaClientCapabilities)
	}
	if info, ok := meta[metaClientInfo]; ok && info[0] != '{' {
		return era{}, errorf(codeInvalidParams, "invalid params: _meta %q must be an object", metaClientInfo)
	}
	if !c.modernSeen {
		c.modernSeen = true
		var client struct{ Name, Version string }
		_ = json.Unmarshal(meta[metaClientInfo], &client)
		c.log.Info("mcp modern request", "version", requested, "method", m.method,
			"client", truncate(client.Name, 64), "clientVersion", truncate(client.Version, 32))
	}
	return era{version: requested, modern: true}, nil
}

// modernFields are the members every modern result carries: its kind
// (always "complete" here: no tool asks the client for input) and the
// server's identity in _meta. Embedded in each result type; empty, they are
// left out for legacy clients.
type modernFields struct {
	ResultType string      `json:"resultType,omitempty"`
	Meta       *resultMeta `json:"_meta,omitempty"`
}

type resultMeta struct {
	ServerInfo serverInfo `json:"io.modelcontextprotocol/serverInfo"`
}

type serverInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// cacheFields are the cache hints of a modern cacheable result
// (tools/list, server/discover). ttlMs 0: a client asks again rather than
// keep an answer across a new build of the server under the same name.
type cacheFields struct {
	TTLMs      *int   `json:"ttlMs,omitempty"`
	CacheScope string `json:"cacheScope,omitempty"`
}

// modern returns the modern members for a result under e; zero for legacy.
func (c *conn) modern(e era) modernFields {
	if !e.modern {
		return modernFields{}
	}
	return modernFields{ResultType: "complete", Meta: &resultMeta{ServerInfo: c.serverInfo()}}
}

// cache returns the cache hints for a cacheable result under e.
func cache(e era) cacheFields {
	if !e.modern {
		return cacheFields{}
	}
	zero := 0
	return cacheFields{TTLMs: &zero, CacheScope: "private"}
}

func (c *conn) serverInfo() serverInfo {
	return serverInfo{Name: c.s.opts.Implementation.Name, Version: c.s.opts.Implementation.Version}
}

type toolsCap struct {
	ListChanged bool `json:"listChanged"`
}

type capabilities struct {
	Tools toolsCap `json:"tools"`
}

// discover answers server/discover: the versions this server speaks, its
// capabilities and instructions. It is a modern request only (its envelope
// is required); a legacy session learns the same from initialize.
func (c *conn) discover(_ context.Context, m *message, e era) (any, *rpcError) {
	if !e.modern {
		return nil, errorf(codeInvalidParams, "invalid params: server/discover needs _meta %q and %q", metaProtocolVersion, metaClientCapabilities)
	}
	return struct {
		modernFields
		cacheFields
		SupportedVersions []string     `json:"supportedVersions"`
		Capabilities      capabilities `json:"capabilities"`
		Instructions      string       `json:"instructions,omitempty"`
	}{
		modernFields:      c.modern(e),
		cacheFields:       cache(e),
		SupportedVersions: SupportedProtocolVersions(),
		Instructions:      c.s.opts.Instructions,
	}, nil
}
