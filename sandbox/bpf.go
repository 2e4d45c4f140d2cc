package sandbox

import (
	"errors"
	"fmt"
	"sort"

	"golang.org/x/sys/unix"
)

// Arch describes one system-call ABI the filter compiler can target.
type Arch struct {
	Name  string            // GOARCH spelling: "amd64", "arm64"
	Audit uint32            // AUDIT_ARCH_* value the kernel puts in seccomp_data.arch
	X32   bool              // the ABI has an x32 twin (nr | 0x40000000) that must be refused
	Nums  map[string]uint32 // syscall name → number
}

// The supported ABIs. Tables are generated from golang.org/x/sys (zsysnum.go).
var (
	ArchAMD64 = &Arch{Name: "amd64", Audit: unix.AUDIT_ARCH_X86_64, X32: true, Nums: sysnumsAMD64}
	ArchARM64 = &Arch{Name: "arm64", Audit: unix.AUDIT_ARCH_AARCH64, Nums: sysnumsARM64}
)

// ArchFor returns the table for a GOARCH, or nil.
func ArchFor(goarch string) *Arch {
	switch goarch {
	case "amd64":
		return ArchAMD64
	case "arm64":
		return ArchARM64
	}
	return nil
}

// Cond is one test on a system-call argument: (arg & Mask) == Value.
// When Is32 is set only the low 32 bits are compared, which is exactly what
// the kernel looks at for an argument declared int (family, cmd, pid, …).
type Cond struct {
	Arg   int
	Mask  uint64
	Value uint64
	Is32  bool
}

// Eq32 matches an int argument equal to v.
func Eq32(arg int, v uint32) Cond {
	return Cond{Arg: arg, Mask: 0xffffffff, Value: uint64(v), Is32: true}
}

// Masked32 matches an int argument whose masked bits equal v.
func Masked32(arg int, mask, v uint32) Cond {
	return Cond{Arg: arg, Mask: uint64(mask), Value: uint64(v), Is32: true}
}

// Eq64 matches an unsigned long argument equal to v.
func Eq64(arg int, v uint64) Cond { return Cond{Arg: arg, Mask: ^uint64(0), Value: v} }

// Clear64 matches an unsigned long argument with none of bits set.
func Clear64(arg int, bits uint64) Cond { return Cond{Arg: arg, Mask: bits, Value: 0} }

// Match holds when all of its conditions hold.
type Match []Cond

// Allow is one allowlist entry. With no When it allows every call; otherwise
// a call is allowed when any Match holds and answered with Else (EPERM when
// zero) when none does.
type Allow struct {
	Name   string
	When   []Match
	Else   unix.Errno
	Reason string
}

// Deny answers a system call with an errno instead of running it.
type Deny struct {
	Name   string
	Errno  unix.Errno
	Reason string
}

// Action is a seccomp return value.
type Action uint32

// Actions used by the policies.
const (
	ActAllow       Action = unix.SECCOMP_RET_ALLOW
	ActKillProcess Action = unix.SECCOMP_RET_KILL_PROCESS
)

// ActErrno answers the call with -e.
func ActErrno(e unix.Errno) Action {
	return Action(unix.SECCOMP_RET_ERRNO | (uint32(e) & unix.SECCOMP_RET_DATA))
}

// seccomp_data layout (include/uapi/linux/seccomp.h).
const (
	offNr    = 0
	offArch  = 4
	offArgs  = 16
	x32Bit   = 0x40000000
	maxInsns = 4096 // BPF_MAXINSNS
)

// argLo/argHi give the offsets of the two 32-bit halves of an argument on a
// little-endian ABI (both supported ABIs are little-endian).
func argLo(i int) uint32 { return uint32(offArgs + 8*i) }
func argHi(i int) uint32 { return uint32(offArgs + 8*i + 4) }

func stmt(code uint16, k uint32) unix.SockFilter { return unix.SockFilter{Code: code, K: k} }
func jump(code uint16, k uint32, jt, jf uint8) unix.SockFilter {
	return unix.SockFilter{Code: code, Jt: jt, Jf: jf, K: k}
}

const (
	ldAbs = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
	jeqK  = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
	jgeK  = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
	andK  = unix.BPF_ALU | unix.BPF_AND | unix.BPF_K
	retK  = unix.BPF_RET | unix.BPF_K
)

