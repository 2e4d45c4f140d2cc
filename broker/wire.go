package broker

import (
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
)

// Wire format. Every message is exactly one SOCK_SEQPACKET datagram of at
// most MaxMessage bytes: an 8-byte header (type, version, two zero bytes,
// request id, little-endian) and a body whose fields are all fixed-size or
// length-prefixed. A decoder consumes the body exactly: trailing bytes, a
// short field, an unknown type, a bad version or a non-zero reserved field
// make the message malformed, and a malformed message ends the session.
const (
	MaxMessage = 64 << 10 // bytes per datagram, header included
	MaxPath    = 4096     // bytes per path (PATH_MAX)
	MaxPaths   = 64       // paths per Stat call
	MaxName    = 1024     // bytes per basename in a reply
	MaxMIME    = 255      // bytes per MIME type in a reply
	MaxMsgText = 1024     // bytes per error message
	MaxData    = MaxMessage - headerSize - dataHeader

	version    = 1
	headerSize = 8
	dataHeader = 5 // flags u8 + length u32
)

// Message types.
const (
	tStatReq     = 1
	tStatResp    = 2
	tReadReq     = 3
	tReadResp    = 4
	tReleaseReq  = 5
	tReleaseResp = 6
	tErrorResp   = 7
	tHello       = 8
)

// wireCodes is the wire form of error codes: an ErrorResp carries the index
// of its code here as one byte (0 is never sent). The order is the wire
// format: append only. TestWireCodesPinned pins it.
var wireCodes = []errcode.Code{"", errcode.UploadFileInvalid, errcode.UploadTooLarge, errcode.BrokerProtocol}

// Message is one decoded protocol message.
type Message interface{ msgType() uint8 }

// StatReq asks the broker to validate and open paths.
type StatReq struct{ Paths []string }

// StatResp answers a StatReq with one entry per path, in order.
type StatResp struct{ Files []WireFile }

// WireFile is the metadata of one opened file.
type WireFile struct {
	Handle    uint32
	Size      int64
	ModTimeNS int64
	Name      string
	MIME      string
}

// ReadReq asks for the bytes of a handle from Offset on.
type ReadReq struct {
	Handle uint32
	Offset int64
}

// ReadResp carries at most MaxData bytes; Last says the file is complete
// and its identity was re-checked.
type ReadResp struct {
	Last bool
	Data []byte
}

// ReleaseReq closes handles (unknown handles are ignored).
type ReleaseReq struct{ Handles []uint32 }

// ReleaseResp acknowledges a ReleaseReq.
type ReleaseResp struct{}

// ErrorResp reports a refused request.
type ErrorResp struct {
	Code    errcode.Code
	Index   int32
	Message string
}

// Hello is the broker's first message, sent once it is confined and ready.
type Hello struct {
	Sandboxed   bool
	LandlockABI uint16
	Syscalls    uint16
}

func (Hello) msgType() uint8       { return tHello }
func (StatReq) msgType() uint8     { return tStatReq }
func (StatResp) msgType() uint8    { return tStatResp }
func (ReadReq) msgType() uint8     { return tReadReq }
func (ReadResp) msgType() uint8    { return tReadResp }
func (ReleaseReq) msgType() uint8  { return tReleaseReq }
func (ReleaseResp) msgType() uint8 { return tReleaseResp }
func (ErrorResp) msgType() uint8   { return tErrorResp }

// ErrMalformed is wrapped by every decoding failure.
var ErrMalformed = errors.New("broker: malformed message")

type enc struct{ b []byte }

func (e *enc) u8(v uint8)   { e.b = append(e.b, v) }
func (e *enc) u16(v uint16) { e.b = binary.LittleEndian.AppendUint16(e.b, v) }
func (e *enc) u32(v uint32) { e.b = binary.LittleEndian.AppendUint32(e.b, v) }
func (e *enc) u64(v uint64) { e.b = binary.LittleEndian.AppendUint64(e.b, v) }
func (e *enc) str16(s string) {
	e.u16(uint16(len(s)))
	e.b = append(e.b, s...)
}

