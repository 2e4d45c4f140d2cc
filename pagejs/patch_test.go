package pagejs

import (
	"errors"
	"reflect"
	"testing"
)

// TestApplyPatch: a patch takes runs of its base and its own rows in order;
// one that does not fit its base is refused, never applied in part.
func TestApplyPatch(t *testing.T) {
	el := func(name string) Element { return Element{Tag: "button", Name: name, Sel: Sel{"#" + name}} }
	base := SnapshotResult{Seq: 4, Total: 4, Elements: []Element{el("a"), el("b"), el("c"), el("d")}}
	p := SnapshotResult{Seq: 5, Base: 4, Total: 5, Runs: []int{0, 2, 1, 3, 1, 0, 2, 0, 1}, Elements: []Element{el("x"), el("y")}}
	if err := p.ApplyPatch(&base); err != nil {
		t.Fatal(err)
	}
	want := []Element{el("a"), el("b"), el("x"), el("d"), el("y")}
	if !reflect.DeepEqual(p.Elements, want) || p.Base != 0 || p.Runs != nil {
		t.Fatalf("patched: %+v", p)
	}
	for name, bad := range map[string]SnapshotResult{
		"other base":       {Base: 3, Total: 4, Runs: []int{0, 4, 0}},
		"not triples":      {Base: 4, Total: 4, Runs: []int{0, 4}},
		"run past base":    {Base: 4, Total: 5, Runs: []int{2, 3, 0}},
		"start past base":  {Base: 4, Total: 5, Runs: []int{5, 0, 0}},
		"rows missing":     {Base: 4, Total: 5, Runs: []int{0, 1, 2}, Elements: []Element{el("x")}},
		"rows left over":   {Base: 4, Total: 5, Runs: []int{0, 1, 0}, Elements: []Element{el("x")}},
		"more than total":  {Base: 4, Total: 2, Runs: []int{0, 3, 0}},
		"huge count":       {Base: 4, Total: 5, Runs: []int{1, 1 << 62, 0}},
		"huge fresh count": {Base: 4, Total: 5, Runs: []int{0, 0, 1 << 62}},
	} {
		before := bad.Elements
		if err := bad.ApplyPatch(&base); !errors.Is(err, ErrPatch) || !reflect.DeepEqual(bad.Elements, before) {
			t.Errorf("%s: %v, elements %v", name, err, bad.Elements)
		}
	}
	whole := SnapshotResult{Seq: 6, Total: 1, Elements: []Element{el("z")}}
	if err := whole.ApplyPatch(&base); err != nil || len(whole.Elements) != 1 {
		t.Errorf("not a patch: %v", err)
	}
}