// Compile turns the tables into a classic BPF seccomp program for arch.
// Entries naming a syscall the ABI does not have are skipped (arm64 has no
// open(2) or stat(2)); a name in both tables, a duplicate, or a name unknown
// to every ABI is an error. Layout: arch check (mismatch → kill), x32 check
// (→ kill), then one block per allow entry, one per deny entry, then def.
func Compile(arch *Arch, allow []Allow, deny []Deny, def Action) ([]unix.SockFilter, error) {
	if arch == nil {
		return nil, errors.New("seccomp: unsupported architecture")
	}
	seen := map[string]bool{}
	check := func(name string) (uint32, bool, error) {
		if seen[name] {
			return 0, false, fmt.Errorf("seccomp: %s listed twice", name)
		}
		seen[name] = true
		if nr, ok := arch.Nums[name]; ok {
			return nr, true, nil
		}
		if _, ok := sysnumsAMD64[name]; ok {
			return 0, false, nil
		}
		if _, ok := sysnumsARM64[name]; ok {
			return 0, false, nil
		}
		return 0, false, fmt.Errorf("seccomp: unknown system call %q", name)
	}

	prog := []unix.SockFilter{
		stmt(ldAbs, offArch),
		jump(jeqK, arch.Audit, 1, 0),
		stmt(retK, uint32(ActKillProcess)),
		stmt(ldAbs, offNr),
	}
	if arch.X32 {
		prog = append(prog,
			jump(jgeK, x32Bit, 0, 1),
			stmt(retK, uint32(ActKillProcess)))
	}
	// Every rule body ends in a return, so the accumulator still holds the
	// syscall number whenever control falls through to the next rule.
	for _, a := range allow {
		nr, ok, err := check(a.Name)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		body, err := allowBody(a)
		if err != nil {
			return nil, err
		}
		if len(body) > 255 {
			return nil, fmt.Errorf("seccomp: rule for %s too long (%d instructions)", a.Name, len(body))
		}
		prog = append(prog, jump(jeqK, nr, 0, uint8(len(body))))
		prog = append(prog, body...)
	}
	for _, d := range deny {
		nr, ok, err := check(d.Name)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		if d.Errno == 0 {
			return nil, fmt.Errorf("seccomp: deny rule for %s has no errno", d.Name)
		}
		prog = append(prog, jump(jeqK, nr, 0, 1), stmt(retK, uint32(ActErrno(d.Errno))))
	}
	prog = append(prog, stmt(retK, uint32(def)))
	if len(prog) > maxInsns {
		return nil, fmt.Errorf("seccomp: program has %d instructions, limit %d", len(prog), maxInsns)
	}
	return prog, nil
}

// allowBody emits the instructions that run once the syscall number matched.
func allowBody(a Allow) ([]unix.SockFilter, error) {
	if len(a.When) == 0 {
		return []unix.SockFilter{stmt(retK, uint32(ActAllow))}, nil
	}
	var body []unix.SockFilter
	for _, m := range a.When {
		if len(m) == 0 {
			return nil, fmt.Errorf("seccomp: empty match in rule for %s", a.Name)
		}
		// Each test is (load, [and], jeq). A failed jeq jumps past this
		// match's final "ret allow", i.e. to the next match or to Else.
		type test struct {
			off       uint32
			mask, val uint32
		}
		var tests []test
		for _, c := range m {
			if c.Arg < 0 || c.Arg > 5 {
				return nil, fmt.Errorf("seccomp: rule for %s tests argument %d", a.Name, c.Arg)
			}
			if c.Value&^c.Mask != 0 {
				return nil, fmt.Errorf("seccomp: rule for %s can never match (value outside mask)", a.Name)
			}
			tests = append(tests, test{argLo(c.Arg), uint32(c.Mask), uint32(c.Value)})
			if !c.Is32 && c.Mask>>32 != 0 {
				tests = append(tests, test{argHi(c.Arg), uint32(c.Mask >> 32), uint32(c.Value >> 32)})
			}
		}
		var part []unix.SockFilter
		for _, t := range tests {
			part = append(part, stmt(ldAbs, t.off))
			if t.mask != 0xffffffff {
				part = append(part, stmt(andK, t.mask))
			}
			part = append(part, jump(jeqK, t.val, 0, 0)) // jf patched below
		}
		part = append(part, stmt(retK, uint32(ActAllow)))
		end := len(part) // index just past "ret allow"
		for i := range part {
			if part[i].Code == jeqK {
				d := end - (i + 1)
				if d > 255 {
					return nil, fmt.Errorf("seccomp: match in rule for %s too long", a.Name)
				}
				part[i].Jf = uint8(d)
			}
		}
		body = append(body, part...)
	}
	e := a.Else
	if e == 0 {
		e = unix.EPERM
	}
	body = append(body, stmt(retK, uint32(ActErrno(e))))
	return body, nil
}

// Names returns the sorted syscall names of an allowlist that exist on arch.
func Names(arch *Arch, allow []Allow) []string {
	var out []string
	for _, a := range allow {
		if _, ok := arch.Nums[a.Name]; ok {
			out = append(out, a.Name)
		}
	}
	sort.Strings(out)
	return out
}