// Encode appends the wire form of m with request id to dst.
func Encode(dst []byte, id uint32, m Message) ([]byte, error) {
	e := enc{b: dst}
	e.u8(m.msgType())
	e.u8(version)
	e.u16(0)
	e.u32(id)
	if err := e.body(m); err != nil {
		return nil, err
	}
	if len(e.b)-len(dst) > MaxMessage {
		return nil, fmt.Errorf("broker: message of %d bytes exceeds %d", len(e.b)-len(dst), MaxMessage)
	}
	return e.b, nil
}

// body appends m's fields: one encoder per message type.
func (e *enc) body(m Message) error {
	switch m := m.(type) {
	case StatReq:
		return m.encode(e)
	case StatResp:
		return m.encode(e)
	case ReadReq:
		return m.encode(e)
	case ReadResp:
		return m.encode(e)
	case ReleaseReq:
		return m.encode(e)
	case ReleaseResp:
		return nil
	case Hello:
		return m.encode(e)
	case ErrorResp:
		return m.encode(e)
	}
	return fmt.Errorf("broker: cannot encode %T", m)
}

func (e *enc) flag(v bool) {
	var fl uint8
	if v {
		fl = 1
	}
	e.u8(fl)
}

func (m StatReq) encode(e *enc) error {
	if len(m.Paths) == 0 || len(m.Paths) > MaxPaths {
		return fmt.Errorf("broker: %d paths (want 1..%d)", len(m.Paths), MaxPaths)
	}
	e.u16(uint16(len(m.Paths)))
	for _, p := range m.Paths {
		if len(p) == 0 || len(p) > MaxPath {
			return fmt.Errorf("broker: path of %d bytes (want 1..%d)", len(p), MaxPath)
		}
		e.str16(p)
	}
	return nil
}

func (m StatResp) encode(e *enc) error {
	if len(m.Files) == 0 || len(m.Files) > MaxPaths {
		return fmt.Errorf("broker: %d files in reply", len(m.Files))
	}
	e.u16(uint16(len(m.Files)))
	for _, f := range m.Files {
		if f.Size < 0 || len(f.Name) == 0 || len(f.Name) > MaxName || len(f.MIME) == 0 || len(f.MIME) > MaxMIME ||
			!utf8.ValidString(f.Name) || !utf8.ValidString(f.MIME) {
			return errors.New("broker: invalid file entry")
		}
		e.u32(f.Handle)
		e.u64(uint64(f.Size))
		e.u64(uint64(f.ModTimeNS))
		e.str16(f.Name)
		e.str16(f.MIME)
	}
	return nil
}

func (m ReadReq) encode(e *enc) error {
	if m.Offset < 0 {
		return errors.New("broker: negative offset")
	}
	e.u32(m.Handle)
	e.u64(uint64(m.Offset))
	return nil
}

func (m ReadResp) encode(e *enc) error {
	if len(m.Data) > MaxData {
		return errors.New("broker: data too large")
	}
	e.flag(m.Last)
	e.u32(uint32(len(m.Data)))
	e.b = append(e.b, m.Data...)
	return nil
}

func (m ReleaseReq) encode(e *enc) error {
	if len(m.Handles) > MaxPaths*4 {
		return errors.New("broker: too many handles")
	}
	e.u16(uint16(len(m.Handles)))
	for _, h := range m.Handles {
		e.u32(h)
	}
	return nil
}

func (m Hello) encode(e *enc) error {
	e.flag(m.Sandboxed)
	e.u16(m.LandlockABI)
	e.u16(m.Syscalls)
	return nil
}

func (m ErrorResp) encode(e *enc) error {
	c := codeNum(m.Code)
	if c == 0 || len(m.Message) > MaxMsgText || !utf8.ValidString(m.Message) {
		return errors.New("broker: invalid error reply")
	}
	e.u8(c)
	e.u32(uint32(m.Index))
	e.str16(m.Message)
	return nil
}

