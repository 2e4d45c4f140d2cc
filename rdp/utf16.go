package rdp

import (
	"errors"
	"unicode/utf16"
	"unicode/utf8"
)

// appendJSONStringUTF16 decodes the JSON string literal raw (quotes
// included) and appends its UTF-16 code units to dst. Unlike encoding/json it
// keeps lone surrogate escapes (\ud83d) as they are, so long-string chunks
// that split a surrogate pair can be joined losslessly.
func appendJSONStringUTF16(dst []uint16, raw []byte) ([]uint16, error) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return dst, errors.New("not a JSON string")
	}
	s := raw[1 : len(raw)-1]
	for i := 0; i < len(s); {
		b := s[i]
		switch {
		case b == '\\':
			if i+1 >= len(s) {
				return dst, errors.New("truncated escape")
			}
			e := s[i+1]
			i += 2
			switch e {
			case '"', '\\', '/':
				dst = append(dst, uint16(e))
			case 'b':
				dst = append(dst, '\b')
			case 'f':
				dst = append(dst, '\f')
			case 'n':
				dst = append(dst, '\n')
			case 'r':
				dst = append(dst, '\r')
			case 't':
				dst = append(dst, '\t')
			case 'u':
				if i+4 > len(s) {
					return dst, errors.New("truncated \\u escape")
				}
				var u uint16
				for _, h := range s[i : i+4] {
					var v byte
					switch {
					case '0' <= h && h <= '9':
						v = h - '0'
					case 'a' <= h && h <= 'f':
						v = h - 'a' + 10
					case 'A' <= h && h <= 'F':
						v = h - 'A' + 10
					default:
						return dst, errors.New("bad \\u escape")
					}
					u = u<<4 | uint16(v)
				}
				dst = append(dst, u)
				i += 4
			default:
				return dst, errors.New("bad escape")
			}
		case b < 0x20:
			return dst, errors.New("control character in string")
		case b == '"':
			return dst, errors.New("unescaped quote in string")
		case b < utf8.RuneSelf:
			dst = append(dst, uint16(b))
			i++
		default:
			r, n := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && n == 1 {
				return dst, errors.New("invalid UTF-8 in string")
			}
			dst = utf16.AppendRune(dst, r)
			i += n
		}
	}
	return dst, nil
}

// utf16String converts UTF-16 units to a Go string; a surrogate left unpaired
// after joining becomes U+FFFD.
func utf16String(u []uint16) string { return string(utf16.Decode(u)) }
