module github.com/firefox-rdp-mcp/firefox-rdp-mcp

go 1.26.0

require (
	github.com/gorilla/websocket v1.5.3 // indirect
	github.com/landlock-lsm/go-landlock v0.11.2 // indirect
	github.com/lmittmann/tint v1.2.1 // indirect
	github.com/modelcontextprotocol/go-sdk v1.8.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
	kernel.org/pub/linux/libs/security/libcap/psx v1.2.78 // indirect
)