func codeNum(code errcode.Code) uint8 {
	for i, c := range wireCodes {
		if i > 0 && c == code {
			return uint8(i)
		}
	}
	return 0
}

type dec struct {
	b   []byte
	err error
}

func (d *dec) fail(what string) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s", ErrMalformed, what)
	}
}

func (d *dec) take(n int, what string) []byte {
	if d.err != nil {
		return nil
	}
	if n < 0 || len(d.b) < n {
		d.fail("short " + what)
		return nil
	}
	v := d.b[:n]
	d.b = d.b[n:]
	return v
}

func (d *dec) u8(what string) uint8 {
	if v := d.take(1, what); v != nil {
		return v[0]
	}
	return 0
}

func (d *dec) u16(what string) uint16 {
	if v := d.take(2, what); v != nil {
		return binary.LittleEndian.Uint16(v)
	}
	return 0
}

func (d *dec) u32(what string) uint32 {
	if v := d.take(4, what); v != nil {
		return binary.LittleEndian.Uint32(v)
	}
	return 0
}

func (d *dec) u64(what string) uint64 {
	if v := d.take(8, what); v != nil {
		return binary.LittleEndian.Uint64(v)
	}
	return 0
}

// str16 reads a u16-length-prefixed string of 1..max bytes.
func (d *dec) str16(limit int, utf bool, what string) string {
	n := int(d.u16(what + " length"))
	if d.err != nil {
		return ""
	}
	if n == 0 || n > limit {
		d.fail(what + " length out of range")
		return ""
	}
	v := d.take(n, what)
	if d.err != nil {
		return ""
	}
	if utf && !utf8.Valid(v) {
		d.fail(what + " is not UTF-8")
		return ""
	}
	return string(v)
}

// Decode parses one datagram. It never panics and accepts nothing but the
// exact encoding Encode produces.
func Decode(b []byte) (id uint32, m Message, err error) {
	if len(b) > MaxMessage {
		return 0, nil, fmt.Errorf("%w: %d bytes", ErrMalformed, len(b))
	}
	d := dec{b: b}
	typ, id := d.header()
	if d.err != nil {
		return 0, nil, d.err
	}
	if int(typ) < len(decoders) && decoders[typ] != nil {
		m = decoders[typ](&d)
	} else {
		d.fail(fmt.Sprintf("unknown type %d", typ))
	}
	if d.err == nil && len(d.b) != 0 {
		d.fail(fmt.Sprintf("%d trailing bytes", len(d.b)))
	}
	if d.err != nil {
		return 0, nil, d.err
	}
	return id, m, nil
}

// decoders reads each message type's body, indexed by type.
var decoders = [...]func(*dec) Message{
	tStatReq:     decodeStatReq,
	tStatResp:    decodeStatResp,
	tReadReq:     decodeReadReq,
	tReadResp:    decodeReadResp,
	tReleaseReq:  decodeReleaseReq,
	tReleaseResp: func(*dec) Message { return ReleaseResp{} },
	tErrorResp:   decodeErrorResp,
	tHello:       decodeHello,
}

// header reads the 8-byte header: type, version, reserved, request id.
func (d *dec) header() (typ uint8, id uint32) {
	typ = d.u8("type")
	if v := d.u8("version"); d.err == nil && v != version {
		d.fail("version")
	}
	if r := d.u16("reserved"); d.err == nil && r != 0 {
		d.fail("reserved bits")
	}
	return typ, d.u32("id")
}

// flag reads a flags byte that may only be 0 or 1.
func (d *dec) flag() bool {
	fl := d.u8("flags")
	if d.err == nil && fl > 1 {
		d.fail("flags")
	}
	return fl == 1
}

// count reads a u16 element count of lo..hi.
func (d *dec) count(lo, hi int, what string) int {
	n := int(d.u16("count"))
	if d.err == nil && (n < lo || n > hi) {
		d.fail(what)
	}
	return n
}

