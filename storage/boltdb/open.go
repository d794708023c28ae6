package boltdb

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	bolt "go.etcd.io/bbolt"

	"tessera/storage"
)

// A damaged file must end in one clear error, never in a crash: bbolt maps
// the file into memory and trusts what it finds, so a truncated file faults
// (SIGBUS) on the first read past its end, and a flipped byte in a page
// makes bbolt panic ("page expected to be…", "invalid freelist page").
// Open therefore reads the two header (meta) pages itself before bbolt maps
// anything, refuses a file shorter than its header says, and runs every
// read of an open or a check with faults turned into panics and panics
// recovered into a storage.DamagedError.

// bbolt's on-disk header, read here so that a damaged one is reported
// before bbolt maps the file (go.etcd.io/bbolt internal/common/meta.go).
const (
	boltMagic      = 0xED0CDAED
	boltVersion    = 2
	pageHeaderSize = 16
	metaSize       = 64 // magic … checksum
	noFreelist     = ^uint64(0)
	minPageSize    = 1024
	maxPageSize    = 1 << 24
)

// boltMeta is one of the file's two header pages.
type boltMeta struct {
	pageSize uint32
	root     uint64
	freelist uint64
	pgid     uint64 // the high-water mark: pages 0 … pgid-1 exist
	txid     uint64
}

// parseMeta decodes and validates a header page (checksum included).
func parseMeta(page []byte) (boltMeta, bool) {
	if len(page) < pageHeaderSize+metaSize {
		return boltMeta{}, false
	}
	b := page[pageHeaderSize : pageHeaderSize+metaSize]
	le := binary.LittleEndian // bbolt writes native order; Tessera runs on little-endian machines
	if le.Uint32(b[0:]) != boltMagic || le.Uint32(b[4:]) != boltVersion {
		return boltMeta{}, false
	}
	h := fnv.New64a()
	h.Write(b[:56])
	if h.Sum64() != le.Uint64(b[56:]) {
		return boltMeta{}, false
	}
	m := boltMeta{pageSize: le.Uint32(b[8:]), root: le.Uint64(b[16:]), freelist: le.Uint64(b[32:]), pgid: le.Uint64(b[40:]), txid: le.Uint64(b[48:])}
	if m.pageSize < minPageSize || m.pageSize > maxPageSize || m.pageSize&(m.pageSize-1) != 0 {
		return boltMeta{}, false
	}
	return m, true
}

// inspect checks, before bbolt maps the file, that it exists (when
// mustExist) and that its header is whole and consistent with its size.
// created reports that the file is missing or empty, so that Open makes
// a new database.
func inspect(path string, mustExist bool) (created bool, err error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		if mustExist {
			return false, &storage.NotFoundError{Path: path}
		}
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("open database %s: %w", path, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return false, fmt.Errorf("open database %s: %w", path, err)
	}
	if info.IsDir() {
		return false, fmt.Errorf("database %s is a directory, not a database file", path)
	}
	size := info.Size()
	if size == 0 {
		if mustExist {
			return false, &storage.NotFoundError{Path: path, Empty: true}
		}
		return true, nil
	}
	// bbolt's own search: the first header at 0, the second one page
	// later, where the page size is unknown when the first is bad.
	var metas []boltMeta
	read := func(off int64) {
		buf := make([]byte, pageHeaderSize+metaSize)
		if n, _ := f.ReadAt(buf, off); n == len(buf) {
			if m, ok := parseMeta(buf); ok && (off == 0 || int64(m.pageSize) == off) {
				metas = append(metas, m)
			}
		}
	}
	read(0)
	if len(metas) == 1 {
		read(int64(metas[0].pageSize))
	} else {
		for ps := int64(minPageSize); ps <= maxPageSize && ps < size; ps <<= 1 {
			if read(ps); len(metas) > 0 {
				break
			}
		}
	}
	if len(metas) == 0 {
		if size < 2*minPageSize {
			return false, &storage.DamagedError{Path: path, Reason: fmt.Sprintf("only %d bytes, shorter than a database's header", size)}
		}
		return false, &storage.DamagedError{Path: path, Reason: "neither of its two header pages is valid; it may not be a tessera database at all"}
	}
	// bbolt uses the valid header of the latest transaction.
	m := metas[0]
	for _, o := range metas[1:] {
		if o.txid > m.txid {
			m = o
		}
	}
	ps := uint64(m.pageSize)
	switch {
	case m.pgid < 2 || m.pgid > uint64(1<<62)/ps:
		return false, &storage.DamagedError{Path: path, Reason: fmt.Sprintf("its header counts %d pages", m.pgid)}
	case m.root < 2 || m.root >= m.pgid:
		return false, &storage.DamagedError{Path: path, Reason: fmt.Sprintf("its header puts the root at page %d of %d", m.root, m.pgid)}
	case m.freelist != noFreelist && (m.freelist < 2 || m.freelist >= m.pgid):
		return false, &storage.DamagedError{Path: path, Reason: fmt.Sprintf("its header puts the free list at page %d of %d", m.freelist, m.pgid)}
	case uint64(size) < m.pgid*ps:
		return false, &storage.DamagedError{Path: path, Reason: fmt.Sprintf("cut short: %d bytes where its header says %d pages of %d bytes (%d bytes)", size, m.pgid, ps, m.pgid*ps)}
	}
	return false, nil
}

