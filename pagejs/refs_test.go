package pagejs

import (
	"slices"
	"testing"
)

func TestBindRefsNumbers(t *testing.T) {
	args := BindRefsArgs{Next: 20, Min: 10}
	for _, c := range []struct {
		name  string
		r     BindRefsResult
		count int
		want  []int
	}{
		{"all new", BindRefsResult{Bound: true, Count: 3, Next: 23}, 3, []int{20, 21, 22}},
		{"reused runs", BindRefsResult{Bound: true, Count: 4, Next: 22, Runs: [][3]int{{1, 10, 2}}}, 4, []int{20, 10, 11, 21}},
		{"unbound", BindRefsResult{Bound: false, Count: 3, Next: 23}, 3, nil},
		{"other list", BindRefsResult{Bound: true, Count: 2, Next: 22}, 3, nil},
		{"next does not add up", BindRefsResult{Bound: true, Count: 3, Next: 24}, 3, nil},
		{"run below min", BindRefsResult{Bound: true, Count: 2, Next: 21, Runs: [][3]int{{0, 9, 1}}}, 2, nil},
		{"run of unissued refs", BindRefsResult{Bound: true, Count: 2, Next: 20, Runs: [][3]int{{0, 19, 2}}}, 2, nil},
		{"run past the end", BindRefsResult{Bound: true, Count: 2, Next: 20, Runs: [][3]int{{1, 10, 2}}}, 2, nil},
		{"overlapping runs", BindRefsResult{Bound: true, Count: 2, Next: 20, Runs: [][3]int{{0, 10, 2}, {1, 15, 1}}}, 2, nil},
		{"empty run", BindRefsResult{Bound: true, Count: 1, Next: 21, Runs: [][3]int{{0, 10, 0}}}, 1, nil},
	} {
		got, ok := c.r.Numbers(args, c.count)
		if ok != (c.want != nil) || !slices.Equal(got, c.want) {
			t.Errorf("%s: Numbers = %v, %v; want %v", c.name, got, ok, c.want)
		}
	}
}
