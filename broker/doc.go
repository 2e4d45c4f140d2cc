// Package broker is the only part of firefox-rdp-mcp that reads local
// files. The sandboxed server has no filesystem access; for an upload it
// asks a separate broker process, over a SOCK_SEQPACKET socketpair, to
// validate and open the paths the MCP client named, then streams the
// bytes. This package holds the wire protocol (shared), the broker role
// ([Open], [Broker.Serve]) and the server's client ([NewClient]).
//
// The trust boundary is the socketpair: the broker treats every request as
// hostile. Messages are typed, length-checked and at most [MaxMessage]
// bytes; a truncated datagram, ancillary data or any malformed message ends
// the broker. The broker also exits when the server closes the channel or
// dies (EOF); it does not rely on a parent-death signal.
//
// # File checks
//
// For every path of a Stat call, in order, all or nothing:
//  1. lexical: absolute, already clean (filepath.Clean(p) == p: no "..",
//     "/./", "//" or trailing "/"), no NUL, at most [MaxPath] bytes;
//  2. with upload roots, the path must lie beneath one, matched only as
//     root+"/" (so /tmp/root never admits /tmp/rootx);
//  3. open with openat2 beneath a root fd opened before the sandbox:
//     RESOLVE_BENEATH|RESOLVE_NO_MAGICLINKS under configured roots (symlinks
//     are followed only while they stay inside; ".." out, absolute symlinks
//     and /proc magic links fail), RESOLVE_IN_ROOT from "/" without roots
//     (ordinary resolution, symlinks resolved as the seed asks, no magic
//     links). First an O_PATH open, which cannot trigger a device's open
//     side effects, and fstat: regular files only. Then the read-only open
//     (O_NONBLOCK, so a FIFO swapped in cannot hang us; O_NOCTTY), whose
//     dev/ino must equal the O_PATH one;
//  4. size within the per-file limit, running total within the per-call
//     limit; MIME type from a fixed extension table, else a sniff of the
//     first 512 bytes, else application/octet-stream.
//
// O_NOFOLLOW is deliberately not used: the seed allows symlinks, and
// RESOLVE_BENEATH already checks every component, the last included.
// From then on only the fd is trusted. Streaming uses pread up to the size
// seen at open; every piece re-checks fstat (dev, ino, size, mtime, ctime),
// and the last one also checks that a read at the old size returns nothing
// and that the path still names the same file. A file that shrank, grew,
// was modified or replaced is an error, never silently different bytes.
//
// # Limitations
//
// Beneath a configured root, absolute symlinks are refused even when they
// point inside the root (RESOLVE_BENEATH); use relative links. Without
// roots any file the user can read may be uploaded: the MCP client and the
// user choose the paths (seed §14.2). Error messages name files by basename
// only.
//
// # Example
//
//	c := broker.NewClient(conn) // conn: the server's end of the socketpair
//	files, err := c.Stat(ctx, []string{"/home/me/cv.pdf"})
//	if err != nil { … } // *broker.Error; errors.Is(err, broker.ErrTooLarge)
//	defer c.Release(ctx, []uint32{files[0].Handle})
//	err = c.Stream(ctx, files[0].Handle, func(p []byte) error { … })
package broker