// guard runs fn, which reads the mapped file, turning a memory fault or a
// bbolt panic into a storage.DamagedError. Faults become panics only in the
// goroutine that asked (debug.SetPanicOnFault), so fn must not hand the
// reading to another goroutine.
func guard(path string, fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = &storage.DamagedError{Path: path, Reason: fmt.Sprint(r)}
		}
	}()
	return fn()
}

// guarded runs a transaction of the open store (view, update) so that a
// damaged page met on the way is a storage.DamagedError naming `tessera
// check`, never a crash of the bot or a tool with a stack trace: a panic
// raised inside bbolt's code ("page 2 expected to be a leaf", an index out
// of range on a flipped count), or a fault on a wild address, which only
// a bad page of the mapped file makes (debug.SetPanicOnFault turns it into
// a panic, in this goroutine only). bbolt rolls the transaction back as
// the panic passes, so the store stays usable for the pages that are
// whole. Any other panic is a bug in the code the transaction runs, not
// damage: it goes on as it was.
func (s *Store) guarded(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if !isDamage(r) {
				panic(r)
			}
			err = &storage.DamagedError{Path: s.db.Path(), Reason: fmt.Sprint(r)}
		}
	}()
	err = fn()
	// A record that no longer decodes is damage too (a flipped byte
	// inside a value that bbolt reads without complaint).
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var damaged *storage.DamagedError
	// bbolt's "incompatible value" is a bucket where a value should be,
	// or the reverse: Tessera never mixes them, a flipped flag does.
	if (errors.As(err, &syntax) || errors.As(err, &typ) || errors.Is(err, bolt.ErrIncompatibleValue)) && !errors.As(err, &damaged) {
		err = &storage.DamagedError{Path: s.db.Path(), Reason: err.Error()}
	}
	return err
}

// isDamage tells, from inside the deferred function that recovered r,
// whether the panic came from a bad page: a fault on an address no nil
// pointer gives (Go faults there only when SetPanicOnFault asked), or a
// panic whose first frame outside the runtime is bbolt's.
func isDamage(r any) bool {
	if f, ok := r.(interface{ Addr() uintptr }); ok && f.Addr() >= 4096 {
		return true
	}
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs)])
	panicking := false
	for {
		f, more := frames.Next()
		switch {
		case f.Function == "runtime.gopanic":
			panicking = true
		case panicking && !strings.HasPrefix(f.Function, "runtime."):
			return strings.HasPrefix(f.Function, "go.etcd.io/bbolt")
		}
		if !more {
			return false
		}
	}
}

