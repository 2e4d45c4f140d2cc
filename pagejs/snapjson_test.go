package pagejs

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// The generic decoder the hand-written one replaced (encoding/json into [][]any,
// columns picked by hand), kept as the reference it must agree with.

// decode decodes a result; a compressed one ({z}) only when compressed is
// allowed, so a page cannot nest compression.
func (r *SnapshotResult) decodeGeneric(b []byte, compressed bool) error {
	type plain SnapshotResult
	var w struct {
		plain
		Rows     [][]any         `json:"rows"`
		Elements json.RawMessage `json:"elements"` // not part of the format: ignored like any unknown key
		Z        *string         `json:"z"`        // base64 of the deflated JSON of a large result
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	if w.Z != nil {
		if !compressed {
			return errors.New("snapshot: nested compression")
		}
		inner, err := inflate(*w.Z)
		if err != nil {
			return fmt.Errorf("snapshot: %w", err)
		}
		return r.decodeGeneric(inner, false)
	}
	*r = SnapshotResult(w.plain)
	if w.Rows == nil {
		return nil
	}
	r.Elements = make([]Element, len(w.Rows))
	prev := "" // the previous row's joined selector
	for i, row := range w.Rows {
		if len(row) != 8 {
			return fmt.Errorf("snapshot row %d: %d columns, want 8", i, len(row))
		}
		var cols [5]string
		for j := range cols {
			s, ok := row[j].(string)
			if !ok {
				return fmt.Errorf("snapshot row %d: column %d is not a string", i, j)
			}
			cols[j] = s
		}
		k, ok1 := row[5].(float64)
		rest, ok2 := row[6].(string)
		if !ok1 || !ok2 || k < 0 || k != float64(int(k)) {
			return fmt.Errorf("snapshot row %d: bad selector columns", i)
		}
		sel, ok := joinPrefix(prev, int(k), rest)
		if !ok {
			return fmt.Errorf("snapshot row %d: selector prefix %v out of range", i, k)
		}
		prev = sel
		e := &r.Elements[i]
		e.Tag, e.Role, e.Type, e.Name = cols[0], cols[1], cols[2], cols[3]
		e.FP = Fingerprint{Tag: cols[0], Role: cols[1], Type: cols[2], Name: cols[3], Href: cols[4]}
		e.Sel = strings.Split(sel, "\n")
		if extra, ok := row[7].(map[string]any); ok {
			if err := e.setExtra(extra); err != nil {
				return fmt.Errorf("snapshot row %d: %w", i, err)
			}
		} else if n, ok := row[7].(float64); !ok || n != 0 {
			return fmt.Errorf("snapshot row %d: bad extra column", i)
		}
	}
	return nil
}

// snapshotSeeds are realistic and hostile snapshot values.
var snapshotSeeds = []string{
	`{"title":"T","url":"u","total":3,"truncatedElements":0,"textTotal":0,"rows":[
		["button","button","","Go","",0,"#app>button",0],
		["a","link","","Ünïcødé 😀","http://x/y",5,"a:nth-of-type(2)",{"href":"/y","disabled":true,"checked":false}],
		["input","textbox","text","Q","",0,"#h\u00e9\n:host>input",{"value":"v \"q\" \\ \ud83d\ude00","required":true}],
		["input","textbox","text","R","",3,"x\n:host>input",0]]}`,
	`{"title":"","url":"","rows":[],"total":0,"truncatedElements":0,"text":"a\nb","textTotal":3}`,
	`{"title":"T","url":"u","total":3,"truncatedElements":0,"rows":[["button","button","","Go","",0,"#x",0]],"seq":7,"base":6,"runs":[0,2,1]}`,
	`{"same":6}`,
	`{"title":null,"rows":null,"extra":[1,{"a":[true,null,-1.5e3]}],"total":7}`,
	`{"rows":[["a","","","","",0,"x",{"checked":"yes"}]]}`,
	`{"rows":[["a","","","","",0.5,"x",0]]}`,
	`{"rows":[["a","","","","",5,"x",0]]}`,
	`{"rows":[["a","","","","",0,"x",1]]}`,
	`{"rows":[["\ud800","bad \xff utf8","","","",0,"x",0]]}`,
	`{"z":"AAAA"}`,
	`{"title":"x"} trailing`,
	`[1,2]`,
	`{"total":01}`,
	`{"total":1e2}`,
	`{"total":-1}`,
	`{"a":}`,
	`{"a":[}`,
	`{"a":"\u0001"}`,
	"{\"a\":\"\x01\"}",
}

// FuzzSnapshotDecode: the hand-written decoder never panics, never accepts what
// the generic one refuses, and decodes exactly as it does.
func FuzzSnapshotDecode(f *testing.F) {
	for _, s := range snapshotSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, z, err := decodeSnapshot(b, false)
		if err != nil {
			return
		}
		var want SnapshotResult
		if gerr := want.decodeGeneric(b, false); gerr != nil {
			t.Fatalf("accepted what encoding/json refuses (%v):\n%q", gerr, b)
		}
		if z != nil {
			return // (compression is refused at this level by both)
		}
		if !reflect.DeepEqual(got, want) {
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			t.Fatalf("decoded differently:\n got %s\nwant %s\ninput %q", g, w, b)
		}
	})
}

