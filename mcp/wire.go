package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"
)

// JSON-RPC 2.0 error codes, plus the one MCP-ecosystem code we use.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
	codeInternalError  = -32603
	codeNotInitialized = -32002
)

// rpcError is a JSON-RPC error object.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("jsonrpc error %d: %s", e.Code, e.Message) }

func errorf(code int, format string, args ...any) *rpcError {
	return &rpcError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// nullID is the id of an error reply to a message whose id could not be read.
var nullID = json.RawMessage("null")

// response is one outgoing JSON-RPC response. Exactly one of Result and
// Error is set.
type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// notification is one outgoing JSON-RPC notification.
type notification struct {
	JSONRPC string `json:"jsonrpc"`
	Method  string `json:"method"`
	Params  any    `json:"params"`
}

// lineReader splits a byte stream into lines of at most max bytes (not
// counting the delimiter) without ever buffering more than max+2 bytes of one
// line: the rest of an oversize line is read and discarded.
type lineReader struct {
	r   *bufio.Reader
	max int
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// next returns the next line with its delimiter ("\n" or "\r\n") removed.
// tooLong reports an oversize line, whose bytes are not returned. A final
// line without delimiter is returned before io.EOF.
func (lr *lineReader) next() (line []byte, tooLong bool, err error) {
	var buf []byte
	read := 0
	for {
		chunk, rerr := lr.r.ReadSlice('\n')
		read += len(chunk)
		if !tooLong {
			if len(buf)+len(chunk) > lr.max+2 {
				tooLong, buf = true, nil
			} else {
				buf = append(buf, chunk...)
			}
		}
		switch {
		case rerr == nil:
		case errors.Is(rerr, bufio.ErrBufferFull):
			continue
		case rerr == io.EOF && read > 0:
			// A final unterminated line; EOF comes on the next call.
		default:
			return nil, false, rerr
		}
		break
	}
	if tooLong {
		return nil, true, nil
	}
	if n := len(buf); n > 0 && buf[n-1] == '\n' {
		buf = bytes.TrimSuffix(buf[:n-1], []byte("\r"))
	}
	if len(buf) > lr.max {
		return nil, true, nil
	}
	return buf, false, nil
}

// message is one decoded incoming JSON-RPC message.
type message struct {
	id       json.RawMessage // nil for a notification
	method   string
	params   json.RawMessage // nil when absent
	response bool            // a response (result or error, no method); never answered
	result   json.RawMessage // a response's result, nil when absent
	rpcErr   json.RawMessage // a response's error, nil when absent
}

func (m *message) isNotification() bool { return m.id == nil }

// decodeMessage applies the checks of seed §9.1 (after the size check and
// delimiter removal, which the line reader does) to one input line. On
// failure it returns the error and the id to answer with: the message's id
// when it could be read, null otherwise, and nil when the message is a
// notification and so must not be answered.
func decodeMessage(line []byte) (*message, json.RawMessage, *rpcError) {
	if !utf8.Valid(line) {
		return nil, nullID, errorf(codeParseError, "parse error: input is not valid UTF-8")
	}
	if len(bytes.TrimLeft(line, " \t\r\n")) == 0 {
		return nil, nullID, errorf(codeParseError, "parse error: empty line")
	}
	if !json.Valid(line) {
		return nil, nullID, errorf(codeParseError, "parse error: invalid JSON")
	}
	switch bytes.TrimLeft(line, " \t\r\n")[0] {
	case '{':
	case '[':
		return nil, nullID, errorf(codeInvalidRequest, "invalid request: batches are not supported")
	default:
		return nil, nullID, errorf(codeInvalidRequest, "invalid request: message must be a JSON object")
	}
	members, dup := objectMembers(line)
	if members == nil {
		return nil, nullID, errorf(codeParseError, "parse error: invalid JSON")
	}
	if dup == "id" {
		return nil, nullID, errorf(codeInvalidRequest, "invalid request: duplicate member %q", dup)
	}
	m := &message{}
	if raw, ok := members["id"]; ok {
		if !validID(raw) {
			return nil, nullID, errorf(codeInvalidRequest, "invalid request: id must be a string or a number")
		}
		m.id = raw
	}
	// From here on a notification is never answered: replyID is nil for one.
	replyID := m.id
	if dup != "" {
		return nil, replyID, errorf(codeInvalidRequest, "invalid request: duplicate member %q", dup)
	}
	var version string
	if raw, ok := members["jsonrpc"]; !ok || json.Unmarshal(raw, &version) != nil || version != "2.0" {
		return nil, replyID, errorf(codeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`)
	}
	rawMethod, hasMethod := members["method"]
	if !hasMethod {
		result, hasResult := members["result"]
		rpcErr, hasError := members["error"]
		if m.id != nil && (hasResult || hasError) {
			m.response, m.result, m.rpcErr = true, result, rpcErr
			return m, nil, nil
		}
		return nil, replyID, errorf(codeInvalidRequest, `invalid request: "method" is missing`)
	}
	if rawMethod[0] != '"' || json.Unmarshal(rawMethod, &m.method) != nil {
		return nil, replyID, errorf(codeInvalidRequest, `invalid request: "method" must be a string`)
	}
	if raw, ok := members["params"]; ok {
		if raw[0] != '{' {
			return nil, replyID, errorf(codeInvalidRequest, `invalid request: "params" must be an object`)
		}
		m.params = raw
	}
	return m, nil, nil
}

// objectMembers splits a valid JSON object into its members, exact-case. dup
// names the first member that occurs twice (members then holds the first
// occurrence of each name). members is nil when obj is not a JSON object.
func objectMembers(obj []byte) (members map[string]json.RawMessage, dup string) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, ""
	}
	members = make(map[string]json.RawMessage)
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, ""
		}
		key, _ := t.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, ""
		}
		if _, seen := members[key]; seen {
			if dup == "" {
				dup = key
			}
			continue
		}
		members[key] = raw
	}
	return members, dup
}

// validID reports whether raw (one valid JSON value) is a JSON-RPC request
// id: a string or a number. Null is reserved for error replies.
func validID(raw json.RawMessage) bool {
	return len(raw) > 0 && (raw[0] == '"' || raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9'))
}

// idKey is the in-flight table key for an id: strings by value (so escapes
// do not matter), numbers by their text.
func idKey(raw json.RawMessage) (string, bool) {
	if !validID(raw) {
		return "", false
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "", false
		}
		return "s" + s, true
	}
	if f, err := strconv.ParseFloat(string(raw), 64); err == nil && f == float64(int64(f)) {
		return "n" + strconv.FormatInt(int64(f), 10), true
	}
	return "n" + string(raw), true
}

// paramsMembers splits a params object (nil = absent = empty) into members,
// rejecting duplicates with -32602.
func paramsMembers(params json.RawMessage) (map[string]json.RawMessage, *rpcError) {
	if params == nil {
		return map[string]json.RawMessage{}, nil
	}
	members, dup := objectMembers(params)
	if members == nil {
		return nil, errorf(codeInvalidParams, "invalid params: not an object")
	}
	if dup != "" {
		return nil, errorf(codeInvalidParams, "invalid params: duplicate member %q", dup)
	}
	return members, nil
}

// stringMember reads members[name] as a JSON string.
func stringMember(members map[string]json.RawMessage, name string) (s string, present bool, ok bool) {
	raw, present := members[name]
	if !present {
		return "", false, true
	}
	if raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", true, false
	}
	return s, true, true
}