// openBolt opens the file with bbolt once inspect has passed it. Errors
// that mean a bad file (both headers invalid, a checksum) are damage.
func openBolt(path string, opt storage.Options) (*bolt.DB, error) {
	var db *bolt.DB
	err := guard(path, func() (err error) {
		db, err = bolt.Open(path, 0o600, &bolt.Options{Timeout: opt.LockTimeout, NoSync: opt.NoSync, ReadOnly: opt.ReadOnly})
		return err
	})
	var damaged *storage.DamagedError
	switch {
	case err == nil:
		return db, nil
	case errors.Is(err, bolt.ErrTimeout):
		return nil, fmt.Errorf("database %s is locked by another process (is another tessera running?)", path)
	case errors.As(err, &damaged):
		return nil, err
	case errors.Is(err, bolt.ErrInvalid), errors.Is(err, bolt.ErrChecksum), errors.Is(err, bolt.ErrVersionMismatch), errors.Is(err, io.ErrUnexpectedEOF):
		return nil, &storage.DamagedError{Path: path, Reason: err.Error()}
	}
	return nil, fmt.Errorf("open database %s: %w", path, err)
}

// walk reads every bucket, key and value of the file through bbolt's
// cursors, in this goroutine, so that a page bbolt cannot read faults or
// panics here, where guard recovers it. It lets go of the mapped pages
// as it goes (see resident.go), so that a walk of a file of many
// gigabytes holds a bounded part of it resident (releaseEvery).
func walk(tx *bolt.Tx) error {
	var sum byte
	read := 0
	var visit func(b *bolt.Bucket, depth int) error
	visit = func(b *bolt.Bucket, depth int) error {
		if depth > 16 {
			return errors.New("buckets nested too deep")
		}
		return b.ForEach(func(k, v []byte) error {
			for _, c := range k {
				sum ^= c
			}
			for _, c := range v {
				sum ^= c
			}
			if read += len(k) + len(v) + elementSize; read >= releaseEvery { // an element's header too: an index of short keys fills pages with them
				read = 0
				release(tx)
			}
			if v == nil {
				if child := b.Bucket(k); child != nil {
					return visit(child, depth+1)
				}
			}
			return nil
		})
	}
	err := tx.ForEach(func(name []byte, b *bolt.Bucket) error { return visit(b, 0) })
	release(tx)
	_ = sum
	return err
}

// Check verifies the file's structure (checkPages, trees.go) and that
// bbolt reads every key and value of it (walk); it returns every problem
// found. A page that makes the trees unreadable is one
// storage.DamagedError, and then bbolt is not let read the file (it would
// loop, or read past the file). Its memory does not grow with the file:
// pages are read one at a time, and mapped pages let go of.
func (s *Store) Check(ctx context.Context) []error {
	path := s.db.Path()
	var errs []error
	err := guard(path, func() error {
		f, err := os.Open(path)
		if err != nil {
			return fmt.Errorf("reading %s: %w", path, err)
		}
		defer f.Close()
		for attempt := 1; ; attempt++ {
			err := s.view(ctx, func(tx *bolt.Tx) error {
				problems, err := checkPages(f, uint64(tx.ID()))
				errs = problems
				if err != nil {
					return err
				}
				if err := walk(tx); err != nil {
					return err
				}
				errs = append(errs, checkIndexes(tx)...)       // reminders.go
				errs = append(errs, checkRatingIndexes(tx)...) // ratingindex.go
				return nil
			})
			if errors.Is(err, errTxGone) && attempt < 5 {
				continue // a running bot committed twice meanwhile
			}
			return err
		}
	})
	switch {
	case err == nil:
		return errs
	case errors.Is(err, errTxGone):
		return append(errs, fmt.Errorf("%w, five times: the bot is busy; run the check again", err))
	}
	var damaged *storage.DamagedError
	if !errors.As(err, &damaged) {
		err = &storage.DamagedError{Path: path, Reason: err.Error()}
	}
	return append(errs, err)
}
