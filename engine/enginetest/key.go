package enginetest

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"

	"tessera/engine"
)

// Key is Fingerprint in a compact binary form: two positions have equal
// keys exactly when they have equal fingerprints (the same fields, every
// number to the bit), but a key costs a fraction of the JSON (no number is
// formatted as text). The checks that compare many positions, such as
// CheckFast's draws, compare keys and print a Fingerprint only when they
// fail.
func Key(st engine.State) string {
	return string(appendKey(make([]byte, 0, 4096), reflect.ValueOf(fingerprintOf(st)), false))
}

// StateKey is everything a position keeps in its exported fields (the
// order of a shuffled supply, the hands in their order, what Fingerprint
// does not show), in Key's binary form, a nil slice or map counting as an
// empty one. Two positions a game's rules treat alike, one reached
// through Apply and one through FastPlayer.Play, have equal state keys;
// the unexported fields (a playout's caches) are left out, and are
// checked by what the twin does next.
func StateKey(st engine.State) string {
	return string(appendKey(make([]byte, 0, 4096), reflect.ValueOf(st), true))
}

// fieldsOf caches keyFields: reflect.Type.Field allocates, and took a
// third of Key's time.
var fieldsOf sync.Map // reflect.Type -> []int

// keyFields are the indexes of a struct type's fields that Key encodes.
func keyFields(t reflect.Type) []int {
	if fs, ok := fieldsOf.Load(t); ok {
		return fs.([]int)
	}
	fs := []int{}
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Tag.Get("json") == "-" || f.Tag.Get("fast") == "-" || !f.IsExported() && !f.Anonymous {
			continue
		}
		fs = append(fs, i)
	}
	fieldsOf.Store(t, fs)
	return fs
}

// A field tagged `fast:"-"` is one Apply keeps for its words or picture
// and FastPlayer.Play leaves alone (Closure's final breakdown); StateKey
// and Key leave it out too.
//
// appendKey appends v's bytes: what encoding/json would encode (exported
// fields, fields of embedded structs, no `json:"-"`), each value
// preceded by what tells it apart from its neighbours (a length, a
// nil mark), so that different values never have equal keys.
//
// With loose set a nil slice or map is encoded as an empty one.
func appendKey(b []byte, v reflect.Value, loose bool) []byte {
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			return append(b, 1)
		}
		return append(b, 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return binary.AppendVarint(b, v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return binary.AppendUvarint(b, v.Uint())
	case reflect.Float32, reflect.Float64:
		return binary.LittleEndian.AppendUint64(b, math.Float64bits(v.Float()))
	case reflect.String:
		b = binary.AppendUvarint(b, uint64(v.Len()))
		return append(b, v.String()...)
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() && !loose {
			return append(b, 0)
		}
		b = append(b, 1)
		b = binary.AppendUvarint(b, uint64(v.Len()))
		for i := range v.Len() {
			b = appendKey(b, v.Index(i), loose)
		}
		return b
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return append(b, 0)
		}
		return appendKey(append(b, 1), v.Elem(), loose)
	case reflect.Map:
		if v.IsNil() && !loose {
			return append(b, 0)
		}
		type entry struct{ k, v []byte }
		var entries []entry
		for it := v.MapRange(); it.Next(); {
			entries = append(entries, entry{appendKey(nil, it.Key(), loose), appendKey(nil, it.Value(), loose)})
		}
		slices.SortFunc(entries, func(x, y entry) int { return bytes.Compare(x.k, y.k) })
		b = append(b, 1)
		b = binary.AppendUvarint(b, uint64(len(entries)))
		for _, e := range entries {
			b = append(append(b, e.k...), e.v...)
		}
		return b
	case reflect.Struct:
		for _, i := range keyFields(v.Type()) {
			b = appendKey(b, v.Field(i), loose)
		}
		return b
	}
	panic(fmt.Sprintf("enginetest.Key: a %s in a position's fingerprint", v.Type()))
}

// stateDiff names the exported fields in which two positions of one game
// differ, for a failure message (a position printed whole is pages long).
func stateDiff(a, b engine.State) string {
	x, y := reflect.ValueOf(a), reflect.ValueOf(b)
	for x.Kind() == reflect.Pointer || x.Kind() == reflect.Interface {
		x, y = x.Elem(), y.Elem()
	}
	if x.Kind() != reflect.Struct || x.Type() != y.Type() {
		return fmt.Sprintf("%T and %T", a, b)
	}
	var out []string
	for _, i := range keyFields(x.Type()) {
		fx, fy := x.Field(i), y.Field(i)
		if string(appendKey(nil, fx, true)) != string(appendKey(nil, fy, true)) {
			out = append(out, fmt.Sprintf("%s: %s != %s", x.Type().Field(i).Name, clip(fmt.Sprint(fx.Interface())), clip(fmt.Sprint(fy.Interface()))))
		}
	}
	return strings.Join(out, "\n")
}

// clip shortens a value printed for a failure message.
func clip(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}
