package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"
)

// schema is the subset of JSON Schema the tool table uses, derived from each
// tool's argument struct (schema.go). It is the single source of truth for
// argument limits and defaults: decodeArgs enforces and applies exactly
// what tools/list advertises.
type schema struct {
	Type                 string             `json:"type,omitempty"` // "" only with AnyOf
	AnyOf                []*schema          `json:"anyOf,omitempty"`
	Description          string             `json:"description,omitempty"`
	Properties           map[string]*schema `json:"properties,omitempty"`
	Required             []string           `json:"required,omitempty"`
	AdditionalProperties *bool              `json:"additionalProperties,omitempty"`
	Enum                 []string           `json:"enum,omitempty"`
	Default              any                `json:"default,omitempty"`
	Minimum              *float64           `json:"minimum,omitempty"`
	Maximum              *float64           `json:"maximum,omitempty"`
	MinLength            *int               `json:"minLength,omitempty"`
	MaxLength            *int               `json:"maxLength,omitempty"`
	MinItems             *int               `json:"minItems,omitempty"`
	MaxItems             *int               `json:"maxItems,omitempty"`
	Items                *schema            `json:"items,omitempty"`

	oneOf []oneOf // "exactly one of" rules (schema.go)
}

// decodeArgs validates raw tool arguments against s, applies its defaults
// and decodes them into out. It rejects what encoding/json would quietly accept: duplicate keys,
// keys that match a field only case-insensitively, unknown fields, numbers
// with fractions where integers are expected.
func decodeArgs(s *schema, raw json.RawMessage, out any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		raw = []byte("{}")
	}
	fields, err := objectFields(raw)
	if err != nil {
		return err
	}
	clean := make(map[string]json.RawMessage, len(fields))
	for _, f := range fields {
		p := s.Properties[f.key]
		if p == nil {
			return fmt.Errorf("unknown argument %q (allowed: %s)", f.key, strings.Join(propertyNames(s), ", "))
		}
		if bytes.Equal(f.value, []byte("null")) && !slices.Contains(s.Required, f.key) {
			continue // an explicit null for an optional argument means "not given"
		}
		if err := p.check(f.key, f.value); err != nil {
			return err
		}
		clean[f.key] = f.value
	}
	for _, r := range s.Required {
		if _, ok := clean[r]; !ok {
			return fmt.Errorf("missing required argument %q", r)
		}
	}
	for _, r := range s.oneOf {
		n := 0
		for _, name := range r.names {
			if _, ok := clean[name]; ok {
				n++
			}
		}
		if n != 1 {
			return errors.New(r.msg)
		}
	}
	for name, p := range s.Properties {
		if _, ok := clean[name]; !ok && p.Default != nil {
			clean[name] = p.defaultJSON()
		}
	}
	b, err := json.Marshal(clean)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}

func propertyNames(s *schema) []string {
	names := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		names = append(names, k)
	}
	slices.Sort(names)
	if len(names) == 0 {
		return []string{"none"}
	}
	return names
}

type field struct {
	key   string
	value json.RawMessage
}

// objectFields splits a JSON object into its fields, in order, refusing
// duplicates.
func objectFields(raw []byte) ([]field, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, errors.New("arguments must be a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil { // {
		return nil, err
	}
	var out []field
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := t.(string)
		if seen[key] {
			return nil, fmt.Errorf("argument %q given twice", key)
		}
		seen[key] = true
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, field{key, v})
	}
	return out, nil
}

func (p *schema) check(name string, v json.RawMessage) error {
	if len(p.AnyOf) > 0 {
		return p.checkAnyOf(name, v)
	}
	if bytes.Equal(v, []byte("null")) {
		return fmt.Errorf("argument %q must be a %s, not null", name, p.Type)
	}
	switch p.Type {
	case "object":
		return p.checkObject(name, v)
	case "string":
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return fmt.Errorf("argument %q must be a string", name)
		}
		if !utf8.ValidString(s) {
			return fmt.Errorf("argument %q is not valid UTF-8", name)
		}
		n := utf8.RuneCountInString(s)
		if p.MinLength != nil && n < *p.MinLength {
			return fmt.Errorf("argument %q must have at least %d characters", name, *p.MinLength)
		}
		if p.MaxLength != nil && n > *p.MaxLength {
			return fmt.Errorf("argument %q has %d characters; the maximum is %d", name, n, *p.MaxLength)
		}
		if len(p.Enum) > 0 && !slices.Contains(p.Enum, s) {
			return fmt.Errorf("argument %q must be one of %s", name, strings.Join(p.Enum, ", "))
		}
	case "integer":
		var f float64
		if err := json.Unmarshal(v, &f); err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
			return fmt.Errorf("argument %q must be a whole number", name)
		}
		if p.Minimum != nil && f < *p.Minimum {
			return fmt.Errorf("argument %q must be at least %v", name, *p.Minimum)
		}
		if p.Maximum != nil && f > *p.Maximum {
			return fmt.Errorf("argument %q must be at most %v", name, *p.Maximum)
		}
	case "boolean":
		var b bool
		if err := json.Unmarshal(v, &b); err != nil {
			return fmt.Errorf("argument %q must be true or false", name)
		}
	case "array":
		var items []json.RawMessage
		if err := json.Unmarshal(v, &items); err != nil || items == nil {
			return fmt.Errorf("argument %q must be an array", name)
		}
		if p.MinItems != nil && len(items) < *p.MinItems {
			return fmt.Errorf("argument %q needs at least %d item(s)", name, *p.MinItems)
		}
		if p.MaxItems != nil && len(items) > *p.MaxItems {
			return fmt.Errorf("argument %q has %d items; the maximum is %d", name, len(items), *p.MaxItems)
		}
		for i, it := range items {
			if err := p.Items.check(fmt.Sprintf("%s[%d]", name, i), it); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("argument %q has an unsupported schema type %q", name, p.Type)
	}
	return nil
}

// checkAnyOf passes v when one of p's alternatives does; otherwise it
// reports the first alternative's error when v has that one's type, else
// names the types allowed.
func (p *schema) checkAnyOf(name string, v json.RawMessage) error {
	var types []string
	for _, alt := range p.AnyOf {
		err := alt.check(name, v)
		if err == nil {
			return nil
		}
		if alt.Type == "string" && len(v) > 0 && v[0] == '"' {
			return err
		}
		types = append(types, alt.Type)
	}
	return fmt.Errorf("argument %q must be a %s", name, strings.Join(types, " or a "))
}

// checkObject checks an object argument (an item of an array of objects)
// against p's properties: exact names, no unknown or repeated ones, the
// required ones present.
func (p *schema) checkObject(name string, v json.RawMessage) error {
	fields, err := objectFields(v)
	if err != nil {
		return fmt.Errorf("argument %q must be an object", name)
	}
	seen := map[string]bool{}
	for _, f := range fields {
		q := p.Properties[f.key]
		if q == nil {
			return fmt.Errorf("argument %q: unknown member %q (allowed: %s)", name, f.key, strings.Join(propertyNames(p), ", "))
		}
		if err := q.check(name+"."+f.key, f.value); err != nil {
			return err
		}
		seen[f.key] = true
	}
	for _, r := range p.Required {
		if !seen[r] {
			return fmt.Errorf("argument %q: missing %q", name, r)
		}
	}
	return nil
}
