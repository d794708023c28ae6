package boltdb

import (
	"encoding/binary"
	"fmt"
)

// checkTrees walks the page trees of the file's buckets from the current
// header's root, reading the file's bytes itself: a damaged branch page
// that points back up its own tree makes bbolt's cursor descend for ever
// (bbolt's goToFirstElementOnTheStack follows first children until it
// meets a leaf), so Check looks for a loop, a page reached twice or a page
// past the file's end before bbolt reads any of them.
func checkTrees(data []byte) error {
	var m boltMeta
	ok := false
	if m0, ok0 := parseMeta(data); ok0 {
		m, ok = m0, true
		if int(m0.pageSize) < len(data) {
			if m1, ok1 := parseMeta(data[m0.pageSize:]); ok1 && m1.txid > m0.txid {
				m = m1
			}
		}
	}
	if !ok {
		return nil // no valid first header: opening reports it
	}
	t := trees{data: data, ps: int(m.pageSize), pages: m.pgid, seen: map[uint64]bool{}}
	return t.visit(m.root, 0)
}

type trees struct {
	data  []byte
	ps    int
	pages uint64 // the header's page count: every page id is below it
	seen  map[uint64]bool
}

// Page and element layouts (bbolt's internal/common): a page header of
// 16 bytes (id, flags, count, overflow), branch elements of 16 (pos,
// ksize, child page id), leaf elements of 16 (flags, pos, ksize, vsize),
// pos counted from the element itself; a bucket's value starts with its
// root page id (0: inline, its page inside the value).
const (
	branchPage     = 0x01
	leafPage       = 0x02
	bucketLeafFlag = 0x01
	elementSize    = 16
	maxTreeDepth   = 64
)

func (t *trees) visit(id uint64, depth int) error {
	le := binary.LittleEndian
	switch {
	case id < 2 || id >= t.pages:
		return fmt.Errorf("a tree points to page %d, outside the file's pages 2 to %d", id, t.pages-1)
	case t.seen[id]:
		return fmt.Errorf("page %d is reached twice from the trees (a loop)", id)
	case depth > maxTreeDepth:
		return fmt.Errorf("a tree deeper than %d pages at page %d", maxTreeDepth, id)
	}
	t.seen[id] = true
	off := int(id) * t.ps
	if off+pageHeaderSize > len(t.data) {
		return fmt.Errorf("page %d is past the file's end", id)
	}
	flags, count, overflow := le.Uint16(t.data[off+8:]), int(le.Uint16(t.data[off+10:])), int(le.Uint32(t.data[off+12:]))
	end := off + (overflow+1)*t.ps
	if overflow >= int(t.pages) || end > len(t.data) || off+pageHeaderSize+count*elementSize > end {
		return fmt.Errorf("page %d runs past the file's end", id)
	}
	for i := range count {
		e := off + pageHeaderSize + i*elementSize
		switch {
		case flags&branchPage != 0:
			if err := t.visit(le.Uint64(t.data[e+8:]), depth+1); err != nil {
				return err
			}
		case flags&leafPage != 0:
			if le.Uint32(t.data[e:])&bucketLeafFlag == 0 {
				continue // a key and its value, no bucket
			}
			v := e + int(le.Uint32(t.data[e+4:])) + int(le.Uint32(t.data[e+8:]))
			if v+8 > end || v < e {
				return fmt.Errorf("a bucket of page %d lies past its page", id)
			}
			if root := le.Uint64(t.data[v:]); root != 0 { // 0: an inline bucket, a leaf inside the value
				if err := t.visit(root, depth+1); err != nil {
					return err
				}
			}
		default:
			return fmt.Errorf("page %d of a tree is neither a branch nor a leaf (flags %#x)", id, flags)
		}
	}
	return nil
}
