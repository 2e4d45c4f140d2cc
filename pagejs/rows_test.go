package pagejs

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestSnapshotRows: the compact row format of js/snapshot.js decodes into
// the same Elements the verbose form would, selector prefixes counted in
// UTF-16 units (non-ASCII ids included).
func TestSnapshotRows(t *testing.T) {
	raw := `{"title":"T","url":"u","total":3,"truncatedElements":0,"textTotal":0,"rows":[
		["button","button","","Go","",0,"#app>button",0],
		["a","link","","Ünïcødé 😀","http://x/y",5,"a:nth-of-type(2)",{"href":"/y","disabled":true,"checked":false}],
		["input","textbox","text","Q","",0,"#h\u00e9\n:host>input",{"value":"v","required":true}],
		["input","textbox","text","R","",3,"x\n:host>input",0]]}`
	var r SnapshotResult
	if err := json.Unmarshal([]byte(raw), &r); err != nil {
		t.Fatal(err)
	}
	f := false
	v := "v"
	want := []Element{
		{Tag: "button", Role: "button", Name: "Go", Sel: Sel{"#app>button"}, FP: Fingerprint{Tag: "button", Role: "button", Name: "Go"}},
		{Tag: "a", Role: "link", Name: "Ünïcødé 😀", Href: "/y", Disabled: true, Checked: &f, Sel: Sel{"#app>a:nth-of-type(2)"},
			FP: Fingerprint{Tag: "a", Role: "link", Name: "Ünïcødé 😀", Href: "http://x/y"}},
		{Tag: "input", Role: "textbox", Type: "text", Name: "Q", Value: &v, Required: true, Sel: Sel{"#hé", ":host>input"},
			FP: Fingerprint{Tag: "input", Role: "textbox", Type: "text", Name: "Q"}},
		{Tag: "input", Role: "textbox", Type: "text", Name: "R", Sel: Sel{"#héx", ":host>input"},
			FP: Fingerprint{Tag: "input", Role: "textbox", Type: "text", Name: "R"}},
	}
	if !reflect.DeepEqual(r.Elements, want) {
		got, _ := json.Marshal(r.Elements)
		exp, _ := json.Marshal(want)
		t.Errorf("elements:\n got %s\nwant %s", got, exp)
	}
	for _, bad := range []string{
		`{"rows":[["a","","","","",0,"x"]]}`,                   // 7 columns
		`{"rows":[["a","","","","",5,"x",0]]}`,                 // prefix beyond the previous selector
		`{"rows":[["a","","","","",0.5,"x",0]]}`,               // fractional prefix
		`{"rows":[["a","","","","",0,"x",{"onclick":"y"}]]}`,   // unknown field
		`{"rows":[["a","","","","",0,"x",{"checked":"yes"}]]}`, // wrong type
		`{"rows":[[1,"","","","",0,"x",0]]}`,                   // tag not a string
		`{"rows":[["a","","","","",0,"x",1]]}`,                 // extra neither 0 nor an object
	} {
		var r SnapshotResult
		if err := json.Unmarshal([]byte(bad), &r); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}

func deflated(t *testing.T, b []byte) string {
	t.Helper()
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestSpeed)
	w.Write(b)
	w.Close()
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}

// TestSnapshotCompressed: a deflated result decodes like the plain one; a
// nested one and one that inflates beyond MaxInflated are refused.
func TestSnapshotCompressed(t *testing.T) {
	plain := `{"title":"T","url":"u","total":1,"truncatedElements":0,"textTotal":0,"rows":[["button","button","","Go","",0,"#b",0]]}`
	var r SnapshotResult
	if err := json.Unmarshal([]byte(`{"z":"`+deflated(t, []byte(plain))+`"}`), &r); err != nil {
		t.Fatal(err)
	}
	if r.Title != "T" || len(r.Elements) != 1 || r.Elements[0].Name != "Go" {
		t.Errorf("decoded %+v", r)
	}
	nested := `{"z":"` + deflated(t, []byte(plain)) + `"}`
	if err := json.Unmarshal([]byte(`{"z":"`+deflated(t, []byte(nested))+`"}`), &r); err == nil {
		t.Error("nested compression accepted")
	}
	bomb := bytes.Repeat([]byte(" "), MaxInflated+10)
	if err := json.Unmarshal([]byte(`{"z":"`+deflated(t, bomb)+`"}`), &r); err == nil || !strings.Contains(err.Error(), "beyond") {
		t.Errorf("deflate bomb: %v", err)
	}
	if err := json.Unmarshal([]byte(`{"z":"not base64!"}`), &r); err == nil {
		t.Error("bad base64 accepted")
	}
}
