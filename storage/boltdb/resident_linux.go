package boltdb

import (
	"syscall"

	bolt "go.etcd.io/bbolt"
)

// release drops the pages of tx's mapping from this process's resident
// memory (madvise MADV_DONTNEED). It must run inside tx: an open
// transaction keeps bbolt from remapping the file, so the range is the
// mapping's own and never some other memory of the process.
func release(tx *bolt.Tx) {
	syscall.Syscall(syscall.SYS_MADVISE, tx.DB().Info().Data, uintptr(tx.Size()), syscall.MADV_DONTNEED)
}
