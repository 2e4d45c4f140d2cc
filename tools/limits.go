package tools

// AnswerBound is the most bytes one answer of a tool takes (its text and its
// structuredContent as JSON, images as base64) at the default limits
// (FIREFOX_MCP_MAX_ELEMENTS=500, FIREFOX_MCP_MAX_TEXT_CHARS=50000), whatever the
// page holds; docs/limits.md explains each row. A page string costs at most
// ten bytes a rune once escaped and JSON-encoded. The official TypeScript
// client drops a session at 10 MiB, so every row stays well under that.
// TestAnswersBounded holds the tools to it on a hostile page.
func AnswerBound(tool string) int {
	if b, ok := answerBounds[tool]; ok {
		return b
	}
	return 4 << 20
}

var answerBounds = map[string]int{
	"browser_status":   64 << 10, // a title (200 runes) and a URL (500), in text and structured
	"select_tab":       64 << 10, // the same
	"new_tab":          64 << 10, // the same
	"close_tab":        64 << 10, // the tab's id and what was selected
	"list_tabs":        9 << 19,  // ≤ 1,000 tabs × ≈4 KiB (title 80 and URL 120 runes, twice)
	"screenshot":       9 << 19,  // ≤ 3 MiB image as base64 (4 MiB) and a caption
	"console_messages": 1 << 20,  // ≤ 40,000 characters of messages
	"network_requests": 1 << 20,  // ≤ 40,000 characters of requests
	"network_request":  5 << 20,  // ≤ 2×200 headers × 1,100 runes, a 20,000-character body
	"snapshot_page":    4 << 20,  // ≤ 500 lines (each part cut) and 50,000 characters of text
}
