package pagejs

// Node binding of refs (see js/bindRefs.js): the snapshot walk hands the elements it
// listed to the isolated realm, which numbers them by node, so that an action on a ref
// reaches the node the snapshot saw or fails with stale_element, never an identical
// node that replaced it.

// BindRefs numbers the nodes a snapshot listed (isolated realm only); args
// BindRefsArgs, result BindRefsResult.
var BindRefs = Script{name: "bindRefs", src: mustRead("bindRefs"), realms: realmIsolated, noLib: true}

// BindRefsArgs are BindRefs' arguments: Key is the hand-off key the snapshot was given
// (SnapshotArgs.Pin, 32 hex digits), Next the server's next ref number and Min the
// first ref number of the current generation (numbers below it are never reused). Max
// caps the elements taken (the snapshot's MaxElements); WaitMS is how long to wait for
// the hand-off: BindRefs is sent together with the snapshot and may arrive first.
type BindRefsArgs struct {
	Key    string `json:"key"`
	Next   int    `json:"next"`
	Min    int    `json:"min"`
	Max    int    `json:"max"`
	WaitMS int    `json:"waitMS"`
}

// BindRefsResult is BindRefs' value. Bound is false when no hand-off came in time or it
// was unusable: the refs are then unbound. Count is the number of elements handed
// over. Runs lists the reused numbers as [index, ref, length] (elements
// index…index+length-1 keep refs ref…ref+length-1); every other element got the next
// new number, in order from Next; the result's Next follows the last one.
type BindRefsResult struct {
	Bound bool     `json:"bound"`
	Count int      `json:"count"`
	Next  int      `json:"next"`
	Runs  [][3]int `json:"runs"`
}

// Numbers expands r into one ref number per element of a snapshot of count elements,
// checking that it is coherent with args (ok false otherwise: a reply that does not
// add up, or numbered another list, is not used).
func (r BindRefsResult) Numbers(args BindRefsArgs, count int) (nums []int, ok bool) {
	if !r.Bound || r.Count != count {
		return nil, false
	}
	nums = make([]int, count)
	for _, run := range r.Runs {
		i, ref, n := run[0], run[1], run[2]
		if n <= 0 || i < 0 || i+n > count || ref < args.Min || ref+n > args.Next {
			return nil, false
		}
		for k := range n {
			if nums[i+k] != 0 {
				return nil, false
			}
			nums[i+k] = ref + k
		}
	}
	next := args.Next
	for i := range nums {
		if nums[i] == 0 {
			nums[i] = next
			next++
		}
	}
	if next != r.Next {
		return nil, false
	}
	return nums, true
}
