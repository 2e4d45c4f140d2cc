package tools

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// Input schemas come from the tags of each tool's argument struct, so the
// schema a client sees, the limits decodeArgs enforces and the defaults a
// handler reads are one declaration:
//
//	json:"name"      the argument's name
//	desc:"…"         what it means (every argument has one)
//	min:"N" max:"N"  length of a string, value of an integer, items of an array
//	itemmin, itemmax length of each string of an array
//	enum:"a,b"       the allowed strings
//	default:"v"      applied when the argument is absent (the field is a value)
//	limit:"name"     maximum and default from the server's configured limit
//
// A value field without default or limit is required; an optional one
// without a default is a pointer (nil: not given). A blank field
// `_ struct{}` with oneof:"a,b" and msg:"…" makes exactly one of a and b
// required; msg is the error when not.

// limits are the configured maxima a limit tag names.
type limits map[string]int

// oneOf is an "exactly one of" rule over arguments.
type oneOf struct {
	names []string
	msg   string
}

// schemaOf derives the input schema of argument struct t.
func schemaOf(t reflect.Type, lim limits) (*schema, error) {
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("%v is not a struct", t)
	}
	no := false
	s := &schema{Type: "object", Properties: map[string]*schema{}, AdditionalProperties: &no}
	var rules []string
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Name == "_" {
			r, err := oneOfRule(f)
			if err != nil {
				return nil, err
			}
			s.oneOf = append(s.oneOf, r)
			rules = append(rules, "Give exactly one of "+orList(r.names)+".")
			continue
		}
		name, p, required, err := property(f, lim)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		s.Properties[name] = p
		if required {
			s.Required = append(s.Required, name)
		}
	}
	s.Description = strings.Join(rules, " ")
	for _, r := range s.oneOf {
		for _, n := range r.names {
			if s.Properties[n] == nil {
				return nil, fmt.Errorf("oneof names %q, which is no argument", n)
			}
		}
	}
	return s, nil
}

func oneOfRule(f reflect.StructField) (oneOf, error) {
	names := strings.Split(f.Tag.Get("oneof"), ",")
	msg := f.Tag.Get("msg")
	if len(names) < 2 || msg == "" {
		return oneOf{}, errors.New(`a blank field needs oneof:"a,b" and msg:"…"`)
	}
	return oneOf{names: names, msg: msg}, nil
}

// orList is "a or b", "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// property derives one argument's schema from its field.
func property(f reflect.StructField, lim limits) (name string, p *schema, required bool, err error) {
	name = strings.Split(f.Tag.Get("json"), ",")[0]
	if name == "" || name == "-" {
		return "", nil, false, errors.New("no json name")
	}
	p = &schema{Description: f.Tag.Get("desc")}
	t := f.Type
	optional := t.Kind() == reflect.Pointer
	if optional {
		t = t.Elem()
	}
	if t == textOrCheckType {
		p, err = textOrCheckSchema(p, f.Tag)
		return name, p, !optional, err
	}
	if p.Type, err = jsonType(t); err != nil {
		return "", nil, false, err
	}
	if p.Type == "array" && t.Elem().Kind() == reflect.Struct {
		p.Items, err = schemaOf(t.Elem(), lim)
		p.Items.Description = ""
	} else if p.Type == "array" {
		p.Items = &schema{Type: "string"}
		p.Items.MinLength, p.Items.MaxLength, err = bounds(f.Tag, "itemmin", "itemmax")
	}
	if err == nil {
		err = p.setBounds(f.Tag)
	}
	if err != nil {
		return "", nil, false, err
	}
	if e := f.Tag.Get("enum"); e != "" {
		p.Enum = strings.Split(e, ",")
	}
	if l := f.Tag.Get("limit"); l != "" {
		if p.Type != "integer" || optional {
			return "", nil, false, errors.New("limit is for integer values")
		}
		m := float64(lim[l])
		p.Maximum, p.Default = &m, lim[l]
		return name, p, false, nil
	}
	if d, ok := f.Tag.Lookup("default"); ok {
		if optional {
			return "", nil, false, errors.New("a field with a default is a value, not a pointer")
		}
		p.Default, err = parseDefault(p.Type, d)
		return name, p, false, err
	}
	return name, p, !optional, nil
}

func jsonType(t reflect.Type) (string, error) {
	switch t.Kind() {
	case reflect.String:
		return "string", nil
	case reflect.Int:
		return "integer", nil
	case reflect.Bool:
		return "boolean", nil
	case reflect.Slice:
		if k := t.Elem().Kind(); k == reflect.String || k == reflect.Struct {
			return "array", nil
		}
	}
	return "", fmt.Errorf("unsupported argument type %v", t)
}

// setBounds reads min and max for p's type.
func (p *schema) setBounds(tag reflect.StructTag) error {
	lo, hi, err := bounds(tag, "min", "max")
	if err != nil {
		return err
	}
	switch p.Type {
	case "string":
		p.MinLength, p.MaxLength = lo, hi
	case "array":
		p.MinItems, p.MaxItems = lo, hi
	case "integer":
		if lo != nil {
			f := float64(*lo)
			p.Minimum = &f
		}
		if hi != nil {
			f := float64(*hi)
			p.Maximum = &f
		}
	default:
		if lo != nil || hi != nil {
			return fmt.Errorf("min/max on a %s", p.Type)
		}
	}
	return nil
}

func bounds(tag reflect.StructTag, min, max string) (lo, hi *int, err error) {
	read := func(key string) (*int, error) {
		v, ok := tag.Lookup(key)
		if !ok {
			return nil, nil
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
		return &n, nil
	}
	if lo, err = read(min); err == nil {
		hi, err = read(max)
	}
	return lo, hi, err
}

func parseDefault(typ, v string) (any, error) {
	switch typ {
	case "string":
		return v, nil
	case "integer":
		return strconv.Atoi(v)
	case "boolean":
		return strconv.ParseBool(v)
	}
	return nil, fmt.Errorf("no default for a %s", typ)
}

// defaultJSON is p's default as a JSON value.
func (p *schema) defaultJSON() json.RawMessage {
	b, err := json.Marshal(p.Default)
	if err != nil {
		panic(err) // a string, number or boolean from a tag
	}
	return b
}

// textOrCheck is an argument that is a string, or true or false for a
// checkbox or radio (fill_form's value): its schema is anyOf a string
// (with the field's max length) and a boolean.
type textOrCheck struct {
	Text  string
	Check *bool // set when the value was a boolean
}

var textOrCheckType = reflect.TypeFor[textOrCheck]()

// UnmarshalJSON reads a string or a boolean (decodeArgs has checked which).
func (v *textOrCheck) UnmarshalJSON(b []byte) error {
	var c bool
	if json.Unmarshal(b, &c) == nil {
		v.Check = &c
		return nil
	}
	return json.Unmarshal(b, &v.Text)
}

// MarshalJSON writes the value back as it came.
func (v textOrCheck) MarshalJSON() ([]byte, error) {
	if v.Check != nil {
		return json.Marshal(*v.Check)
	}
	return json.Marshal(v.Text)
}

func textOrCheckSchema(p *schema, tag reflect.StructTag) (*schema, error) {
	str := &schema{Type: "string"}
	var err error
	str.MinLength, str.MaxLength, err = bounds(tag, "min", "max")
	p.AnyOf = []*schema{str, {Type: "boolean"}}
	return p, err
}
