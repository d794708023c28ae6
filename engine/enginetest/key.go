package enginetest

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"slices"
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
	return string(appendKey(make([]byte, 0, 4096), reflect.ValueOf(fingerprintOf(st))))
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
		if f.Tag.Get("json") == "-" || !f.IsExported() && !f.Anonymous {
			continue
		}
		fs = append(fs, i)
	}
	fieldsOf.Store(t, fs)
	return fs
}

// appendKey appends v's bytes: what encoding/json would encode (exported
// fields, fields of embedded structs, no `json:"-"`), each value
// preceded by what tells it apart from its neighbours (a length, a
// nil mark), so that different values never have equal keys.
func appendKey(b []byte, v reflect.Value) []byte {
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
		if v.Kind() == reflect.Slice && v.IsNil() {
			return append(b, 0)
		}
		b = append(b, 1)
		b = binary.AppendUvarint(b, uint64(v.Len()))
		for i := range v.Len() {
			b = appendKey(b, v.Index(i))
		}
		return b
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return append(b, 0)
		}
		return appendKey(append(b, 1), v.Elem())
	case reflect.Map:
		if v.IsNil() {
			return append(b, 0)
		}
		type entry struct{ k, v []byte }
		var entries []entry
		for it := v.MapRange(); it.Next(); {
			entries = append(entries, entry{appendKey(nil, it.Key()), appendKey(nil, it.Value())})
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
			b = appendKey(b, v.Field(i))
		}
		return b
	}
	panic(fmt.Sprintf("enginetest.Key: a %s in a position's fingerprint", v.Type()))
}