// TestSnapshotDecodeAgrees: on well-formed values both decoders succeed alike.
func TestSnapshotDecodeAgrees(t *testing.T) {
	for _, s := range snapshotSeeds[:3] {
		got, _, err := decodeSnapshot([]byte(s), false)
		var want SnapshotResult
		if werr := want.decodeGeneric([]byte(s), false); err != nil || werr != nil {
			t.Fatalf("%s: %v / %v", s, err, werr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: decoded differently", s)
		}
	}
	if _, _, err := decodeSnapshot([]byte(`{"z":"AAAA"}`), false); err == nil || !strings.Contains(err.Error(), "nested") {
		t.Errorf("nested compression: %v", err)
	}
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	if _, _, err := decodeSnapshot([]byte(`{"x":`+deep+`}`), false); err != nil && !errors.Is(err, errSyntax) {
		t.Errorf("deep nesting: %v", err)
	}
}

// largeRows is a 3,000-row value like the large fixture's.
func largeRows() []byte {
	var b strings.Builder
	b.WriteString(`{"title":"Large","url":"http://127.0.0.1/large.html","total":3000,"truncatedElements":0,"rows":[`)
	for i := 0; i < 3000; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		k := min(i, 1) * 5 // the first row shares no prefix
		switch i % 3 {
		case 0:
			fmt.Fprintf(&b, `["a","link","","Job posting number %d","http://127.0.0.1/jobs/%d",%d,"li:nth-of-type(%d)>a",{"href":"/jobs/%d"}]`, i, i, k, i, i)
		case 1:
			fmt.Fprintf(&b, `["button","button","","Apply %d","",%d,"button:nth-of-type(%d)",0]`, i, k, i)
		default:
			fmt.Fprintf(&b, `["input","textbox","text","Note %d","",%d,"#note-%d",{"value":"v%d","required":true}]`, i, k, i, i)
		}
	}
	b.WriteString(`],"textTotal":0}`)
	return []byte(b.String())
}

func BenchmarkSnapshotDecode(b *testing.B) {
	doc := largeRows()
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.DefaultCompression)
	w.Write(doc)
	w.Close()
	z, _ := json.Marshal(map[string]string{"z": base64.StdEncoding.EncodeToString(buf.Bytes())})
	b.Run("handwritten", func(b *testing.B) {
		for b.Loop() {
			var r SnapshotResult
			if err := json.Unmarshal(z, &r); err != nil || len(r.Elements) != 3000 {
				b.Fatal(err)
			}
		}
	})
	b.Run("inflate", func(b *testing.B) {
		var w struct{ Z string }
		json.Unmarshal(z, &w)
		for b.Loop() {
			if _, err := inflate(w.Z); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("rows", func(b *testing.B) {
		for b.Loop() {
			if r, _, err := decodeSnapshot(doc, false); err != nil || len(r.Elements) != 3000 {
				b.Fatal(err)
			}
		}
	})
	b.Run("generic", func(b *testing.B) {
		for b.Loop() {
			var r SnapshotResult
			if err := r.decodeGeneric(z, true); err != nil || len(r.Elements) != 3000 {
				b.Fatal(err)
			}
		}
	})
}

// TestNearRows: the near texts decode beside the rows, and NearRows ignores
// what the page got wrong (an index out of range, a text missing or empty).
func TestNearRows(t *testing.T) {
	var r SnapshotResult
	doc := `{"title":"","url":"","total":3,"rows":[["button","button","","Remove","",0,"#a",0],["button","button","","Remove","",0,"#b",0],["button","button","","Ok","",0,"#c",0]],"nearAt":[0,1,7,2],"near":["Rust","Go","x"]}`
	if err := json.Unmarshal([]byte(doc), &r); err != nil {
		t.Fatal(err)
	}
	if got := r.NearRows(); len(got) != 3 || got[0] != "Rust" || got[1] != "Go" || got[2] != "" {
		t.Errorf("near rows %q", got)
	}
	r.NearAt, r.Near = []int{0}, []string{""}
	if got := r.NearRows(); got != nil {
		t.Errorf("an empty near text: %q", got)
	}
}
