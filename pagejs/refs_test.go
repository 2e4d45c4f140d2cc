package pagejs

import (
	"maps"
	"slices"
	"testing"
)

func TestBindRefsIDs(t *testing.T) {
	for _, c := range []struct {
		name  string
		r     BindRefsResult
		count int
		want  []int
	}{
		{"one run", BindRefsResult{Bound: true, Count: 3, Runs: [][3]int{{0, 5, 3}}}, 3, []int{5, 6, 7}},
		{"runs", BindRefsResult{Bound: true, Count: 4, Runs: [][3]int{{0, 9, 1}, {1, 2, 2}, {3, 40, 1}}}, 4, []int{9, 2, 3, 40}},
		{"empty", BindRefsResult{Bound: true, Count: 0}, 0, []int{}},
		{"unbound", BindRefsResult{Bound: false, Count: 1, Runs: [][3]int{{0, 1, 1}}}, 1, nil},
		{"other list", BindRefsResult{Bound: true, Count: 2, Runs: [][3]int{{0, 1, 2}}}, 3, nil},
		{"gap", BindRefsResult{Bound: true, Count: 3, Runs: [][3]int{{0, 1, 1}, {2, 5, 1}}}, 3, nil},
		{"overlap", BindRefsResult{Bound: true, Count: 2, Runs: [][3]int{{0, 1, 2}, {1, 5, 1}}}, 2, nil},
		{"past the end", BindRefsResult{Bound: true, Count: 2, Runs: [][3]int{{0, 1, 3}}}, 2, nil},
		{"short", BindRefsResult{Bound: true, Count: 2, Runs: [][3]int{{0, 1, 1}}}, 2, nil},
		{"empty run", BindRefsResult{Bound: true, Count: 1, Runs: [][3]int{{0, 1, 0}, {0, 1, 1}}}, 1, nil},
		{"zero id", BindRefsResult{Bound: true, Count: 1, Runs: [][3]int{{0, 0, 1}}}, 1, nil},
	} {
		got, ok := c.r.IDs(c.count)
		if ok != (c.want != nil) || !slices.Equal(got, c.want) {
			t.Errorf("%s: IDs = %v, %v; want %v", c.name, got, ok, c.want)
		}
	}
	r := BindRefsResult{Frames: [][2]int64{{1, 7}, {5, 9}, {-1, 3}, {2, 0}}}
	if got := r.FrameIDs(3); !maps.Equal(got, map[int]int64{1: 7}) {
		t.Errorf("FrameIDs = %v", got)
	}
}