func decodeStatReq(d *dec) Message {
	n := d.count(1, MaxPaths, "path count")
	var req StatReq
	for i := 0; i < n && d.err == nil; i++ {
		req.Paths = append(req.Paths, d.str16(MaxPath, false, "path"))
	}
	return req
}

func decodeStatResp(d *dec) Message {
	n := d.count(1, MaxPaths, "file count")
	var resp StatResp
	for i := 0; i < n && d.err == nil; i++ {
		var f WireFile
		f.Handle = d.u32("handle")
		f.Size = int64(d.u64("size"))
		f.ModTimeNS = int64(d.u64("mtime"))
		f.Name = d.str16(MaxName, true, "name")
		f.MIME = d.str16(MaxMIME, true, "mime")
		if d.err == nil && f.Size < 0 {
			d.fail("size")
		}
		resp.Files = append(resp.Files, f)
	}
	return resp
}

func decodeReadReq(d *dec) Message {
	var req ReadReq
	req.Handle = d.u32("handle")
	req.Offset = int64(d.u64("offset"))
	if d.err == nil && req.Offset < 0 {
		d.fail("offset")
	}
	return req
}

func decodeReadResp(d *dec) Message {
	var resp ReadResp
	resp.Last = d.flag()
	n := int(d.u32("data length"))
	if d.err == nil && n > MaxData {
		d.fail("data length")
	}
	resp.Data = d.take(n, "data")
	return resp
}

func decodeReleaseReq(d *dec) Message {
	n := d.count(0, MaxPaths*4, "handle count")
	var req ReleaseReq
	for i := 0; i < n && d.err == nil; i++ {
		req.Handles = append(req.Handles, d.u32("handle"))
	}
	return req
}

func decodeHello(d *dec) Message {
	var h Hello
	h.Sandboxed = d.flag()
	h.LandlockABI = d.u16("abi")
	h.Syscalls = d.u16("syscalls")
	return h
}

func decodeErrorResp(d *dec) Message {
	var resp ErrorResp
	c := d.u8("code")
	if d.err == nil && (c == 0 || int(c) >= len(wireCodes)) {
		d.fail("error code")
	}
	if d.err == nil {
		resp.Code = wireCodes[c]
	}
	resp.Index = int32(d.u32("index"))
	resp.Message = d.str16(MaxMsgText, true, "message")
	return resp
}

// ValidatePath applies the lexical checks every upload path must pass
// before anything touches the filesystem: absolute, already clean
// (filepath.Clean(p) == p rules out "..", "/./", "//" and a trailing "/"),
// no NUL, at most MaxPath bytes. It returns a reason safe to show.
func ValidatePath(p string) (reason string, ok bool) {
	switch {
	case p == "":
		return "path is empty", false
	case len(p) > MaxPath:
		return fmt.Sprintf("path is longer than %d bytes", MaxPath), false
	case strings.IndexByte(p, 0) >= 0:
		return "path contains a NUL byte", false
	case !strings.HasPrefix(p, "/"):
		return "path is not absolute", false
	case len(p) > 1 && strings.HasSuffix(p, "/") && filepath.Clean(p) == p[:len(p)-1]:
		return `path ends in "/", so it names a directory: only regular files can be uploaded`, false
	case filepath.Clean(p) != p:
		return `path is not clean (contains "..", "." or "//" components or a trailing "/")`, false
	case p == "/":
		return "path is a directory (/): only regular files can be uploaded", false
	}
	return "", true
}

// RootFor returns the root that contains p and p relative to it. A root
// matches only as root+"/" (so /tmp/root never matches /tmp/rootx/…); the
// root "/" matches every absolute path. p must have passed ValidatePath.
func RootFor(roots []string, p string) (idx int, rel string, ok bool) {
	best := -1
	for i, r := range roots {
		var prefix string
		if r == "/" {
			prefix = "/"
		} else {
			prefix = r + "/"
		}
		if strings.HasPrefix(p, prefix) && len(p) > len(prefix) {
			if best < 0 || len(r) > len(roots[best]) {
				best, rel = i, p[len(prefix):]
			}
		}
	}
	return best, rel, best >= 0
}
